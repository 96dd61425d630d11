# Library handles: one per task and context, each with a workspace of the task's own.
#
# An asyncgemm handle is thread-safe and takes the stream per call, but a workspace lent to it
# (asyncgemm_set_workspace) may serve one stream at a time, and only a workspace of the caller's is
# used inside stream capture (without one, a product captured into a CUDA graph runs with K unsplit,
# slower than the same product run eagerly, and with other result bits). So, as CUDA.jl's cuBLAS
# wrappers give each task its own cublasHandle_t, each task takes a handle of its context from an
# idle pool (creating one when the pool is empty: creation loads every kernel, which is why handles
# are pooled rather than created per task), lends it a workspace allocated from CUDA.jl's pool on
# the task's stream, and gives the handle back to the pool when the task is finalized. Where the
# task switches streams, the handle gets a new workspace (the old one is freed, in stream order, once
# nothing refers to it); where it switches math modes, the handle's mode follows. Autotuning is one
# process-wide switch (its winners are shared by every handle on a GPU model anyway), applied to
# every handle that exists and to every one created later. Handles are destroyed at exit.
#
# A context can be destroyed under its handles: by CUDA.device_reset! up to CUDA.jl 6.2.0 (from
# 6.2.1 a no-op: primary contexts then live as long as the process), or by CUDA.unsafe_destroy! of
# a context of one's own. As in CUDA.jl's handle caches, handles are keyed by CuContext, which
# holds the driver's unique context ID (cuCtxGetId; libasyncgemm needs a CUDA 12 driver, which has
# it) besides the CUcontext pointer: the context that replaces a destroyed one never equals it,
# even where the driver hands out the same pointer again, so the new context's first call creates
# a handle rather than finding the old one. The handles of destroyed contexts (isvalid) are dropped
# whenever a handle is created or autotuning switched, and at exit only handles of live contexts are
# destroyed: asyncgemm_destroy frees the handle's scratch memory inside its context, and a new
# context may have the old one's pointer and addresses. A dropped handle's host memory (its kernel
# table) stays allocated; its device memory went with the context.

# Every handle of each context, and those of them no task holds. A task's finalizer gives its
# handle back, and finalizers must not wait on a lock: every holder of `handles_lock` keeps
# finalizers off its thread while it holds it, and the finalizer spins for the lock (as CUDA.jl's
# handle cache does).
const all_handles = Dict{CuContext,Vector{Ptr{Cvoid}}}()
const idle_handles = Dict{CuContext,Vector{Ptr{Cvoid}}}()
const handles_lock = ReentrantLock()

function with_handles_lock(f)
    GC.enable_finalizers(false)
    try
        return @lock handles_lock f()
    finally
        GC.enable_finalizers(true)
    end
end

# The last set_autotune! choice; `nothing` leaves every handle as ASYNCGEMM_AUTOTUNE set it.
const autotune = Ref{Union{Nothing,Bool}}(nothing)

# Bytes of each task's workspace: the header's ASYNCGEMM_WORKSPACE_RECOMMENDED_BYTES, which holds
# every split of K the library makes.
const WORKSPACE_BYTES = 32 << 20

# What a task holds per context.
const TaskHandle = @NamedTuple{handle::Ptr{Cvoid}, stream::CuStream, math_mode::asyncgemm_math_t,
                               workspace::CuArray{UInt8,1}}

const TASK_HANDLES_KEY = :AsyncGemmHandles

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
    with_handles_lock() do
        autotune[] = enable
        forget_destroyed_contexts!()
        for handles in values(all_handles), h in handles
            check(asyncgemm_set_autotune(h, enable))
        end
    end
    return
end

# The task's handle for its context (asyncgemm_create binds the current context, which its binding
# makes the task's), set to the task's math mode and lent a workspace on the task's stream.
function handle()
    require_library()
    ctx = context()
    task_stream = stream()
    mode = task_math_mode()
    states = get!(task_local_storage(), TASK_HANDLES_KEY) do
        Dict{CuContext,TaskHandle}()
    end::Dict{CuContext,TaskHandle}
    state = get(states, ctx, nothing)
    if state === nothing
        state = states[ctx] = new_task_handle(ctx, task_stream, mode)
    else
        if state.stream != task_stream
            state = states[ctx] = with_workspace(state.handle, task_stream, state.math_mode)
        end
        if state.math_mode != mode
            check(asyncgemm_set_math_mode(state.handle, mode))
            state = states[ctx] = (; state..., math_mode=mode)
        end
    end
    return state.handle
end

@noinline function new_task_handle(ctx::CuContext, task_stream::CuStream, mode::asyncgemm_math_t)
    h = take_handle(ctx)
    finalizer(current_task()) do _
        give_back(ctx, h)
    end
    check(asyncgemm_set_math_mode(h, mode))
    return with_workspace(h, task_stream, mode)
end

# A fresh workspace, allocated on `task_stream`, lent to `h`. The library zeroes part of it on a
# stream of its own, and CUDA.jl's pool hands out memory in stream order (it may be the memory of an
# array freed on this stream by work still queued there): the stream is drained first.
@noinline function with_workspace(h::Ptr{Cvoid}, task_stream::CuStream, mode::asyncgemm_math_t)
    workspace = CuArray{UInt8}(undef, WORKSPACE_BYTES)
    synchronize(task_stream)
    check(asyncgemm_set_workspace(h, workspace, sizeof(workspace)))
    return (; handle=h, stream=task_stream, math_mode=mode, workspace)
end

# An idle handle of the context, or a new one (created outside the lock: creation loads every
# kernel, and a finalizer may be spinning for the lock meanwhile).
function take_handle(ctx::CuContext)
    idle = with_handles_lock() do
        pool = get(idle_handles, ctx, nothing)
        (pool === nothing || isempty(pool)) ? C_NULL : pop!(pool)
    end
    idle == C_NULL || return idle
    h = create_handle()
    with_handles_lock() do
        forget_destroyed_contexts!()
        push!(get!(Vector{Ptr{Cvoid}}, all_handles, ctx), h)
        # A set_autotune! since create_handle read the switch did not see this handle.
        autotune[] === nothing || check(asyncgemm_set_autotune(h, autotune[]))
    end
    return h
end

# From a task's finalizer: back to the pool of its context, unless the context is gone.
function give_back(ctx::CuContext, h::Ptr{Cvoid})
    while !trylock(handles_lock)  # held briefly, by code that cannot wait on this finalizer
    end
    try
        haskey(all_handles, ctx) && push!(get!(Vector{Ptr{Cvoid}}, idle_handles, ctx), h)
    finally
        unlock(handles_lock)
    end
    return
end

function create_handle()
    ref = Ref{Ptr{Cvoid}}(C_NULL)
    check(asyncgemm_create(ref))
    status = autotune[] === nothing ? Cint(ASYNCGEMM_STATUS_SUCCESS) : asyncgemm_set_autotune(ref[], autotune[])
    if status != Integer(ASYNCGEMM_STATUS_SUCCESS)
        err = status_error(status)  # before asyncgemm_destroy replaces this thread's message
        asyncgemm_destroy(ref[])
        throw(err)
    end
    return ref[]
end

# Drops, without destroying, the handles of contexts that no longer exist. Call with handles_lock.
function forget_destroyed_contexts!()
    filter!(entry -> CUDACore.isvalid(first(entry)), all_handles)
    filter!(entry -> CUDACore.isvalid(first(entry)), idle_handles)
    return
end

# At exit: destroys the handles whose contexts still exist and drops the rest.
function destroy_handles()
    with_handles_lock() do
        for (ctx, handles) in all_handles, h in handles
            CUDACore.isvalid(ctx) && asyncgemm_destroy(h)
        end
        empty!(all_handles)
        empty!(idle_handles)
    end
end
