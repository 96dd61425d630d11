# The seed GEMM workloads, timed with every algorithm the GPU offers against CUDA.jl's mul!
# (cuBLAS), printed as a table:
#
#     julia --project=<repository> julia/examples/matmul.jl
#
# Each workload holds enough sets of inputs to span 256 MiB, more than any GPU's L2, and run i
# reads set i mod sets, so no run finds its inputs in cache. Each row warms up, then reports the
# median of at least 30 runs and 200 ms, each timed between CUDA events on the task's stream.
# Outputs are checked once against cuBLAS's.
using CUDA
using AsyncGemm
using LinearAlgebra: mul!
using Printf

struct Workload
    m::Int
    n::Int
    k::Int
    T::Type
    transpose_b::Bool   # "NT": D = A·Bᵀ, B stored n×k
end

const WORKLOADS = [Workload(4096, 4096, 4096, Float16, false),
                   Workload(1024, 1024, 14336, Float16, false),
                   Workload(2048, 2048, 256, Float32, true),
                   Workload(4096, 4096, 4096, Float32, false)]

const ROTATION_BYTES = 256 * 2^20
const MIN_RUNS = 30
const MIN_SECONDS = 0.2

name(w::Workload) = "$(w.m)×$(w.n)×$(w.k) $(w.T) N$(w.transpose_b ? 'T' : 'N')"

# Uniform in [-1, 1): never zeros, which some hardware multiplies faster.
device_random(T, dims...) = T.(2 .* CUDA.rand(Float32, dims...) .- 1)

function input_sets(w::Workload)
    bytes = (w.m * w.k + w.k * w.n) * sizeof(w.T)
    sets = clamp(cld(ROTATION_BYTES, bytes), 1, 64)
    b_dims = w.transpose_b ? (w.n, w.k) : (w.k, w.n)
    return [(device_random(w.T, w.m, w.k), device_random(w.T, b_dims...)) for _ in 1:sets]
end

operand_b(w::Workload, B) = w.transpose_b ? transpose(B) : B

# Median seconds of f(A, B), rotating through the input sets.
function median_time(f, sets)
    for i in 1:5
        f(sets[mod1(i, length(sets))]...)
    end
    times = Float64[]
    while length(times) < MIN_RUNS || sum(times) < MIN_SECONDS
        A, B = sets[mod1(length(times) + 1, length(sets))]
        push!(times, CUDA.@elapsed f(A, B))
    end
    return sort!(times)[cld(length(times), 2)]
end

max_relative_error(D, reference) =
    maximum(abs, Float32.(D) .- Float32.(reference)) / maximum(abs, Float32.(reference))

# seconds and deviation are nothing for a row that did not run.
function print_row(workload, algorithm, seconds, flops, baseline, deviation, result)
    @printf("%-28s %-15s %10s %9s %9s %12s  %s\n", workload, algorithm,
            seconds === nothing ? "-" : @sprintf("%.3f", 1e3 * seconds),
            seconds === nothing ? "-" : @sprintf("%.1f", flops / seconds / 1e12),
            seconds === nothing ? "-" : @sprintf("%.2f", baseline / seconds),
            deviation === nothing ? "-" : @sprintf("%.2e", deviation), result)
end

function run_workload(w::Workload, algorithms)
    sets = input_sets(w)
    flops = 2.0 * w.m * w.n * w.k
    D = CuArray{w.T}(undef, w.m, w.n)
    A1, B1 = first(sets)

    cublas(A, B) = mul!(D, A, operand_b(w, B))
    reference = copy(cublas(A1, B1))
    baseline = median_time(cublas, sets)
    print_row(name(w), "cuBLAS", baseline, flops, baseline, nothing, "ok")

    for algo in algorithms
        asyncgemm(A, B) = AsyncGemm.matmul!(D, A, operand_b(w, B); algo)
        try
            fill!(D, NaN)
            asyncgemm(A1, B1)
            deviation = max_relative_error(D, reference)
            print_row("", algo, median_time(asyncgemm, sets), flops, baseline, deviation, "ok")
        catch err
            err isa AsyncGemm.AsyncGemmError || rethrow()
            # A named algorithm may decline a problem it cannot serve; :auto may not.
            declined = algo !== :auto && err.status in (AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED,
                                                        AsyncGemm.ASYNCGEMM_STATUS_MISALIGNED)
            print_row("", algo, nothing, flops, baseline, nothing, (declined ? "skipped: " : "FAILED: ") * err.message)
        end
    end
end

function main()
    # Float32 rows compare like with like: both sides follow CUDA.math_mode() (TF32 under FAST_MATH).
    println("$(CUDA.device()), libasyncgemm $(AsyncGemm.version()), CUDA.jl math mode $(CUDA.math_mode()), " *
            "AsyncGemm Float32 products $(AsyncGemm.math_mode())")
    @printf("%-28s %-15s %10s %9s %9s %12s  %s\n", "workload", "algorithm", "median ms", "TFLOP/s",
            "x cuBLAS", "max rel err", "result")
    algorithms = [:auto; AsyncGemm.algorithms()]
    for w in WORKLOADS
        run_workload(w, algorithms)
        GC.gc(true)  # give the input sets back before the next workload allocates its own
    end
end

main()
