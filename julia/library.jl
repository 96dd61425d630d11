# Finding libasyncgemm: ENV["ASYNCGEMM_LIBRARY"], then the "libasyncgemm" preference, then the
# repository's default CMake build folder; the first that loads wins.

# The major version of the C API these bindings follow (include/asyncgemm.h, ASYNCGEMM_VERSION_MAJOR).
const C_API_MAJOR = 0

const LIBRARY_VARIABLE = "ASYNCGEMM_LIBRARY"
const LIBRARY_PREFERENCE = "libasyncgemm"

# The path every binding's ccall loads; empty until __init__ finds a library.
global libasyncgemm::String = ""
# Why no library loaded, one line per place looked in; empty once one has.
global library_problem::String = ""

default_library_path() = normpath(joinpath(@__DIR__, "..", "build", "libasyncgemm." * Libdl.dlext))

# (where the path came from, the path or nothing when that place names none), in the order tried.
library_candidates() = [
    ("ENV[\"$LIBRARY_VARIABLE\"]", get(ENV, LIBRARY_VARIABLE, nothing)),
    ("the \"$LIBRARY_PREFERENCE\" preference", load_preference(@__MODULE__, LIBRARY_PREFERENCE, nothing)),
    ("the default build folder", default_library_path()),
]

# Why `path` cannot serve as libasyncgemm, or nothing when it can (and then it is loaded).
function unusable_reason(path::AbstractString)
    isfile(path) || return "$path does not exist"
    lib = try
        Libdl.dlopen(path)
    catch err
        return sprint(showerror, err)
    end
    Libdl.dlsym(lib, :asyncgemm_get_version; throw_error=false) === nothing &&
        return "$path is not libasyncgemm: it has no asyncgemm_get_version"
    global libasyncgemm = path
    v = library_version()
    v.major == C_API_MAJOR && return nothing
    global libasyncgemm = ""
    return "$path is libasyncgemm $v, but this AsyncGemm binds its C API version $C_API_MAJOR"
end

function load_library!()
    lines = String[]     # one per place looked in, for the error
    failures = String[]  # the places that named a library that would not serve
    for (origin, path) in library_candidates()
        if path === nothing || isempty(path)
            push!(lines, "$origin is not set")
            continue
        end
        reason = unusable_reason(path)
        if reason === nothing
            isempty(failures) ||
                @warn "AsyncGemm uses $path from $origin, because:\n" * join(failures, "\n")
            global library_problem = ""
            return
        end
        push!(failures, "$origin: $reason")
        push!(lines, last(failures))
    end
    global library_problem = join(lines, "\n")
    return
end

"""
    AsyncGemm.functional() -> Bool

Whether libasyncgemm was found and loaded. When not, every call throws an error saying where the
library was looked for and why each place failed.
"""
functional() = !isempty(libasyncgemm)

function require_library()
    functional() && return
    error("AsyncGemm cannot find libasyncgemm:\n" * library_problem * "\n" *
          "Build it (scripts/test.sh, or cmake --build build), or set ENV[\"$LIBRARY_VARIABLE\"] or the " *
          "\"$LIBRARY_PREFERENCE\" preference to the path of libasyncgemm.$(Libdl.dlext), then restart Julia.")
end
