"""
    AsyncGemm

Matrix products and tiled copies of `CuArray`s through libasyncgemm, on CUDA.jl's task-local
stream. Column-major throughout: `Transpose` and `Adjoint` of real matrices are read transposed
in place, never copied. Float32 products follow `CUDA.math_mode()` as CUDA.jl's cuBLAS does (TF32
under `FAST_MATH`) unless the task chooses with [`set_math_mode!`](@ref).

    using CUDA, AsyncGemm
    A = CUDA.rand(Float16, 4096, 4096); B = CUDA.rand(Float16, 4096, 4096)
    C = AsyncGemm.matmul(A, transpose(B); algo=:auto)

See [`matmul!`](@ref), [`copy2d!`](@ref), [`algorithms`](@ref), [`set_math_mode!`](@ref) and
[`set_autotune!`](@ref).
"""
module AsyncGemm

import CUDA
using LinearAlgebra: Adjoint, Transpose
using Libdl
using Preferences: load_preference
using BFloat16s: BFloat16

include("compat.jl")  # CUDA.jl's names and @gcsafe_ccall, in every admitted CUDA.jl version

public matmul!, matmul, copy2d!, algorithms, version, functional, set_math_mode!, math_mode,
       set_autotune!, AsyncGemmError

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
