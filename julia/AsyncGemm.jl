"""
    AsyncGemm

Matrix products and tiled copies of `CuArray`s through libasyncgemm, on CUDA.jl's task-local
stream. Column-major throughout: `Transpose` and `Adjoint` of real matrices are read transposed
in place, never copied.

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

# CUDA.jl 6 moved arrays and the driver layer into CUDACore (which CUDA re-exports); 5.x has them
# in CUDA itself. Either way GPUToolbox, which provides @gcsafe_ccall, is loaded there.
const CUDACore = isdefined(CUDA, :CUDACore) ? CUDA.CUDACore : CUDA
using .CUDACore: CuArray, StridedCuArray, CuPtr, CU_NULL, CuContext, CUstream, context, stream,
                 initialize_context
using .CUDACore.GPUToolbox: @gcsafe_ccall

public matmul!, matmul, copy2d!, algorithms, version, functional, set_math_mode!, math_mode,
       set_autotune!, AsyncGemmError

include("library.jl")
include("libasyncgemm.jl")
include("error.jl")
include("options.jl")
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
