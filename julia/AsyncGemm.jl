"""
    AsyncGemm

Matrix products and tiled copies of `CuArray`s through libasyncgemm, on CUDA.jl's task-local
stream. Column-major throughout: `Transpose` and `Adjoint` of real matrices are read transposed
in place, never copied. Float32 products follow `CUDA.math_mode()` as CUDA.jl's cuBLAS does (TF32
under `FAST_MATH`) unless the task chooses with [`set_math_mode!`](@ref).

    using CUDA, AsyncGemm
    A = CUDA.rand(Float16, 4096, 4096); B = CUDA.rand(Float16, 4096, 4096)
    C = AsyncGemm.matmul(A, transpose(B); algo=:auto)

`A` and `B` may also hold 8-bit floats (DLFP8Types' `Float8_E4M3FN` or `Float8_E5M2`) with
dequantizing scales, one per matrix or one per block (1×128 or 128×128), on any GPU and in any
form: on Hopper the 8-bit tensor cores multiply K-major ones (with block scales, where `A`'s are
not one per row) and K-major 8-bit copies of a plain operand, and everything else runs on Float16
copies (with block scales, on SIMT kernels).
They may also have MX scales, a power of two per row and 32 elements of K, which
[`mx_scales`](@ref) lays out: on Blackwell the tensor cores multiply K-major ones, and everything
else runs on SIMT kernels. See [`matmul!`](@ref).

See [`matmul!`](@ref), [`copy2d!`](@ref), [`algorithms`](@ref), [`set_math_mode!`](@ref) and
[`set_autotune!`](@ref).
"""
module AsyncGemm

import CUDA
using LinearAlgebra: Adjoint, Transpose
using Libdl
using Preferences: load_preference
using BFloat16s: BFloat16
# The 8-bit inputs of matmul!: DLFP8Types' Float8_E4M3FN and Float8_E5M2 are the OCP FP8 formats
# (E4M3 without infinities, E5M2 IEEE-like) that FP8 tensor cores read, as isbits 8-bit primitive
# types a CuArray holds. Float8s.jl is no substitute: its Float8 has a 3-bit exponent and its
# Float8_4 is an IEEE-style E4M3 with infinities, neither the OCP encoding, and it has no E5M2.
using DLFP8Types: Float8_E4M3FN, Float8_E5M2

include("compat.jl")  # CUDA.jl's names and @gcsafe_ccall, in every admitted CUDA.jl version

public matmul!, matmul, mx_scales, copy2d!, algorithms, version, functional, set_math_mode!,
       math_mode, set_autotune!, AsyncGemmError

include("library.jl")
include("libasyncgemm.jl")
include("error.jl")
include("options.jl")
include("math_mode.jl")
include("handles.jl")
include("operand.jl")
include("matmul.jl")
include("copy2d.jl")
include("info.jl")

function __init__()
    load_library!()
    atexit(destroy_handles)
end

end # module AsyncGemm
