# Streams and tasks: every call runs on the calling task's stream; each task has a handle and a
# workspace of its own, with which a product captured into a CUDA graph splits K as an eager one.
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

    @testset "a task's handle and workspace" begin
        h = AsyncGemm.handle()
        @test AsyncGemm.handle() == h  # the task keeps its handle
        other = fetch(Threads.@spawn AsyncGemm.handle())
        @test other != h               # and no other task has it
        state = task_local_storage(AsyncGemm.TASK_HANDLES_KEY)[context()]
        @test sizeof(state.workspace) == AsyncGemm.WORKSPACE_BYTES
        own = CuStream()
        CUDA.stream!(() -> AsyncGemm.handle(), own)  # a new stream: a new workspace
        @test task_local_storage(AsyncGemm.TASK_HANDLES_KEY)[context()].workspace !== state.workspace
    end

    @testset "a captured product replays with the eager product's bits" begin
        # Two output tiles and a long K, which the GPU's families split.
        A, B = device_random(Float16, 128, 8192), device_random(Float16, 8192, 256)
        eager = poisoned(Float32, 128, 256)
        matmul!(eager, A, B)
        replayed = poisoned(Float32, 128, 256)
        graph = CUDA.capture() do
            matmul!(replayed, A, B)
        end
        CUDA.launch(CUDA.instantiate(graph))
        synchronize()
        @test Array(replayed) == Array(eager)
        @test close_to(eager, Float32.(A) * Float32.(B), tolerance(Float32))
    end

    @testset "library facts" begin
        @test AsyncGemm.version() isa VersionNumber && AsyncGemm.version().major == 0
        algorithms = AsyncGemm.algorithms()
        @test :simt in algorithms && !(:auto in algorithms)
        @test issubset(algorithms, keys(AsyncGemm.ALGORITHMS))
    end
end
