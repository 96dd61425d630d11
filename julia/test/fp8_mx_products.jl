# MX-scaled 8-bit products on any GPU (included by fp8_mx.jl where there is one), against Float64
# references of the dequantized inputs. The inputs are random values in [-1, 1) rounded to the 8-bit
# type, their exponents drawn from 124:130 (scales 2^-3 to 2^3) per row of A (column of B) and 32
# elements of K, so that a scale applied to another row or block than its own shows: A[i, p] stands
# for A[i, p]·2^(Ea[i, cld(p, 32)] - 127), B[p, j] for B[p, j]·2^(Eb[j, cld(p, 32)] - 127). Where they
# run (include/asyncgemm.h, asyncgemm_matmul): on Blackwell, :auto and :sm100_tcgen05 multiply the
# K-major form, matmul!(D, transpose(At), B) (row-major A and Bᵀ as they lie), on the tensor cores'
# block-scaled MMAs, without a bias or an activation; every other MX-scaled product runs on :simt
# (exact fp32 sums), :auto's choice there; :async_copy, :pipelined and :sm90_tma_wgmma refuse MX
# scales, and :sm100_tcgen05 the forms it cannot take, with ASYNCGEMM_STATUS_NOT_SUPPORTED and D
# untouched.
@testset "MX-scaled 8-bit products on $(CUDA.device())" begin
    says(words) = shown -> startswith(shown, "ArgumentError: ") && occursin(words, shown)
    tensor_cores = :sm100_tcgen05 in AsyncGemm.algorithms()
    @info "MX-scaled 8-bit products on $(CUDA.device()): " *
          (tensor_cores ? "the K-major form on the block-scaled tensor cores, the others on SIMT" : "all on SIMT")

    # Exponents of the scales of `count` extent×k operands (rows of A, columns of B): one per row and
    # 32 elements of K, extent×cld(k, 32) (×count where a count is given).
    exponents(extent, k, count...) = rand(UInt8(124):UInt8(130), extent, cld(k, 32), count...)

    # The Float64 values an extent×k q (rows of A, or columns of B as rows) stands for with exponents E.
    dequantize(q, E) = Float64.(Float32.(q)) .* exp2.(Float64.(E[:, cld.(1:size(q, 2), 32)]) .- 127)

    # Random values in [-1, 1) as T8.
    random8(T8, dims...) = T8.(2 .* rand(Float32, dims...) .- 1)

    # Random op(A) (m×k) and op(B) transposed (n×k), with their exponents: (qa, Ea, qbt, Eb, their
    # product in Float64).
    function mx_product(T8, m, n, k)
        qa, qbt = random8(T8, m, k), random8(T8, n, k)
        Ea, Eb = exponents(m, k), exponents(n, k)
        return qa, Ea, qbt, Eb, dequantize(qa, Ea) * transpose(dequantize(qbt, Eb))
    end

    # op(A) from its m×k values: K-major (the transpose of a stored k×m At), or the stored m×k itself.
    device_a(qa, k_major) = k_major ? transpose(CuArray(permutedims(qa))) : CuArray(qa)
    # op(B) from its values transposed (n×k): K-major (a stored k×n), or the transpose of a stored n×k.
    device_b(qbt, k_major) = k_major ? CuArray(permutedims(qbt)) : transpose(CuArray(qbt))

    # The forms: whether A and B are K-major. Both: the form the Blackwell tensor cores take.
    forms = (
        "K-major (row-major A and Bᵀ)" => (a_k=true, b_k=true),
        "M-major A, N-major B" => (a_k=false, b_k=false),
        "K-major A, N-major B" => (a_k=true, b_k=false),
    )
    k_major(form) = form.a_k && form.b_k

    # Which algorithms serve MX scales in a form: :auto and :simt every one, :sm100_tcgen05 (on
    # Blackwell) the K-major one, where its self-check passed (else it declines); the others none.
    serves(algo, form) = algo in (:auto, :simt) || (algo === :sm100_tcgen05 && k_major(form))
    may_decline(algo) = algo === :sm100_tcgen05
    declined = (AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED,)
    # SIMT sums the exact products in Float32: a product's tolerance(Tout). The tensor cores' block
    # sums are held to 2e-2, as fp8_products.jl holds the 8-bit kernels'.
    mx_tolerance(Tout, algo, form) =
        tensor_cores && k_major(form) && algo in (:auto, :sm100_tcgen05) ? max(tolerance(Tout), 2e-2) :
                                                                            tolerance(Tout)
    mx_call(D, A, B, Ea, Eb; kwargs...) =
        matmul!(D, A, B; scale_a=CuArray(mx_scales(Ea)), scale_b=CuArray(mx_scales(Eb)), kwargs...)

    # K = 416: 13 blocks of 32, in 4 tiles along K, the last holding one block; K = 48: a block of 32
    # and a partial one. M = 320, N = 200 and 136: partial tiles of 128 rows. Every stored matrix's
    # columns lie a multiple of 16 bytes apart.
    shapes = ((320, 200, 416), (256, 136, 48))
    @testset "$algo $T8 $m×$n×$k: $what" for algo in gemm_algorithms(), T8 in FLOAT8, (m, n, k) in shapes,
                                               (what, form) in forms
        qa, Ea, qbt, Eb, expected = mx_product(T8, m, n, k)
        A, B = device_a(qa, form.a_k), device_b(qbt, form.b_k)
        D = poisoned(Float32, m, n)
        call() = mx_call(D, A, B, Ea, Eb; algo)
        if !serves(algo, form)
            @test refusal(call) == AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED
            @test all(isnan, Array(D))
        elseif ran(call, may_decline(algo); declined)
            @test close_to(Array(D), expected, mx_tolerance(Float32, algo, form))
        else
            @test all(isnan, Array(D))
        end
    end

    @testset "$T8→$Tout: $what" for T8 in FLOAT8, Tout in (Float16, BFloat16), (what, form) in (forms[1], forms[2])
        m, n, k = 320, 200, 416
        qa, Ea, qbt, Eb, expected = mx_product(T8, m, n, k)
        D = poisoned(Tout, m, n)
        mx_call(D, device_a(qa, form.a_k), device_b(qbt, form.b_k), Ea, Eb)
        @test close_to(Array(D), expected, mx_tolerance(Tout, :auto, form))
    end

    # An operand with a matrix per batch has the scales of each, one after another (mx_scales of the
    # exponents of all, m×KB×count); a shared one has one set (here mx_scales of m×KB×1 exponents).
    @testset "batches, $shared shared: $what" for (what, form) in (forms[1], forms[2]), shared in (:A, :B, :none)
        m, n, k, count = 320, 200, 416, 3
        count_a, count_b = shared === :A ? 1 : count, shared === :B ? 1 : count
        qas = [random8(Float8_E5M2, m, k) for _ in 1:count_a]
        qbts = [random8(Float8_E5M2, n, k) for _ in 1:count_b]
        Ea, Eb = exponents(m, k, count_a), exponents(n, k, count_b)
        stack3(xs) = cat(xs...; dims=3)
        A = if count_a == 1
            device_a(qas[1], form.a_k)
        elseif form.a_k
            PermutedDimsArray(CuArray(stack3(permutedims.(qas))), (2, 1, 3))  # k×m×count, read transposed
        else
            CuArray(stack3(qas))
        end
        B = if count_b == 1
            device_b(qbts[1], form.b_k)
        elseif form.b_k
            CuArray(stack3(permutedims.(qbts)))  # k×n×count
        else
            PermutedDimsArray(CuArray(stack3(qbts)), (2, 1, 3))  # n×k×count, read transposed
        end
        D = poisoned(Float32, m, n, count)
        mx_call(D, A, B, Ea, Eb)
        pick(i, c) = c == 1 ? 1 : i
        expected = stack3([dequantize(qas[pick(i, count_a)], Ea[:, :, pick(i, count_a)]) *
                           transpose(dequantize(qbts[pick(i, count_b)], Eb[:, :, pick(i, count_b)]))
                           for i in 1:count])
        @test close_to(Array(D), expected, mx_tolerance(Float32, :auto, form))
    end

    # α, β, a bias and an activation, fused by whichever family multiplies (Blackwell's tcgen05
    # kernels in the K-major form there, from libasyncgemm 0.2.6 on).
    @testset "α, β, a bias and an activation: $what" for (what, form) in (forms[1], forms[2])
        m, n, k = 320, 200, 416
        qa, Ea, qbt, Eb, product = mx_product(Float8_E4M3FN, m, n, k)
        A, B = device_a(qa, form.a_k), device_b(qbt, form.b_k)
        C0, bias = device_random(Float32, m, n), device_random(Float32, m)
        scale_a, scale_b = CuArray(mx_scales(Ea)), CuArray(mx_scales(Eb))
        C = copy(C0)
        matmul!(C, A, B, 1.5, -0.5; scale_a, scale_b)
        @test close_to(Array(C), 1.5 .* product .- 0.5 .* Float64.(Array(C0)), mx_tolerance(Float32, :auto, form))
        C = copy(C0)
        matmul!(C, A, B, 1.5, -0.5; bias, activation=:relu, scale_a, scale_b)
        expected = max.(1.5 .* product .- 0.5 .* Float64.(Array(C0)) .+ Float64.(Array(bias)), 0)
        @test close_to(Array(C), expected, mx_tolerance(Float32, :auto, form))
    end

    @testset "K = 0: empty MX scales, of which nothing is read" begin
        m, n = 320, 200
        At, B = CuArray{Float8_E4M3FN}(undef, 0, m), CuArray{Float8_E4M3FN}(undef, 0, n)
        D = poisoned(Float32, m, n)
        matmul!(D, transpose(At), B; scale_a=CuArray{UInt8}(undef, 0), scale_b=CuArray{UInt8}(undef, 0))
        @test all(iszero, Array(D))
        C0 = device_random(Float32, m, n)
        C = copy(C0)
        matmul!(C, transpose(At), B, 1, 2; scale_a=CuArray{UInt8}(undef, 0), scale_b=CuArray{UInt8}(undef, 0))
        @test Array(C) ≈ 2 .* Array(C0)
    end

    @testset "MX scales in a matrix and in a contiguous view; matmul allocates Float32" begin
        m, n, k = 320, 200, 416
        qa, Ea, qbt, Eb, expected = mx_product(Float8_E5M2, m, n, k)
        sa, sb = mx_scales(Ea), mx_scales(Eb)
        wide = CuArray(vcat(zeros(UInt8, 16), sb, zeros(UInt8, 16)))  # sb from byte 17 on: 16-byte aligned
        D = matmul(device_a(qa, true), device_b(qbt, true); scale_a=CuArray(reshape(sa, 512, :)),
                   scale_b=view(wide, 17:16+length(sb)))
        @test D isa CuMatrix{Float32} && size(D) == (m, n)
        @test close_to(Array(D), expected, mx_tolerance(Float32, :auto, last(forms[1])))
    end

    @testset "where MX scales may not lie" begin
        m, n, k = 320, 200, 416
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        sa, sb = CuArray(mx_scales(exponents(m, k))), mx_scales(exponents(n, k))
        D = poisoned(Float32, m, n)
        @test_throws says("scale_b is in host memory") matmul!(D, transpose(At), B; scale_a=sa, scale_b=sb)
        # A CuArray starts 16-byte aligned (at least): a view one byte into one does not.
        wide = CuArray(vcat(zeros(UInt8, 16), sb, zeros(UInt8, 16)))
        @test_throws says("scale_b is not 16-byte aligned (its address modulo 16 is 1): MX scales must be") (
            matmul!(D, transpose(At), B; scale_a=sa, scale_b=view(wide, 2:1+length(sb))))
        every_other = view(CUDA.zeros(UInt8, 2 * length(sb)), 1:2:2*length(sb))
        @test_throws says("scale_b has strides (2,) with size ($(length(sb)),): MX scales must be contiguous") (
            matmul!(D, transpose(At), B; scale_a=sa, scale_b=every_other))
        @test all(isnan, Array(D))
    end
end
