# julia --project=<repository> julia/test/runtests.jl
#
# The column-major mapping tests, those of matmul!'s bias and activation keywords among them, need
# no GPU. The rest run when CUDA.functional() and libasyncgemm loads (see AsyncGemm.functional());
# otherwise they are skipped with a warning saying why.
using Test
using CUDA
using AsyncGemm
using AsyncGemm: AsyncGemmError, matmul!, matmul, copy2d!
using LinearAlgebra
using BFloat16s: BFloat16
using Random

include("helpers.jl")

@testset "AsyncGemm" begin
    include("mapping.jl")
    if CUDA.functional() && AsyncGemm.functional()
        @info "GPU tests on $(CUDA.device()), libasyncgemm $(AsyncGemm.version()), " *
              "algorithms $(AsyncGemm.algorithms())"
        include("matmul.jl")
        include("batched.jl")
        include("fused.jl")
        include("copy2d.jl")
        include("errors.jl")
        include("tasks.jl")
        include("contexts.jl")  # last: it may reset the device
    else
        @warn "GPU tests skipped: " *
              (CUDA.functional() ? "libasyncgemm not found ($(AsyncGemm.library_problem))" : "no usable CUDA GPU")
    end
end
