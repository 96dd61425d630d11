# include/asyncgemm.h in Julia: its enumerations with the header's names and values, and one
# function per C function with the header's name and argument order. Enumerations travel as Cint,
# int64_t as Int64, float as Cfloat; device memory as CuPtr, so a CuArray or a strided view of one
# may be passed where the header takes a matrix. As in CUDA.jl's wrappers, a function that binds or
# launches on the current context first makes the task's context current on this thread (tasks
# share threads, and may move between them). Every function returns the raw status; error.jl turns
# it into an exception. tests/julia checks all of this against the header and the library.

@enum asyncgemm_status_t::Cint begin
    ASYNCGEMM_STATUS_SUCCESS = 0
    ASYNCGEMM_STATUS_INVALID_VALUE = 1
    ASYNCGEMM_STATUS_MISALIGNED = 2
    ASYNCGEMM_STATUS_NOT_SUPPORTED = 3
    ASYNCGEMM_STATUS_NO_DRIVER = 4
    ASYNCGEMM_STATUS_DRIVER_TOO_OLD = 5
    ASYNCGEMM_STATUS_NO_DEVICE = 6
    ASYNCGEMM_STATUS_CUDA_ERROR = 7
    ASYNCGEMM_STATUS_OUT_OF_MEMORY = 8
    ASYNCGEMM_STATUS_INTERNAL_ERROR = 9
end

@enum asyncgemm_dtype_t::Cint begin
    ASYNCGEMM_R_32F = 0
    ASYNCGEMM_R_16F = 1
    ASYNCGEMM_R_16BF = 2
end

@enum asyncgemm_order_t::Cint begin
    ASYNCGEMM_ORDER_ROW = 0
    ASYNCGEMM_ORDER_COL = 1
end

@enum asyncgemm_op_t::Cint begin
    ASYNCGEMM_OP_N = 0
    ASYNCGEMM_OP_T = 1
end

@enum asyncgemm_algo_t::Cint begin
    ASYNCGEMM_ALGO_AUTO = 0
    ASYNCGEMM_ALGO_SIMT = 1
    ASYNCGEMM_ALGO_ASYNC_COPY = 2
    ASYNCGEMM_ALGO_PIPELINED = 3
    ASYNCGEMM_ALGO_SM90_TMA_WGMMA = 4
    ASYNCGEMM_ALGO_SM100_TCGEN05 = 5
end

@enum asyncgemm_math_t::Cint begin
    ASYNCGEMM_MATH_DEFAULT = 0
    ASYNCGEMM_MATH_TF32 = 1
end

@enum asyncgemm_copy_algo_t::Cint begin
    ASYNCGEMM_COPY_AUTO = 0
    ASYNCGEMM_COPY_SYNC = 1
    ASYNCGEMM_COPY_ASYNC = 2
    ASYNCGEMM_COPY_PIPELINED = 3
    ASYNCGEMM_COPY_TMA = 4
end

@enum asyncgemm_smem_layout_t::Cint begin
    ASYNCGEMM_SMEM_AUTO = 0
    ASYNCGEMM_SMEM_PLAIN = 1
    ASYNCGEMM_SMEM_PADDED = 2
    ASYNCGEMM_SMEM_SWIZZLED = 3
end

# asyncgemm_handle_t, an opaque pointer, is Ptr{Cvoid}.

function asyncgemm_get_version(major, minor, patch)
    @gcsafe_ccall libasyncgemm.asyncgemm_get_version(major::Ref{Cint}, minor::Ref{Cint},
                                                     patch::Ref{Cint})::Cvoid
end

function asyncgemm_status_string(status)
    @gcsafe_ccall libasyncgemm.asyncgemm_status_string(status::Cint)::Cstring
end

function asyncgemm_last_error()
    @gcsafe_ccall libasyncgemm.asyncgemm_last_error()::Cstring
end

function asyncgemm_create(handle)
    initialize_context()
    @gcsafe_ccall libasyncgemm.asyncgemm_create(handle::Ref{Ptr{Cvoid}})::Cint
end

function asyncgemm_create_for_device(handle, device)
    @gcsafe_ccall libasyncgemm.asyncgemm_create_for_device(handle::Ref{Ptr{Cvoid}}, device::Cint)::Cint
end

function asyncgemm_destroy(handle)
    @gcsafe_ccall libasyncgemm.asyncgemm_destroy(handle::Ptr{Cvoid})::Cint
end

function asyncgemm_set_math_mode(handle, mode)
    @gcsafe_ccall libasyncgemm.asyncgemm_set_math_mode(handle::Ptr{Cvoid}, mode::Cint)::Cint
end

function asyncgemm_algo_available(handle, algo, available)
    @gcsafe_ccall libasyncgemm.asyncgemm_algo_available(handle::Ptr{Cvoid}, algo::Cint,
                                                        available::Ref{Cint})::Cint
end

function asyncgemm_gemm(handle, order, op_a, op_b, m, n, k,
                        alpha, a, type_a, lda,
                        b, type_b, ldb,
                        beta, c, type_c, ldc,
                        d, type_d, ldd,
                        algo, stream)
    initialize_context()
    @gcsafe_ccall libasyncgemm.asyncgemm_gemm(
        handle::Ptr{Cvoid}, order::Cint, op_a::Cint, op_b::Cint, m::Int64, n::Int64, k::Int64,
        alpha::Cfloat, a::CuPtr{Cvoid}, type_a::Cint, lda::Int64,
        b::CuPtr{Cvoid}, type_b::Cint, ldb::Int64,
        beta::Cfloat, c::CuPtr{Cvoid}, type_c::Cint, ldc::Int64,
        d::CuPtr{Cvoid}, type_d::Cint, ldd::Int64,
        algo::Cint, stream::CUstream)::Cint
end

function asyncgemm_gemm_strided_batched(handle, order, op_a, op_b, m, n, k,
                                        alpha, a, type_a, lda, stride_a,
                                        b, type_b, ldb, stride_b,
                                        beta, c, type_c, ldc, stride_c,
                                        d, type_d, ldd, stride_d,
                                        batch_count, algo, stream)
    initialize_context()
    @gcsafe_ccall libasyncgemm.asyncgemm_gemm_strided_batched(
        handle::Ptr{Cvoid}, order::Cint, op_a::Cint, op_b::Cint, m::Int64, n::Int64, k::Int64,
        alpha::Cfloat, a::CuPtr{Cvoid}, type_a::Cint, lda::Int64, stride_a::Int64,
        b::CuPtr{Cvoid}, type_b::Cint, ldb::Int64, stride_b::Int64,
        beta::Cfloat, c::CuPtr{Cvoid}, type_c::Cint, ldc::Int64, stride_c::Int64,
        d::CuPtr{Cvoid}, type_d::Cint, ldd::Int64, stride_d::Int64,
        batch_count::Int64, algo::Cint, stream::CUstream)::Cint
end

function asyncgemm_copy2d(handle, order, op, rows, cols, alpha,
                          src, ld_src, dst, ld_dst, dtype,
                          algo, layout, vector_bytes, stream)
    initialize_context()
    @gcsafe_ccall libasyncgemm.asyncgemm_copy2d(
        handle::Ptr{Cvoid}, order::Cint, op::Cint, rows::Int64, cols::Int64, alpha::Cfloat,
        src::CuPtr{Cvoid}, ld_src::Int64, dst::CuPtr{Cvoid}, ld_dst::Int64, dtype::Cint,
        algo::Cint, layout::Cint, vector_bytes::Cint, stream::CUstream)::Cint
end

function asyncgemm_set_autotune(handle, enable)
    @gcsafe_ccall libasyncgemm.asyncgemm_set_autotune(handle::Ptr{Cvoid}, enable::Cint)::Cint
end

function asyncgemm_set_workspace(handle, workspace, bytes)
    @gcsafe_ccall libasyncgemm.asyncgemm_set_workspace(handle::Ptr{Cvoid}, workspace::CuPtr{Cvoid},
                                                       bytes::Csize_t)::Cint
end
