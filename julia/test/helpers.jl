# What the GPU tests share: inputs, references, tolerances and the statuses a named algorithm may
# answer instead of a result.

Random.seed!(20240607)

const ELEMENTS = (Float16, BFloat16, Float32)

# The element types an input type may write.
outputs(::Type{Float32}) = (Float32,)
outputs(::Type{<:Union{Float16,BFloat16}}) = (Float16, BFloat16, Float32)

# ‖D - ref‖ / ‖ref‖ allowed for an output type: a few roundings of the output, as accumulation is fp32.
tolerance(::Type{Float32}) = 1e-5
tolerance(::Type{Float16}) = 2e-3
tolerance(::Type{BFloat16}) = 1.6e-2

# Uniform in [-1, 1), rounded to T, never all zeros.
device_random(T, dims...) = CuArray(T.(2 .* rand(Float32, dims...) .- 1))

# NaN everywhere, so that an element the library fails to write cannot pass.
poisoned(T, dims...) = fill!(CuArray{T}(undef, dims...), T(NaN))

# Exact where ref is zero, and never true when D holds NaN.
function close_to(D, ref, tol)
    err = sqrt(sum(abs2, Float32.(D) .- ref))
    return err <= tol * sqrt(sum(abs2, ref))
end

# How a test asks for the operand it multiplies: the matrix as stored, its transpose or its
# adjoint, each read in place.
const OPS = (N=identity, T=transpose, C=adjoint)

# Storage for op(X) of size rows×cols: op(storage) has that size.
stored_dims(op, rows, cols) = op === identity ? (rows, cols) : (cols, rows)

const DECLINED_GEMM = (AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED, AsyncGemm.ASYNCGEMM_STATUS_MISALIGNED)

# f() ran (true), or declined the problem with one of the statuses `declined` (false) where it
# `may_decline`: a named algorithm may, :auto must serve everything. Any other failure is rethrown.
function ran(f, may_decline::Bool; declined=DECLINED_GEMM)
    try
        f()
        return true
    catch err
        may_decline && err isa AsyncGemmError && err.status in declined && return false
        rethrow()
    end
end

# The status of the library's refusal of f(), thrown as AsyncGemmError; nothing when f ran. Any other
# failure is rethrown.
refusal(f) = try
    f()
    nothing
catch err
    err isa AsyncGemmError ? err.status : rethrow()
end

gemm_algorithms() = [:auto; AsyncGemm.algorithms()]

# The stored matrix behind a test operand (OPS wraps it in at most one layer).
parent_or_self(x::Union{Transpose,Adjoint}) = parent(x)
parent_or_self(x::AbstractArray) = x
