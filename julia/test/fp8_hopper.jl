# 8-bit products on a Hopper GPU (included by fp8.jl where the device's compute capability is 9.0):
# every 8-bit type and output type, with and without scales, against a Float32 reference computed on
# the host from the dequantized inputs, Float32.(X) of the stored matrices. Sizes keep every matrix's
# columns a multiple of 16 bytes apart, as TMA, which loads them, needs.
@testset "8-bit products on $(CUDA.device())" begin
    dequantized(X) = Float32.(Array(X))
    scale(s) = CuArray([Float32(s)])
    # :auto and the Hopper family serve 8-bit inputs; another named algorithm may decline them.
    may_decline(algo) = algo ∉ (:auto, :sm90_tma_wgmma)
    declined = (AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED,)

    # act.(α·sa·sb·transpose(At)·B + β·C .+ bias) in Float32 on the host, from the GPU's At and B
    # dequantized (or host matrices already dequantized); the bias is one value per row.
    function reference(At, B; α=1, β=0, C=nothing, sa=1, sb=1, bias=nothing, activation=identity)
        x = Float32(α * sa * sb) .* (transpose(dequantized(At)) * dequantized(B))
        C === nothing || (x = x .+ Float32(β) .* dequantized(C))
        bias === nothing || (x = x .+ dequantized(bias))
        return activation.(x)
    end

    shapes = ((128, 96, 64), (72, 40, 48), (256, 200, 512), (64, 32, 0))
    @testset "$algo $T8→$Tout $m×$n×$k" for algo in gemm_algorithms(), T8 in FLOAT8,
                                               Tout in (Float16, BFloat16, Float32), (m, n, k) in shapes
        At, B = device_random(T8, k, m), device_random(T8, k, n)
        D = poisoned(Tout, m, n)
        if ran(() -> matmul!(D, transpose(At), B; algo), may_decline(algo); declined)
            @test close_to(Array(D), reference(At, B), tolerance(Tout))
        end
    end

    m, n, k = 128, 96, 64
    @testset "scales, α and β ($T8)" for T8 in FLOAT8
        At, B, C0 = device_random(T8, k, m), device_random(T8, k, n), device_random(Float32, m, n)
        for (sa, sb) in ((0.5, nothing), (nothing, 4), (0.5, 4), (3, 0.25)), (α, β) in ((1, 0), (1.5, 0), (2, -1))
            C = copy(C0)
            scale_a = sa === nothing ? nothing : scale(sa)
            scale_b = sb === nothing ? nothing : scale(sb)
            matmul!(C, transpose(At), B, α, β; scale_a, scale_b)
            expected = reference(At, B; α, β, C=C0, sa=something(sa, 1), sb=something(sb, 1))
            @test close_to(Array(C), expected, tolerance(Float32))
        end
    end

    @testset "the forms of a scale" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        scales = CuArray(Float32[3, 0.5, 4])
        for (scale_a, sa) in ((view(scales, 2:2), 0.5), (view(scales, 3), 4), (CuArray(fill(0.25f0)), 0.25),
                              (CuArray(fill(2.0f0, 1, 1)), 2))
            D = poisoned(Float16, m, n)
            matmul!(D, transpose(At), B; scale_a, scale_b=view(scales, 1:1))
            @test close_to(Array(D), reference(At, B; sa, sb=3), tolerance(Float16))
        end
    end

    @testset "every K-major form: adjoint, PermutedDimsArray, views" begin
        At, B = device_random(Float8_E5M2, k, m), device_random(Float8_E5M2, k, n)
        for A in (adjoint(At), PermutedDimsArray(At, (2, 1)))
            D = poisoned(BFloat16, m, n)
            matmul!(D, A, B; scale_b=scale(0.5))
            @test close_to(Array(D), reference(At, B; sb=0.5), tolerance(BFloat16))
        end
        # Views whose columns start 16-byte aligned and lie a multiple of 16 bytes apart.
        P, Q, R = device_random(Float8_E5M2, k, m + 16), device_random(Float8_E5M2, k + 32, n),
                  poisoned(Float32, m + 16, n)
        Atv, Bv, Dv = view(P, :, 9:m+8), view(Q, 17:k+16, :), view(R, 9:m+8, :)
        matmul!(Dv, transpose(Atv), Bv; scale_a=scale(2))
        @test close_to(Array(R)[9:m+8, :], reference(dequantized(P)[:, 9:m+8], dequantized(Q)[17:k+16, :]; sa=2),
                       tolerance(Float32))
        @test all(isnan, Array(R)[[1:8; m+9:m+16], :])
    end

    @testset "batches ($T8)" for T8 in FLOAT8
        count = 3
        At, B = device_random(T8, k, m, count), device_random(T8, k, n, count)
        Ath = dequantized(At)
        for Bb in (B, device_random(T8, k, n))  # a batch of B, or one B for every batch
            D = poisoned(Float16, m, n, count)
            matmul!(D, PermutedDimsArray(At, (2, 1, 3)), Bb; scale_a=scale(0.5), scale_b=scale(2))
            Bh = dequantized(Bb)
            expected = cat((reference(Ath[:, :, i], ndims(Bh) == 3 ? Bh[:, :, i] : Bh; sa=0.5, sb=2)
                            for i in 1:count)...; dims=3)
            @test close_to(Array(D), expected, tolerance(Float16))
        end
    end

    @testset "bias and activation" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        for (Tout, Tbias) in ((Float16, Float16), (BFloat16, Float32), (Float32, Float32))
            bias = device_random(Tbias, m)
            D = poisoned(Tout, m, n)
            matmul!(D, transpose(At), B; bias, activation=:relu, scale_a=scale(0.5), scale_b=scale(0.5))
            expected = reference(At, B; sa=0.5, sb=0.5, bias, activation=x -> max(x, 0.0f0))
            @test close_to(Array(D), expected, tolerance(Tout))
        end
    end

    @testset "matmul allocates Float32" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        D = matmul(transpose(At), B; scale_a=scale(0.5))
        @test D isa CuMatrix{Float32} && size(D) == (m, n)
        @test close_to(Array(D), reference(At, B; sa=0.5), tolerance(Float32))
    end

    # The library's refusals, thrown as AsyncGemmError.
    status(f) = try
        f()
        nothing
    catch err
        err isa AsyncGemmError ? err.status : rethrow()
    end
    @testset "other forms are not supported" begin
        A, Bt = device_random(Float8_E4M3FN, m, k), device_random(Float8_E4M3FN, n, k)
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        D = poisoned(Float32, m, n)
        NOT_SUPPORTED = AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED
        @test status(() -> matmul!(D, A, B)) == NOT_SUPPORTED                        # M-major A
        @test status(() -> matmul!(D, transpose(At), transpose(Bt))) == NOT_SUPPORTED  # N-major B
        @test status(() -> matmul!(D, A, transpose(Bt))) == NOT_SUPPORTED
        # Columns 40 bytes apart: no TMA tensor.
        @test status(() -> matmul!(D, transpose(device_random(Float8_E4M3FN, 40, m)),
                                   device_random(Float8_E4M3FN, 40, n))) == AsyncGemm.ASYNCGEMM_STATUS_MISALIGNED
    end
end
