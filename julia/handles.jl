# Library handles, cached per CUDA context.
#
# cuBLAS handles hold a stream and are not thread-safe, so CUDA.jl gives each task its own (taken
# from an idle pool, given back by a finalizer when the task or its state goes). An asyncgemm
# handle is thread-safe, takes the stream per call and loads every kernel when it is created, so
# one per context serves every task, and there is no per-task state to finalize. Its one piece of
# state, the math mode, is a task's choice (math_mode.jl), so a context has up to one handle per
# math mode and a task picks the one its mode names. Autotuning, by contrast, is one process-wide
# switch: its tuned winners are shared by every handle on a GPU model anyway. Handles are created
# on first use and destroyed at exit.
#
# A context can be destroyed under its handles: by CUDA.device_reset! up to CUDA.jl 6.2.0 (from
# 6.2.1 a no-op: primary contexts then live as long as the process), or by CUDA.unsafe_destroy! of
# a context of one's own. As in CUDA.jl's cuBLAS handle cache, handles are keyed by CuContext, which
# holds the driver's unique context ID (cuCtxGetId; libasyncgemm needs a CUDA 12 driver, which has
# it) besides the CUcontext pointer: the context that replaces a destroyed one never equals it,
# even where the driver hands out the same pointer again, so the new context's first call creates
# a handle rather than finding the old one. (Wherever device_reset! resets, up to 6.2.0, CUDA.jl's
# context() notices that the task's context is gone and gives the task the new one.)
# The handles of destroyed contexts (isvalid) are dropped whenever a handle is created or
# autotuning switched, and at exit only handles of live contexts are destroyed: asyncgemm_destroy
# frees the handle's scratch memory inside its context, and a new context may have the old one's
# pointer and addresses. CUDA.jl's handle destructors likewise skip destroyed contexts (up to 6.2.0
# with context!(ctx; skip_destroyed=true)).
# A dropped handle's host memory (its kernel table) stays allocated; its device memory went with
# the context.

const handles = Dict{Tuple{CuContext,asyncgemm_math_t},Ptr{Cvoid}}()
const handles_lock = ReentrantLock()

# The last set_autotune! choice; `nothing` leaves every handle as ASYNCGEMM_AUTOTUNE set it.
const autotune = Ref{Union{Nothing,Bool}}(nothing)

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
        forget_destroyed_contexts!()
        foreach(h -> check(asyncgemm_set_autotune(h, enable)), values(handles))
    end
    return
end

# The handle for the task's context and math mode (asyncgemm_create binds the current context,
# which its binding makes the task's).
function handle()
    require_library()
    key = (context(), task_math_mode())
    @lock handles_lock begin
        h = get(handles, key, C_NULL)
        if h == C_NULL
            forget_destroyed_contexts!()
            h = handles[key] = create_handle(key[2])
        end
        h
    end
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

# Drops, without destroying, the handles of contexts that no longer exist. Call with handles_lock.
forget_destroyed_contexts!() = filter!(entry -> CUDACore.isvalid(first(entry.first)), handles)

# At exit: destroys the handles whose contexts still exist and drops the rest.
function destroy_handles()
    @lock handles_lock begin
        for ((ctx, _), h) in handles
            CUDACore.isvalid(ctx) && asyncgemm_destroy(h)
        end
        empty!(handles)
    end
end
