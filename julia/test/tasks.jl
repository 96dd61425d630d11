# Streams and tasks: every call runs on the calling task's stream, and tasks share handles safely.
@testset "streams and tasks" begin
    @testset "a stream of one's own" begin
        A, B = device_random(Float16, 300, 200), device_random(Float16, 200, 100)
        D = poisoned(Float32, 300, 100)
        own = CuStream()
        CUDA.stream!(own) do
            matmul!(D, A, B)
        end
        synchronize(own)
        @test close_to(D, Float32.(A) * Float32.(B), tolerance(Float32))
    end

    @testset "concurrent tasks, each on its own stream and math mode" begin
        problems = [(device_random(Float32, 96, 64), device_random(Float32, 64, 80)) for _ in 1:8]
        tasks = map(enumerate(problems)) do (i, (A, B))
            Threads.@spawn begin
                isodd(i) && AsyncGemm.set_math_mode!(:tf32)
                (AsyncGemm.math_mode(), matmul(A, B))
            end
        end
        for ((A, B), (mode, C)) in zip(problems, fetch.(tasks))
            @test close_to(C, A * B, mode === :tf32 ? 5e-3 : tolerance(Float32))
        end
        @test AsyncGemm.math_mode() == :default
    end

    @testset "library facts" begin
        @test AsyncGemm.version() isa VersionNumber && AsyncGemm.version().major == 0
        algorithms = AsyncGemm.algorithms()
        @test :simt in algorithms && !(:auto in algorithms)
        @test issubset(algorithms, keys(AsyncGemm.ALGORITHMS))
    end
end
