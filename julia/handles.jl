# Library handles, cached per CUDA context.
#
# cuBLAS handles hold a stream and are not thread-safe, so CUDA.jl gives each task its own.
# An asyncgemm handle is thread-safe, takes the stream per call and loads every kernel when it is
# created, so one per context serves every task. Its one piece of state, the math mode, is a
# task's choice here (like CUDA.math_mode!), so a context has up to one handle per math mode and
# a task picks the one its mode names. Handles are created on first use and destroyed at exit.

const handles = Dict{Tuple{CuContext,asyncgemm_math_t},Ptr{Cvoid}}()
const handles_lock = ReentrantLock()

const MATH_MODE_KEY = :AsyncGemmMathMode

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
