# Block-scaled 8-bit products on any GPU (included by fp8_block.jl where there is one), against
# Float64 references of the dequantized inputs. Random Float32 matrices whose magnitudes vary by row
# (column of B) and by block of K are quantized per block, 1×128 or 128×128, with power-of-two
# scales, so the dequantized values are exact and a scale applied to another block than its own
# shows. Where they run (include/asyncgemm.h, asyncgemm_matmul): on Hopper, :auto and :sm90_tma_wgmma
# multiply K-major operands with 16-byte aligned columns whose scale_a is not one per row of A, the
# fast form matmul!(Y, transpose(Wt), X; scale_a=<128×128 of W>, scale_b=<1×128 of X>), on the 8-bit
# tensor cores, and :auto (libasyncgemm 0.2.6) the same scales over a lone M-major A or N-major B on
# a K-major 8-bit copy of it; every other block-scaled product runs on :simt (exact fp32 sums),
# :auto's choice there; :async_copy, :pipelined and :sm100_tcgen05 refuse block scales, and :sm90_tma_wgmma the
# forms its kernels cannot take, with ASYNCGEMM_STATUS_NOT_SUPPORTED and D untouched.
@testset "block-scaled 8-bit products on $(CUDA.device())" begin
    says(words) = shown -> startswith(shown, "ArgumentError: ") && occursin(words, shown)
    eight_bit_kernels = :sm90_tma_wgmma in AsyncGemm.algorithms()
    @info "block-scaled 8-bit products on $(CUDA.device()): " *
          (eight_bit_kernels ? "the fast form on the 8-bit tensor cores, the others on SIMT" : "all on SIMT")

    # The largest finite magnitude of an 8-bit type (DLFP8Types rounds E4M3 from 480 on to NaN).
    fp8_max(T8) = T8 === Float8_E4M3FN ? 448.0f0 : 57344.0f0

    # Uniform in [-1, 1), times a power of two from 2^-6 to 2^6 drawn per row and one per block of K.
    function varied(rows, k)
        per_row = exp2.(Float32.(rand(-6:6, rows)))
        per_block = exp2.(Float32.(rand(-6:6, cld(k, 128))))[cld.(1:k, 128)]
        return (2 .* rand(Float32, rows, k) .- 1) .* per_row .* transpose(per_block)
    end

    # Block scales s (one per `rows` rows and 128 elements of K) as one per element of an extent×k matrix.
    expand(s, rows, extent, k) = s[cld.(1:extent, rows), cld.(1:k, 128)]

    # x (extent×k) quantized to T8 in blocks of `rows` rows (1 or 128) and 128 elements of K, each
    # divided by the power of two that brings its largest magnitude within T8's range: (q, s), q the
    # extent×k T8 matrix and s its block scales, cld(extent, rows)×cld(k, 128) in the layout matmul!
    # takes, s[i, kb] the scale of rows (i - 1)·rows + 1 to i·rows in K block kb.
    function quantize(T8, x::Matrix{Float32}, rows::Integer)
        extent, k = size(x)
        s = ones(Float32, cld(extent, rows), cld(k, 128))
        for kb in axes(s, 2), i in axes(s, 1)
            block = view(x, (i - 1) * rows + 1:min(i * rows, extent), (kb - 1) * 128 + 1:min(kb * 128, k))
            amax = maximum(abs, block)
            iszero(amax) || (s[i, kb] = exp2(ceil(log2(amax / fp8_max(T8)))))
        end
        return T8.(x ./ expand(s, rows, extent, k)), s
    end

    # The Float64 values the quantized q and its block scales s stand for.
    dequantize(q, s, rows) = Float64.(Float32.(q)) .* expand(s, rows, size(q)...)

    # Random op(A) (m×k) and op(B) (k×n), quantized per `rows_a` rows of A and `rows_b` columns of B:
    # (qa, sa, qbt, sb, their product in Float64), qa m×k and qbt n×k (op(B) transposed, so that its
    # scales are sb[j, kb] as matmul! takes them).
    function quantized_product(T8, m, n, k, rows_a, rows_b)
        qa, sa = quantize(T8, varied(m, k), rows_a)
        qbt, sb = quantize(T8, varied(n, k), rows_b)
        return qa, sa, qbt, sb, dequantize(qa, sa, rows_a) * transpose(dequantize(qbt, sb, rows_b))
    end

    # op(A) from its m×k values: K-major (the transpose of a stored k×m At), or the stored m×k itself.
    device_a(qa, k_major) = k_major ? transpose(CuArray(permutedims(qa))) : CuArray(qa)
    # op(B) from its values transposed (n×k): K-major (a stored k×n), or the transpose of a stored n×k.
    device_b(qbt, k_major) = k_major ? CuArray(permutedims(qbt)) : transpose(CuArray(qbt))

    # The forms: rows per scale of A and B (1 or 128), whether each is K-major, whether it is the
    # fast form (K-major, scale_a not per row), and whether :auto takes its scales on a K-major copy
    # of its one M-major A or N-major B on Hopper (else on SIMT).
    forms = (
        "W 128×128, X 1×128, K-major (the fast form)" => (a=128, b=1, a_k=true, b_k=true, fast=true, copied=false),
        "128×128 both, K-major (fast)" => (a=128, b=128, a_k=true, b_k=true, fast=true, copied=false),
        "1×128 both, K-major (A per row: SIMT)" => (a=1, b=1, a_k=true, b_k=true, fast=false, copied=false),
        "W 128×128, X 1×128, M-major A (copied)" => (a=128, b=1, a_k=false, b_k=true, fast=false, copied=true),
        "128×128 both, N-major B (copied)" => (a=128, b=128, a_k=true, b_k=false, fast=false, copied=true),
        "1×128 both, M-major A and N-major B (SIMT)" => (a=1, b=1, a_k=false, b_k=false, fast=false, copied=false),
    )

    # Which algorithms serve block scales in a form: :auto and :simt every one, :sm90_tma_wgmma (on
    # Hopper) the fast form; the others none.
    serves(algo, fast) = algo in (:auto, :simt) || (fast && algo === :sm90_tma_wgmma)
    # SIMT sums the exact products in Float32: a product's tolerance(Tout). The 8-bit tensor cores
    # sum each K block's with fewer bits: held to 2e-2, as fp8_products.jl holds the tensor-scaled ones.
    # `tensor_cores`: the form is one they may take with `algo` (the fast form, or :auto's copied one).
    block_tolerance(Tout, algo, tensor_cores) =
        eight_bit_kernels && tensor_cores && algo in (:auto, :sm90_tma_wgmma) ? max(tolerance(Tout), 2e-2) :
                                                                               tolerance(Tout)
    on_tensor_cores(algo, form) = form.fast || (algo === :auto && form.copied)

    # K = 416: 4 blocks of K, the last partial; K = 48: one partial block. M = 320 and N = 200 and 136:
    # partial 128×128 blocks. Every stored matrix's columns lie a multiple of 16 bytes apart.
    shapes = ((320, 200, 416), (256, 136, 48))
    @testset "$algo $T8 $m×$n×$k: $what" for algo in gemm_algorithms(), T8 in FLOAT8, (m, n, k) in shapes,
                                               (what, form) in forms
        qa, sa, qbt, sb, expected = quantized_product(T8, m, n, k, form.a, form.b)
        A, B = device_a(qa, form.a_k), device_b(qbt, form.b_k)
        D = poisoned(Float32, m, n)
        call() = matmul!(D, A, B; algo, scale_a=CuArray(sa), scale_b=CuArray(sb))
        if serves(algo, form.fast)
            call()
            @test close_to(Array(D), expected, block_tolerance(Float32, algo, on_tensor_cores(algo, form)))
        else
            @test refusal(call) == AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED
            @test all(isnan, Array(D))
        end
    end

    @testset "$T8→$Tout: $what" for T8 in FLOAT8, Tout in (Float16, BFloat16), (what, form) in (forms[1], forms[4])
        m, n, k = 320, 200, 416
        qa, sa, qbt, sb, expected = quantized_product(T8, m, n, k, form.a, form.b)
        D = poisoned(Tout, m, n)
        matmul!(D, device_a(qa, form.a_k), device_b(qbt, form.b_k); scale_a=CuArray(sa), scale_b=CuArray(sb))
        @test close_to(Array(D), expected, block_tolerance(Tout, :auto, on_tensor_cores(:auto, form)))
    end

    # An operand with a matrix per batch has its scales per batch along the third dimension; a shared
    # one has one matrix of scales (here with size 1 along the third dimension for a shared A).
    @testset "batches, $shared shared: $what" for (what, form) in (forms[1], forms[4]), shared in (:A, :B)
        m, n, k, count = 320, 200, 416, 3
        as = [quantize(Float8_E5M2, varied(m, k), form.a) for _ in 1:(shared === :A ? 1 : count)]
        bs = [quantize(Float8_E5M2, varied(n, k), form.b) for _ in 1:(shared === :B ? 1 : count)]
        stack3(xs) = cat(xs...; dims=3)
        A = if shared === :A
            device_a(as[1][1], form.a_k)
        elseif form.a_k
            PermutedDimsArray(CuArray(stack3(permutedims.(first.(as)))), (2, 1, 3))  # k×m×count, read transposed
        else
            CuArray(stack3(first.(as)))
        end
        B = if shared === :B
            device_b(bs[1][1], form.b_k)
        elseif form.b_k
            CuArray(stack3(permutedims.(first.(bs))))  # k×n×count
        else
            PermutedDimsArray(CuArray(stack3(first.(bs))), (2, 1, 3))  # n×k×count, read transposed
        end
        scale_a = shared === :A ? CuArray(reshape(as[1][2], size(as[1][2])..., 1)) : CuArray(stack3(last.(as)))
        scale_b = shared === :B ? CuArray(bs[1][2]) : CuArray(stack3(last.(bs)))
        D = poisoned(Float32, m, n, count)
        matmul!(D, A, B; scale_a, scale_b)
        pick(v, i) = v[length(v) == 1 ? 1 : i]
        expected = stack3([dequantize(pick(as, i)..., form.a) * transpose(dequantize(pick(bs, i)..., form.b))
                           for i in 1:count])
        @test close_to(Array(D), expected, block_tolerance(Float32, :auto, on_tensor_cores(:auto, form)))
    end

    @testset "a tensor scale beside block scales" begin
        m, n, k = 320, 200, 416
        qa, sa, qbt, sb, _ = quantized_product(Float8_E4M3FN, m, n, k, 1, 1)
        A, B = device_a(qa, true), device_b(qbt, true)
        # A tensor scale of A (not per row: the fast form) and B's per column.
        D = poisoned(Float32, m, n)
        matmul!(D, A, B; scale_a=CuArray([0.5f0]), scale_b=CuArray(sb))
        @test close_to(Array(D), 0.5 .* Float64.(Float32.(qa)) * transpose(dequantize(qbt, sb, 1)),
                       block_tolerance(Float32, :auto, true))
        # A's per row (SIMT) and a tensor scale of B, in a 1×1 matrix.
        D = poisoned(Float32, m, n)
        matmul!(D, A, B; scale_a=CuArray(sa), scale_b=CuArray(fill(4.0f0, 1, 1)))
        @test close_to(Array(D), 4 .* dequantize(qa, sa, 1) * transpose(Float64.(Float32.(qbt))),
                       block_tolerance(Float32, :auto, false))
    end

    @testset "α, β, a bias and an activation ($(a_k ? "K-major" : "M-major") A)" for a_k in (true, false)
        m, n, k = 320, 200, 416
        qa, sa, qbt, sb, product = quantized_product(Float8_E4M3FN, m, n, k, 128, 1)
        C0, bias = device_random(Float32, m, n), device_random(Float32, m)
        C = copy(C0)
        matmul!(C, device_a(qa, a_k), device_b(qbt, true), 1.5, -0.5; bias, activation=:relu,
                scale_a=CuArray(sa), scale_b=CuArray(sb))
        expected = max.(1.5 .* product .- 0.5 .* Float64.(Array(C0)) .+ Float64.(Array(bias)), 0)
        @test close_to(Array(C), expected, block_tolerance(Float32, :auto, true))  # M-major A: copied
    end

    @testset "K = 0: empty block scales, of which nothing is read" begin
        m, n = 320, 200
        At, B = CuArray{Float8_E4M3FN}(undef, 0, m), CuArray{Float8_E4M3FN}(undef, 0, n)
        D = poisoned(Float32, m, n)
        matmul!(D, transpose(At), B; scale_a=CuArray{Float32}(undef, 3, 0), scale_b=CuArray{Float32}(undef, n, 0))
        @test all(iszero, Array(D))
        C0 = device_random(Float32, m, n)
        C = copy(C0)
        matmul!(C, transpose(At), B, 1, 2; scale_a=CuArray{Float32}(undef, m, 0))
        @test Array(C) ≈ 2 .* Array(C0)
    end

    @testset "M = 1: one scale per 128 elements of K" begin
        n, k = 200, 416
        qa, sa, qbt, sb, expected = quantized_product(Float8_E4M3FN, 1, n, k, 1, 128)
        @test size(sa) == (1, 4)
        D = poisoned(Float32, 1, n)
        matmul!(D, device_a(qa, true), device_b(qbt, true); scale_a=CuArray(sa), scale_b=CuArray(sb))
        @test close_to(Array(D), expected, block_tolerance(Float32, :auto, false))
    end

    @testset "block scales in a contiguous view; matmul allocates Float32" begin
        m, n, k = 320, 200, 416
        qa, sa, qbt, sb, expected = quantized_product(Float8_E5M2, m, n, k, 128, 1)
        wide = CuArray(hcat(zeros(Float32, n), sb, zeros(Float32, n)))  # sb in columns 2 to 5
        D = matmul(device_a(qa, true), device_b(qbt, true); scale_a=CuArray(sa),
                   scale_b=view(wide, :, 2:size(sb, 2)+1))
        @test D isa CuMatrix{Float32} && size(D) == (m, n)
        @test close_to(Array(D), expected, block_tolerance(Float32, :auto, true))
    end

    @testset "where block scales may not lie" begin
        m, n, k = 320, 200, 416
        At, B = device_random(Float8_E4M3FN, k, m), device_random(Float8_E4M3FN, k, n)
        D = poisoned(Float32, m, n)
        @test_throws says("scale_a is in host memory") matmul!(D, transpose(At), B; scale_a=ones(Float32, 3, 4))
        @test_throws says("scale_b has strides (1, 201) with size (200, 4): block scales must be contiguous") (
            matmul!(D, transpose(At), B; scale_b=view(CUDA.ones(Float32, 201, 4), 1:200, :)))
        @test_throws says("scale_a must not share memory with C") matmul!(D, transpose(At), B; scale_a=view(D, :, 1:4))
        @test all(isnan, Array(D))
    end
end
