# 8-bit products on any GPU (included by fp8.jl where there is one): every 8-bit type and output
# type, with and without scales, in every form, against a Float32 reference computed on the host from
# the dequantized inputs, Float32.(X) of the stored matrices. On Hopper (where :sm90_tma_wgmma is
# available), :auto and :sm90_tma_wgmma multiply the K-major forms, A = transpose(At) of a stored K×M
# At and a stored K×N B, on the 8-bit tensor cores, which load every matrix through TMA: sizes keep
# every matrix's columns a multiple of 16 bytes apart unless a test says otherwise; from libasyncgemm
# 0.2.6 a plain A or B (one matrix) there is first transposed into an 8-bit copy of the K-major form.
# :simt reads 8-bit inputs itself; every other case (another GPU, batches of plain operands, unaligned
# columns, :async_copy or :pipelined) runs on Float16 copies of A and B in the task's workspace.
@testset "8-bit products on $(CUDA.device())" begin
    dequantized(X) = Float32.(Array(X))
    scale(s) = CuArray([Float32(s)])
    eight_bit_kernels = :sm90_tma_wgmma in AsyncGemm.algorithms()
    @info "8-bit products on $(CUDA.device()): " *
          (eight_bit_kernels ? "K-major ones on the 8-bit tensor cores, the others on Float16 copies" :
           "all on Float16 copies")
    # Every algorithm serves 8-bit inputs; :sm100_tcgen05 only K-major ones (and only where its
    # self-check passed), so it may decline.
    may_decline(algo) = algo === :sm100_tcgen05
    declined = (AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED,)
    served_algorithms = filter(!may_decline, gemm_algorithms())

    # Products on Float16 copies are exact products summed in Float32, held to a 16-bit product's
    # tolerance(Tout). The 8-bit kernels, which :auto and :sm90_tma_wgmma run on Hopper for the
    # K-major forms with aligned columns (and on K-major copies of a plain operand), sum them with
    # fewer bits than Float32 keeps (the header:
    # within 4e-3 of max |D| at K = 4096): held to 2e-2, as the library's own GPU tests hold them.
    # `algo` is the one a K-major, aligned product names.
    fp8_tolerance(Tout, algo=:auto) =
        eight_bit_kernels && algo in (:auto, :sm90_tma_wgmma) ? max(tolerance(Tout), 2e-2) : tolerance(Tout)

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
            @test close_to(Array(D), reference(At, B), fp8_tolerance(Tout, algo))
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
            @test close_to(Array(C), expected, fp8_tolerance(Float32))
        end
    end

    @testset "the forms of a scale" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        scales = CuArray(Float32[3, 0.5, 4])
        for (scale_a, sa) in ((view(scales, 2:2), 0.5), (view(scales, 3), 4), (CuArray(fill(0.25f0)), 0.25),
                              (CuArray(fill(2.0f0, 1, 1)), 2))
            D = poisoned(Float16, m, n)
            matmul!(D, transpose(At), B; scale_a, scale_b=view(scales, 1:1))
            @test close_to(Array(D), reference(At, B; sa, sb=3), fp8_tolerance(Float16))
        end
    end

    @testset "every K-major form: adjoint, PermutedDimsArray, views" begin
        At, B = device_random(Float8_E5M2, k, m), device_random(Float8_E5M2, k, n)
        for A in (adjoint(At), PermutedDimsArray(At, (2, 1)))
            D = poisoned(BFloat16, m, n)
            matmul!(D, A, B; scale_b=scale(0.5))
            @test close_to(Array(D), reference(At, B; sb=0.5), fp8_tolerance(BFloat16))
        end
        # Views whose columns start 16-byte aligned and lie a multiple of 16 bytes apart.
        P, Q, R = device_random(Float8_E5M2, k, m + 16), device_random(Float8_E5M2, k + 32, n),
                  poisoned(Float32, m + 16, n)
        Atv, Bv, Dv = view(P, :, 9:m+8), view(Q, 17:k+16, :), view(R, 9:m+8, :)
        matmul!(Dv, transpose(Atv), Bv; scale_a=scale(2))
        @test close_to(Array(R)[9:m+8, :], reference(dequantized(P)[:, 9:m+8], dequantized(Q)[17:k+16, :]; sa=2),
                       fp8_tolerance(Float32))
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
            @test close_to(Array(D), expected, fp8_tolerance(Float16))
        end
    end

    @testset "bias and activation" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        for (Tout, Tbias) in ((Float16, Float16), (BFloat16, Float32), (Float32, Float32))
            bias = device_random(Tbias, m)
            D = poisoned(Tout, m, n)
            matmul!(D, transpose(At), B; bias, activation=:relu, scale_a=scale(0.5), scale_b=scale(0.5))
            expected = reference(At, B; sa=0.5, sb=0.5, bias, activation=x -> max(x, 0.0f0))
            @test close_to(Array(D), expected, fp8_tolerance(Tout))
        end
    end

    @testset "matmul allocates Float32" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        D = matmul(transpose(At), B; scale_a=scale(0.5))
        @test D isa CuMatrix{Float32} && size(D) == (m, n)
        @test close_to(Array(D), reference(At, B; sa=0.5), fp8_tolerance(Float32))
    end

    # What the 8-bit kernels cannot read as it lies, served by every algorithm but :sm100_tcgen05: a
    # plain operand on Hopper by :auto and :sm90_tma_wgmma on an 8-bit K-major copy of it (held to the
    # 8-bit kernels' tolerance), the rest on Float16 copies, as accurate as a Float16 product.
    @testset "other forms are served on copies ($algo, $T8)" for algo in served_algorithms, T8 in FLOAT8
        A, Bt = device_random(T8, m, k), device_random(T8, n, k)
        At, B = device_random(T8, k, m), device_random(T8, k, n)
        Ah, Bth, Ath, Bh = dequantized(A), dequantized(Bt), dequantized(At), dequantized(B)
        @testset "$form" for (form, Aop, Bop, expected) in
                             (("M-major A", A, B, Ah * Bh),
                              ("N-major B", transpose(At), transpose(Bt), transpose(Ath) * transpose(Bth)),
                              ("both", A, adjoint(Bt), Ah * transpose(Bth)))
            D = poisoned(Float32, m, n)
            matmul!(D, Aop, Bop; algo, scale_a=scale(0.5), scale_b=scale(3))
            @test close_to(Array(D), 1.5f0 .* expected, fp8_tolerance(Float32, algo))
        end
        @testset "columns 40 bytes apart (K = 40): no TMA tensor" begin
            At40, B40 = device_random(T8, 40, m), device_random(T8, 40, n)
            D = poisoned(BFloat16, m, n)
            matmul!(D, transpose(At40), B40; algo)
            @test close_to(Array(D), reference(At40, B40), tolerance(BFloat16))
        end
        @testset "K-major, columns 80 bytes apart, but B starting 8 bytes into them" begin
            Q = device_random(T8, k + 16, n)
            D = poisoned(Float16, m, n)
            matmul!(D, transpose(At), view(Q, 9:k+8, :); algo, scale_b=scale(0.25))
            @test close_to(Array(D), reference(At, dequantized(Q)[9:k+8, :]; sb=0.25), tolerance(Float16))
        end
    end

    @testset "batches on Float16 copies ($T8)" for T8 in FLOAT8
        count = 3
        A, B = device_random(T8, m, k, count), device_random(T8, k, n)  # M-major A, one B for every batch
        Ah, Bh = dequantized(A), dequantized(B)
        D = poisoned(Float32, m, n, count)
        matmul!(D, A, B; scale_b=scale(2))
        @test close_to(Array(D), cat((2 .* (Ah[:, :, i] * Bh) for i in 1:count)...; dims=3), tolerance(Float32))
    end

    # The copies live in the task's workspace, which the library also uses inside stream capture:
    # a captured product, on the 8-bit kernels or on copies, replays with the eager product's bits.
    @testset "a captured product replays with the eager product's bits ($form)" for form in (:k_major, :m_major)
        A = form === :k_major ? transpose(device_random(Float8_E5M2, k, m)) : device_random(Float8_E5M2, m, k)
        B, sa = device_random(Float8_E5M2, k, n), scale(0.5)
        eager, replayed = poisoned(Float32, m, n), poisoned(Float32, m, n)
        matmul!(eager, A, B; scale_a=sa)
        graph = CUDA.capture() do
            matmul!(replayed, A, B; scale_a=sa)
        end
        CUDA.launch(CUDA.instantiate(graph))
        synchronize()
        @test Array(replayed) == Array(eager)
        Ah = form === :k_major ? transpose(dequantized(parent(A))) : dequantized(A)
        @test close_to(Array(eager), 0.5f0 .* (Ah * dequantized(B)), fp8_tolerance(Float32))
    end

    # The library's refusals (refusal, helpers.jl), leaving D untouched.
    @testset "what is still refused" begin
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        if :sm100_tcgen05 in AsyncGemm.algorithms()
            # kind::f8f6f4 reads K-major operands alone: a plain M×K A is refused.
            A = device_random(Float8_E4M3FN, m, k)
            D = poisoned(Float32, m, n)
            @test refusal(() -> matmul!(D, A, B; algo=:sm100_tcgen05)) == AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED
            @test all(isnan, Array(D))
        end
        if :sm90_tma_wgmma in AsyncGemm.algorithms()
            # Float16 C of 100 rows: columns 200 bytes apart, which TMA cannot store.
            At100 = device_random(Float8_E4M3FN, k, 100)
            D = poisoned(Float16, 100, n)
            @test refusal(() -> matmul!(D, transpose(At100), B; algo=:sm90_tma_wgmma)) ==
                  AsyncGemm.ASYNCGEMM_STATUS_MISALIGNED
            @test all(isnan, Array(D))
            matmul!(D, transpose(At100), B)  # :auto takes another kernel, on copies
            @test close_to(Array(D), reference(At100, B), tolerance(Float16))
        end
    end
end
