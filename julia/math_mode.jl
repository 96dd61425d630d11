# Whether a task's Float32 products may use TF32 tensor cores:
#
#   1. if the task called AsyncGemm.set_math_mode!(:tf32) or set_math_mode!(:default), that mode;
#   2. else (:auto) CUDA.jl's task-local math mode, read as CUDA.jl's cuBLAS wrappers read it: TF32
#      under CUDA.FAST_MATH with a math_precision() that lets cuBLAS round Float32 inputs at least
#      as coarsely as TF32, exact fp32 otherwise (and without a usable GPU).
#
# CUDA.jl's rule (lib/cublas/wrappers.jl of 5.8 to 5.11, lib/cublas/src/wrappers.jl of 6.x,
# gemmExComputeType, which picks the compute type of every Float32 `mul!`): under FAST_MATH a
# Float32 product computes as CUBLAS_COMPUTE_32F_FAST_TF32 for :TensorFloat32 (the default
# precision), _FAST_16F for :Float16 and _FAST_16BF for :BFloat16. TF32 keeps as many mantissa bits
# as Float16 (10) and more than BFloat16 (7), with Float32's range, so none of the three forbids
# it. CUDA.jl 6.2 adds :BFloat16x9, which emulates full fp32 accuracy, and :FixedPoint, which
# concerns Float64 only (a Float32 product stays CUBLAS_COMPUTE_32F): both keep exact fp32 here.
# DEFAULT_MATH and PEDANTIC_MATH compute Float32 products as CUBLAS_COMPUTE_32F(_PEDANTIC), exact.
#
# An explicit AsyncGemm mode wins because it names this library, while CUDA.math_mode! is a
# setting for all of CUDA.jl (and sticky: it becomes the default of tasks created later). The
# AsyncGemm setting stays with its task: tasks it spawns start at :auto.
# Float16 and BFloat16 products are the same in every mode (tensor cores, fp32 accumulation).

const MATH_MODE_KEY = :AsyncGemmMathMode

const TF32_PRECISIONS = (:TensorFloat32, :Float16, :BFloat16)

"""
    AsyncGemm.set_math_mode!(mode::Symbol)

How the calling task's products of Float32 matrices are computed:

- `:auto`, every task's default: as CUDA.jl's cuBLAS wrappers compute them. On TF32 tensor cores
  after `CUDA.math_mode!(CUDA.FAST_MATH)` with `CUDA.math_precision()` `:TensorFloat32` (CUDA.jl's
  default), `:Float16` or `:BFloat16`; in exact fp32 under `CUDA.DEFAULT_MATH` (CUDA.jl's default)
  or `CUDA.PEDANTIC_MATH`, or with a precision that keeps fp32 accuracy (`:BFloat16x9`).
- `:tf32`: on TF32 tensor cores, whatever `CUDA.math_mode()` says.
- `:default`: in exact fp32 (the library's `ASYNCGEMM_MATH_DEFAULT`), whatever `CUDA.math_mode()` says.

So `:tf32` and `:default` take precedence over `CUDA.math_mode()`, and `:auto` goes back to
following it. The setting applies to the calling task only (tasks it spawns start at `:auto`).
Float16 and BFloat16 products are the same in every mode. [`math_mode`](@ref) tells which mode a
product would use now.
"""
function set_math_mode!(mode::Symbol)
    task_local_storage(MATH_MODE_KEY, option(MATH_SETTINGS, mode, "mode"))
    return
end

"""
    AsyncGemm.math_mode() -> Symbol

The mode the calling task's next product of Float32 matrices uses, `:tf32` or `:default` (exact
fp32): its own [`set_math_mode!`](@ref) choice, else what `CUDA.math_mode()` allows.
"""
math_mode() = findfirst(==(task_math_mode()), MATH_MODES)

# The task's explicit choice, or nothing for :auto.
chosen_math_mode() = get(task_local_storage(), MATH_MODE_KEY, nothing)::Union{Nothing,asyncgemm_math_t}

function task_math_mode()
    chosen = chosen_math_mode()
    chosen === nothing || return chosen
    return cuda_allows_tf32() ? ASYNCGEMM_MATH_TF32 : ASYNCGEMM_MATH_DEFAULT
end

function cuda_allows_tf32()
    # Without a usable GPU CUDA.jl has no task state to read (math_mode() would throw), and no
    # product will run.
    CUDACore.functional() || return false
    return CUDACore.math_mode() == CUDACore.FAST_MATH && CUDACore.math_precision() in TF32_PRECISIONS
end
