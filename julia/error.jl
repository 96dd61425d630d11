"""
    AsyncGemmError(status, message)

A libasyncgemm call failed: `status` is its `asyncgemm_status_t` (`AsyncGemm.ASYNCGEMM_STATUS_...`),
`message` the library's one line naming the argument or the driver call at fault.
"""
struct AsyncGemmError <: Exception
    status::asyncgemm_status_t
    message::String
end

Base.showerror(io::IO, err::AsyncGemmError) = print(io, "AsyncGemmError: ", err.message, " (", err.status, ")")

# The error for a failed call's status. The library keeps the message per thread until that
# thread's next call, and a task leaves its thread only when it yields, so call this straight after
# the failing call.
function status_error(code::Cint)
    message = unsafe_string(asyncgemm_last_error())
    any(status -> Integer(status) == code, instances(asyncgemm_status_t)) &&
        return AsyncGemmError(asyncgemm_status_t(code), message)
    # A library newer than these bindings may answer a status they do not know: keep its name.
    name = unsafe_string(asyncgemm_status_string(code))
    return AsyncGemmError(ASYNCGEMM_STATUS_INTERNAL_ERROR, "$message ($name, status $code)")
end

@noinline throw_status(code::Cint) = throw(status_error(code))

@inline function check(code::Cint)
    code == Integer(ASYNCGEMM_STATUS_SUCCESS) || throw_status(code)
    return
end
