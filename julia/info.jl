"""
    AsyncGemm.version() -> VersionNumber

The version of the loaded libasyncgemm.
"""
function version()
    require_library()
    return library_version()
end

function library_version()
    major, minor, patch = Ref{Cint}(0), Ref{Cint}(0), Ref{Cint}(0)
    asyncgemm_get_version(major, minor, patch)
    return VersionNumber(major[], minor[], patch[])
end

"""
    AsyncGemm.algorithms() -> Vector{Symbol}

The algorithms `matmul!` can run on the task's device, such as `:simt` or `:sm90_tma_wgmma`.
`:auto`, always available, chooses among them.
"""
function algorithms()
    h = handle()
    available = Ref{Cint}(0)
    names = Symbol[]
    for (name, algo) in pairs(ALGORITHMS)
        algo == ASYNCGEMM_ALGO_AUTO && continue
        check(asyncgemm_algo_available(h, algo, available))
        available[] == 1 && push!(names, name)
    end
    return names
end
