# Where the names this package takes from CUDA.jl live, in every version Project.toml admits,
# as CUDA.jl's and GPUToolbox.jl's tagged sources have them:
#
#   CUDA.jl          arrays, contexts, streams, math mode     GPUToolbox it requires
#   5.8.0 - 5.8.2    module CUDA                              0.2
#   5.8.3 - 5.9.0    module CUDA                              0.3
#   5.9.1 - 5.11.3   module CUDA                              0.3, 1
#   6.0.0 - 6.2.0    module CUDACore, re-exported by CUDA     1.1 (CUDACore; cuBLAS takes 0.3, 1)
#   6.2.1 - 6.3.0    module CUDACore, re-exported by CUDA     3
#
# @gcsafe_ccall: CUDA.jl defined it itself up to 5.6 (lib/utils/call.jl); from 5.7 it takes it from
# GPUToolbox.jl (`using GPUToolbox` in src/CUDA.jl on 5.x, in CUDACore.jl on 6.x). Every GPUToolbox
# release (0.1, 0.2, 0.3, 1.0, 1.1, 2.0, 3.0) exports it, and from 0.2 on Julia 1.12 it is Base's
# `@ccall gc_safe=true`. Through CUDA.jl it is reachable only as CUDA.GPUToolbox on 5.x and as
# CUDA.CUDACore.GPUToolbox on 6.x, names neither version promises; so, like CUDA.jl, this package
# depends on GPUToolbox itself, with a [compat] ("0.2, 0.3, 1, 2, 3") that meets every admitted
# CUDA.jl's. A later CUDA.jl that needs a GPUToolbox outside it is held back by the resolver
# rather than loaded without the macro.
using GPUToolbox: @gcsafe_ccall

const CUDACore = isdefined(CUDA, :CUDACore) ? CUDA.CUDACore : CUDA
using .CUDACore: CuArray, StridedCuArray, CuPtr, CU_NULL, CuContext, CuStream, CUstream, context, stream,
                 synchronize, initialize_context

# Used qualified (CUDACore.name), and defined there in every admitted version:
#   math_mode(), math_precision(), FAST_MATH   the task's math mode, as CUDA.jl's cuBLAS reads it
#   isvalid(::CuContext)                       whether a context still exists (handles.jl)
#   functional()                               whether CUDA.jl has a usable GPU
# Not used: context!(f, ctx; skip_destroyed=true), with which CUDA.jl's handle caches skip
# destroyed contexts up to 6.2.0; 6.2.1 removed the keyword (and made device_reset! a no-op).
