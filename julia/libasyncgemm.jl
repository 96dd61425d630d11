# include/asyncgemm.h in Julia: its enumerations with the header's names and values, its struct
# with the header's fields in the header's order, and one function per C function with the
# header's name and argument order. Enumerations travel as Cint, int64_t as Int64, float as Cfloat;
# device memory as CuPtr, so a CuArray or a strided view of one may be passed where the header
# takes a matrix. As in CUDA.jl's wrappers, a function that binds or launches on the current
# context first makes the task's context current on this thread (tasks share threads, and may
# move between them). Every function returns the raw status; error.jl turns it into an exception.
# tests/julia checks all of this against the header and the library.

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
    ASYNCGEMM_R_8F_E4M3 = 3
    ASYNCGEMM_R_8F_E5M2 = 4
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

@enum asyncgemm_bias_t::Cint begin
    ASYNCGEMM_BIAS_NONE = 0
    ASYNCGEMM_BIAS_PER_ROW = 1
    ASYNCGEMM_BIAS_PER_COL = 2
end

@enum asyncgemm_activation_t::Cint begin
    ASYNCGEMM_ACT_NONE = 0
    ASYNCGEMM_ACT_RELU = 1
    ASYNCGEMM_ACT_GELU_TANH = 2
    ASYNCGEMM_ACT_GELU_ERF = 3
    ASYNCGEMM_ACT_SILU = 4
end

@enum asyncgemm_scale_t::Cint begin
    ASYNCGEMM_SCALE_NONE = 0
    ASYNCGEMM_SCALE_TENSOR = 1
    ASYNCGEMM_SCALE_BLOCK_1x128 = 2
    ASYNCGEMM_SCALE_BLOCK_128x128 = 3
    ASYNCGEMM_SCALE_MX_32 = 4
end

# asyncgemm_matmul_desc_t, field by field in the header's order. Every field is a bits type of its C
# member's width (the enumerations are Cint-based), so Julia lays the struct out as C does, padding
# included, and sizeof(asyncgemm_matmul_desc_t) is the struct_size the library expects. Matrices,
# bias and scales are device memory, so CuPtr as in asyncgemm_gemm's arguments: the constructor then
# refuses a host Ptr, and CU_NULL fills an unused one. A field holds a bare address (ccall converts
# arguments, not the fields of a struct), so the caller keeps the arrays alive with GC.@preserve
# for as long as the call uses them.
struct asyncgemm_matmul_desc_t
    struct_size::Csize_t
    order::asyncgemm_order_t
    op_a::asyncgemm_op_t
    op_b::asyncgemm_op_t
    m::Int64
    n::Int64
    k::Int64
    batch_count::Int64
    alpha::Cfloat
    beta::Cfloat
    a::CuPtr{Cvoid}
    type_a::asyncgemm_dtype_t
    lda::Int64
    stride_a::Int64
    b::CuPtr{Cvoid}
    type_b::asyncgemm_dtype_t
    ldb::Int64
    stride_b::Int64
    c::CuPtr{Cvoid}
    type_c::asyncgemm_dtype_t
    ldc::Int64
    stride_c::Int64
    d::CuPtr{Cvoid}
    type_d::asyncgemm_dtype_t
    ldd::Int64
    stride_d::Int64
    bias_mode::asyncgemm_bias_t
    bias::CuPtr{Cvoid}
    type_bias::asyncgemm_dtype_t
    stride_bias::Int64
    activation::asyncgemm_activation_t
    scale_mode_a::asyncgemm_scale_t
    scale_mode_b::asyncgemm_scale_t
    scale_a::CuPtr{Cvoid}
    scale_b::CuPtr{Cvoid}
    algo::asyncgemm_algo_t
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

# The library writes the defaults into *desc, so desc is a Ref the caller owns and reads back
# (Ref{asyncgemm_matmul_desc_t}()): a struct passed by value would be copied into a temporary Ref
# and the defaults lost with it, hence the method's type.
function asyncgemm_matmul_desc_init(desc::Ref{asyncgemm_matmul_desc_t})
    @gcsafe_ccall libasyncgemm.asyncgemm_matmul_desc_init(desc::Ref{asyncgemm_matmul_desc_t})::Cvoid
end

# desc is read only: an asyncgemm_matmul_desc_t (ccall passes a pointer to a copy) or a Ref to one.
function asyncgemm_matmul(handle, desc, stream)
    initialize_context()
    @gcsafe_ccall libasyncgemm.asyncgemm_matmul(handle::Ptr{Cvoid}, desc::Ref{asyncgemm_matmul_desc_t},
                                                stream::CUstream)::Cint
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
