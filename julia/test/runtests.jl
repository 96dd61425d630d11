# julia --project=<repository> julia/test/runtests.jl
#
# The column-major mapping tests, those of matmul!'s bias and activation keywords among them, the
# refusals of 8-bit inputs (block and MX scales of a wrong size among them) and the layout of
# mx_scales need no GPU. The rest run when CUDA.functional() and libasyncgemm loads (see
# AsyncGemm.functional()); otherwise they are skipped with a warning saying why. The 8-bit products
# run on any GPU: on Hopper (compute capability 9.0) partly on its 8-bit tensor cores, elsewhere on
# Float16 copies (block-scaled ones on SIMT kernels; MX-scaled ones on SIMT kernels, or on Blackwell
# partly on its tensor cores).
using Test
using CUDA
using AsyncGemm
using AsyncGemm: AsyncGemmError, matmul!, matmul, mx_scales, copy2d!
using LinearAlgebra
using BFloat16s: BFloat16
using DLFP8Types: Float8_E4M3FN, Float8_E5M2, Float8_E4M3FNUZ
using Random

include("helpers.jl")

@testset "AsyncGemm" begin
    include("mapping.jl")
    include("fp8.jl")  # its refusals on any machine; its products where there is a GPU
    include("fp8_block.jl")  # block scales: the same
    include("fp8_mx.jl")  # MX scales: the same
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
