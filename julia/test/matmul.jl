# Every algorithm the device offers, every input and output type, every op of A and B (as stored,
# transpose, adjoint) and shapes that fill no tile, against CUDA.jl's A * B in Float32.
@testset "matmul! against CUDA.jl" begin
    shapes = ((1, 1, 1), (33, 17, 65), (128, 96, 64), (127, 129, 31), (5, 3, 0), (0, 4, 3))
    for algo in gemm_algorithms(), Tin in ELEMENTS, Tout in outputs(Tin)
        @testset "$algo $Tin→$Tout $opa$opb $m×$n×$k" for (opa, fa) in pairs(OPS), (opb, fb) in pairs(OPS),
                                                           (m, n, k) in shapes
            A = fa(device_random(Tin, stored_dims(fa, m, k)...))
            B = fb(device_random(Tin, stored_dims(fb, k, n)...))
            D = poisoned(Tout, m, n)
            if ran(() -> matmul!(D, A, B; algo), algo !== :auto)
                reference = any(iszero, (m, n, k)) ? CUDA.zeros(Float32, m, n) :
                            fa(Float32.(parent_or_self(A))) * fb(Float32.(parent_or_self(B)))
                @test close_to(D, reference, tolerance(Tout))
            end
        end
    end

    @testset "α and β ($algo, $T)" for algo in gemm_algorithms(), T in ELEMENTS
        A, B, C0 = device_random(T, 70, 40), device_random(T, 40, 50), device_random(T, 70, 50)
        for (α, β) in ((2, 0), (0.5, -1), (0, 1), (1, 1))
            C = copy(C0)
            if ran(() -> matmul!(C, A, B, α, β; algo), algo !== :auto)
                reference = α .* (Float32.(A) * Float32.(B)) .+ β .* Float32.(C0)
                @test close_to(C, reference, tolerance(T))
            end
        end
    end

    @testset "views with a leading dimension larger than the rows ($algo)" for algo in gemm_algorithms()
        P, Q, R = device_random(Float16, 45, 30), device_random(Float16, 31, 40), poisoned(Float32, 50, 33)
        A, B, D = view(P, 3:41, 2:30), transpose(view(Q, 1:29, 5:33)), view(R, 2:40, 4:32)
        if ran(() -> matmul!(D, A, B; algo), algo !== :auto)
            @test close_to(D, Float32.(A) * transpose(Float32.(parent(B))), tolerance(Float32))
            @test all(isnan, Array(R)[1, :]) && all(isnan, Array(R)[:, 1:3])
        end
    end

    @testset "matmul allocates A's element type" begin
        A, B = device_random(BFloat16, 20, 10), device_random(BFloat16, 20, 30)
        C = matmul(transpose(A), B)
        @test C isa CuMatrix{BFloat16} && size(C) == (10, 30)
        @test close_to(C, transpose(Float32.(A)) * Float32.(B), tolerance(BFloat16))
    end

    @testset "TF32 math mode" begin
        A, B = device_random(Float32, 256, 128), device_random(Float32, 128, 192)
        reference = A * B
        AsyncGemm.set_math_mode!(:tf32)
        try
            @test AsyncGemm.math_mode() == :tf32
            @test close_to(matmul(A, B), reference, 5e-3)
        finally
            AsyncGemm.set_math_mode!(:auto)
        end
        @test close_to(matmul(A, B), reference, tolerance(Float32))
    end

    # :auto follows CUDA.math_mode() as cuBLAS does; an explicit AsyncGemm mode overrides it.
    @testset "TF32 and CUDA.math_mode()" begin
        A, B = device_random(Float32, 256, 128), device_random(Float32, 128, 192)
        cuda_mode, cuda_precision = CUDA.math_mode(), CUDA.math_precision()
        # The mode a task's Float32 products get with the given AsyncGemm setting.
        function mode_with(setting)
            AsyncGemm.set_math_mode!(setting)
            return AsyncGemm.math_mode()
        end
        try
            CUDA.math_mode!(CUDA.DEFAULT_MATH)
            reference = A * B  # exact fp32, before cuBLAS may use TF32 too

            for precision in (:TensorFloat32, :BFloat16, :Float16)
                CUDA.math_mode!(CUDA.FAST_MATH; precision)
                @test mode_with(:auto) == :tf32
                @test close_to(matmul(A, B), reference, 5e-3)
                @test mode_with(:default) == :default
                @test close_to(matmul(A, B), reference, tolerance(Float32))
            end
            for mode in (CUDA.DEFAULT_MATH, CUDA.PEDANTIC_MATH)
                CUDA.math_mode!(mode; precision=:TensorFloat32)
                @test mode_with(:auto) == :default
                @test mode_with(:tf32) == :tf32
            end
        finally
            CUDA.math_mode!(cuda_mode; precision=cuda_precision)
            AsyncGemm.set_math_mode!(:auto)
        end
    end
end
