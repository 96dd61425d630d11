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

# Why `path` cannot serve as libasyncgemm, or nothing when it can.
function unusable_reason(path::AbstractString)
    isfile(path) || return "$path does not exist"
    lib = Libdl.dlopen(path; throw_error=false)
    lib === nothing && return "$path cannot be opened (dlopen failed: is it built for this machine?)"
    Libdl.dlsym(lib, :asyncgemm_get_version; throw_error=false) === nothing &&
        return "$path is not libasyncgemm (it has no asyncgemm_get_version)"
    return nothing
end

function load_library!()
    problems = String[]
    for (origin, path) in library_candidates()
        if path === nothing
            push!(problems, "$origin is not set")
            continue
        end
        reason = unusable_reason(path)
        if reason === nothing
            global libasyncgemm = path
            reason = version_mismatch()
        end
        if reason === nothing
            # A place named on purpose that failed deserves a word, even when a later one works.
            named_but_failed = filter(!endswith("is not set"), problems)
            isempty(named_but_failed) ||
                @warn "AsyncGemm loads $path from $origin, because:\n" * join(named_but_failed, "\n")
            global library_problem = ""
            return
        end
        push!(problems, "$origin: $reason")
    end
    global libasyncgemm = ""
    global library_problem = join(problems, "\n")
    return
end

function version_mismatch()
    v = library_version()
    v.major == C_API_MAJOR && return nothing
    return "$libasyncgemm is libasyncgemm $v, but AsyncGemm binds C API version $C_API_MAJOR"
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
