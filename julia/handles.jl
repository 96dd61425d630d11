# Library handles, cached per CUDA context.
#
# cuBLAS handles hold a stream and are not thread-safe, so CUDA.jl gives each task its own.
# An asyncgemm handle is thread-safe, takes the stream per call and loads every kernel when it is
# created, so one per context serves every task. Its one piece of state, the math mode, is a
# task's choice here (like CUDA.math_mode!), so a context has up to one handle per math mode and
# a task picks the one its mode names. Autotuning, by contrast, is one process-wide switch: its
# tuned winners are shared by every handle on a GPU model anyway. Handles are created on first use
# and destroyed at exit.

const handles = Dict{Tuple{CuContext,asyncgemm_math_t},Ptr{Cvoid}}()
const handles_lock = ReentrantLock()

const MATH_MODE_KEY = :AsyncGemmMathMode

# The last set_autotune! choice; `nothing` leaves every handle as ASYNCGEMM_AUTOTUNE set it.
const autotune = Ref{Union{Nothing,Bool}}(nothing)

"""
    AsyncGemm.set_math_mode!(mode::Symbol)

Let the calling task's products of Float32 matrices use TF32 tensor cores (`:tf32`), or keep
them exact fp32 (`:default`, the default). Like `CUDA.math_mode!`, it applies to the calling task.
"""
function set_math_mode!(mode::Symbol)
    task_local_storage(MATH_MODE_KEY, option(MATH_MODES, mode, "mode"))
    return
end

"""
    AsyncGemm.math_mode() -> Symbol

The calling task's math mode: `:default` or `:tf32` (see [`set_math_mode!`](@ref)).
"""
math_mode() = findfirst(==(task_math_mode()), MATH_MODES)

"""
    AsyncGemm.set_autotune!(enable::Bool)

With `true`, the first product of each shape bucket (element types, layouts, and sizes rounded up
to powers of two) times the candidate kernels on scratch memory and later products of the bucket
use the fastest; winners persist across sessions in `ASYNCGEMM_CACHE_DIR` (default
`~/.cache/asyncgemm`). `false` returns to the built-in choice. Unlike the math mode it applies to
the whole process: every task, every device. Without a call, the environment variable
`ASYNCGEMM_AUTOTUNE=1` turns it on.
"""
function set_autotune!(enable::Bool)
    require_library()
    @lock handles_lock begin
        autotune[] = enable
        foreach(h -> check(asyncgemm_set_autotune(h, enable)), values(handles))
    end
    return
end

task_math_mode() = get(task_local_storage(), MATH_MODE_KEY, ASYNCGEMM_MATH_DEFAULT)::asyncgemm_math_t

# The handle for the task's context and math mode (asyncgemm_create binds the current context,
# which its binding makes the task's).
function handle()
    require_library()
    key = (context(), task_math_mode())
    @lock handles_lock get!(() -> create_handle(key[2]), handles, key)
end

function create_handle(mode::asyncgemm_math_t)
    ref = Ref{Ptr{Cvoid}}(C_NULL)
    check(asyncgemm_create(ref))
    status = asyncgemm_set_math_mode(ref[], mode)
    if status == Integer(ASYNCGEMM_STATUS_SUCCESS) && autotune[] !== nothing
        status = asyncgemm_set_autotune(ref[], autotune[])
    end
    if status != Integer(ASYNCGEMM_STATUS_SUCCESS)
        err = status_error(status)  # before asyncgemm_destroy replaces this thread's message
        asyncgemm_destroy(ref[])
        throw(err)
    end
    return ref[]
end

# Destroying a handle needs no context (its context may be gone by exit: it only drops references).
function destroy_handles()
    @lock handles_lock begin
        foreach(asyncgemm_destroy, values(handles))
        empty!(handles)
    end
end
