# 8-bit inputs with MX scales (ASYNCGEMM_SCALE_MX_32): UE8M0 bytes, one per row of A (column of B)
# and 32 elements of K, in cuBLASLt's VEC32_UE8M0 tiles of 128 rows by 4 blocks of K, which
# mx_scales lays out from a plain matrix of exponents. The layout mx_scales builds, how matmul! takes
# UInt8 scales as MX scales and its refusals of wrong ones are checked on any machine; the products,
# on any GPU, against Float64 references of the dequantized inputs (fp8_mx_products.jl). On
# Blackwell, :auto and :sm100_tcgen05 multiply the K-major form on the tensor cores' block-scaled
# MMAs; every other MX-scaled product runs on :simt, and the other algorithms refuse MX scales.
# FLOAT8 comes from fp8.jl, included before.

@testset "8-bit inputs with MX scales" begin
    says(words) = shown -> startswith(shown, "ArgumentError: ") && occursin(words, shown)
    MX = AsyncGemm.ASYNCGEMM_SCALE_MX_32
    # The modes matmul! gives scale_a and scale_b, judged before any GPU call.
    modes(C, A, B; scale_a=nothing, scale_b=nothing) = AsyncGemm.quantization(C, A, B, scale_a, scale_b)[2:3]

    @testset "mx_scales lays out cuBLASLt's VEC32_UE8M0 tiles (no GPU)" begin
        # The index in mx_scales(E) of E[x, j], for an X×KB E that holds no other non-zero byte.
        function index_of(x, j, X, KB)
            E = zeros(UInt8, X, KB)
            E[x, j] = 0x7f
            return only(findall(==(0x7f), mx_scales(E)))
        end
        # By hand, with x and j from 0: the tile (x ÷ 128, j ÷ 4), 512 bytes each, cld(KB, 4) of them
        # in a row of tiles; inside it (x % 32)·16 + ((x % 128) ÷ 32)·4 + j % 4; then one more.
        @test index_of(1, 1, 128, 4) == 1
        @test index_of(2, 1, 128, 4) == 17     # the next row: 16 bytes on
        @test index_of(33, 1, 128, 4) == 5     # row 32: the second group of 32 rows, 4 bytes on
        @test index_of(1, 2, 128, 4) == 2      # the next block of K: the next byte
        @test index_of(1, 5, 128, 8) == 513    # block 4 of K: the second tile along K
        @test index_of(32, 4, 128, 4) == 500   # 31·16 + 3, plus one
        @test index_of(128, 4, 128, 4) == 512  # the last byte of the tile: 31·16 + 3·4 + 3, plus one
        @test index_of(129, 1, 256, 8) == 1025 # the second row of tiles, after the first row's two
        @test index_of(130, 6, 256, 8) == 3 * 512 + 16 + 1 + 1  # row 1, block 1 of tile (1, 1)
        @test index_of(1, 1, 1, 1) == 1
        @test AsyncGemm.mx_scale_index(130, 6, 2) == 3 * 512 + 16 + 1 + 1
        # A whole tile, every byte written once: row x's 4 blocks of K lie side by side.
        s = mx_scales(repeat(UInt8.(1:128), 1, 4))
        @test length(s) == 512 && all(!iszero, s)
        @test all(findall(==(UInt8(x)), s) == [16 * ((x - 1) % 32) + 4 * ((x - 1) ÷ 32) + j for j in 1:4]
                  for x in 1:128)

        # Sizes: cld(X, 128) rows of cld(KB, 4) tiles of 512 bytes, the padding zero.
        @test length(mx_scales(zeros(UInt8, 1, 1))) == 512
        @test length(mx_scales(zeros(UInt8, 128, 4))) == 512
        @test length(mx_scales(zeros(UInt8, 129, 4))) == 1024
        @test length(mx_scales(zeros(UInt8, 128, 5))) == 1024
        @test length(mx_scales(zeros(UInt8, 300, 9))) == 3 * 3 * 512
        @test mx_scales(zeros(UInt8, 0, 9)) == UInt8[] && mx_scales(zeros(UInt8, 300, 0)) == UInt8[]
        s = mx_scales(fill(0x80, 130, 5))  # 2 rows of tiles, 2 tiles along K: 2048 bytes, 650 of them E's
        @test length(s) == 2048 && count(==(0x80), s) == 130 * 5 && count(iszero, s) == 2048 - 130 * 5
        # Blocks 6 to 8 of K (past E's 5) and rows 131 to 256 (past E's 130) are the zeros.
        @test all(iszero(s[AsyncGemm.mx_scale_index(x, j, 2)]) for x in 1:256, j in 6:8)
        @test all(iszero(s[AsyncGemm.mx_scale_index(x, j, 2)]) for x in 131:256, j in 1:8)
        @test all(s[AsyncGemm.mx_scale_index(x, j, 2)] == 0x80 for x in 1:130, j in 1:5)

        # Any matrix of UInt8: a view, a transpose.
        E = rand(UInt8(124):UInt8(130), 200, 13)
        @test mx_scales(view(E, :, :)) == mx_scales(E)
        @test mx_scales(transpose(permutedims(E))) == mx_scales(E)
        @test mx_scales(view(hcat(E, E), :, 14:26)) == mx_scales(E)
        # A batch: each matrix's scales, one after another.
        E2 = rand(UInt8(124):UInt8(130), 200, 13)
        @test mx_scales(cat(E, E2; dims=3)) == vcat(mx_scales(E), mx_scales(E2))
        @test mx_scales(reshape(E, 200, 13, 1)) == mx_scales(E)
        @test length(mx_scales(zeros(UInt8, 200, 13, 3))) == 3 * (2 * 4 * 512)
        @test mx_scales(zeros(UInt8, 200, 13, 0)) == UInt8[]
        # Exponents are UInt8.
        @test_throws MethodError mx_scales(fill(127, 4, 4))
    end

    # Y = W·X as in fp8_block.jl: W is M×K, stored K-major as Wt (K×M); X is K×N. K = 260: 9 blocks of
    # 32, in 3 tiles of 128 along K; M = 300: 3 rows of tiles; N = 200: 2.
    M, N, K = 300, 200, 260
    Wt, X, Y = zeros(Float8_E4M3FN, K, M), zeros(Float8_E4M3FN, K, N), zeros(Float32, M, N)
    W = transpose(Wt)
    sa, sb = mx_scales(zeros(UInt8, M, cld(K, 32))), mx_scales(zeros(UInt8, N, cld(K, 32)))

    @testset "UInt8 scales are MX scales of their length (no GPU)" begin
        @test length(sa) == 3 * 3 * 512 && length(sb) == 2 * 3 * 512
        @test modes(Y, W, X; scale_a=sa, scale_b=sb) == (MX, MX)
        # Any shape: only the length counts.
        @test modes(Y, W, X; scale_a=reshape(sa, 512, 9), scale_b=reshape(sb, 16, :)) == (MX, MX)
        # The sizes are those of A and B as matmul! takes them: a plain M×K A, a transposed B.
        @test modes(Y, zeros(Float8_E5M2, M, K), transpose(zeros(Float8_E5M2, N, K)); scale_a=sa, scale_b=sb) ==
              (MX, MX)
        # K a multiple of 128, or less than one tile: whole tiles along K.
        @test modes(Y, zeros(Float8_E4M3FN, M, 256), zeros(Float8_E4M3FN, 256, N);
                    scale_a=zeros(UInt8, 3 * 2 * 512), scale_b=zeros(UInt8, 2 * 2 * 512)) == (MX, MX)
        @test modes(Y, zeros(Float8_E4M3FN, M, 48), zeros(Float8_E4M3FN, 48, N);
                    scale_a=zeros(UInt8, 3 * 512), scale_b=zeros(UInt8, 2 * 512)) == (MX, MX)
        # K = 0: no tiles, so empty scales (matmul! passes them as none: nothing is scaled).
        @test modes(Y, zeros(Float8_E4M3FN, M, 0), zeros(Float8_E4M3FN, 0, N); scale_a=UInt8[], scale_b=UInt8[]) ==
              (MX, MX)
        # Batches: the scales of each matrix of an operand that holds one per batch, one after another;
        # one set for an operand that serves every batch.
        Yb = zeros(Float32, M, N, 4)
        Wb = PermutedDimsArray(zeros(Float8_E4M3FN, K, M, 4), (2, 1, 3))
        @test modes(Yb, Wb, X; scale_a=mx_scales(zeros(UInt8, M, 9, 4)), scale_b=sb) == (MX, MX)
        @test modes(Yb, W, zeros(Float8_E4M3FN, K, N, 4); scale_a=sa, scale_b=repeat(sb, 4)) == (MX, MX)
        # Right scales pass on to the next check.
        @test_throws says("A is in host memory") matmul!(Y, W, X; scale_a=sa, scale_b=sb)
    end

    @testset "refusals of MX scales (no GPU)" begin
        # A wrong length: an ArgumentError with the one that fits.
        @test_throws says("scale_a has 4607 UInt8 values, but the MX scales of A, 300×260, are 4608 bytes: 3×3 " *
                          "tiles of 512, each 128 rows of A by 4 blocks of 32 along K (ASYNCGEMM_SCALE_MX_32, one " *
                          "byte per row of A and 32 elements of K; mx_scales lays them out)") (
            matmul!(Y, W, X; scale_a=sa[1:end-1], scale_b=sb))
        # A's scales given for B.
        @test_throws says("scale_b has 4608 UInt8 values, but the MX scales of B, 260×200, are 3072 bytes: 2×3 " *
                          "tiles of 512, each 128 columns of B") matmul!(Y, W, X; scale_a=sa, scale_b=sa)
        # The exponents themselves (M×cld(K, 32)), not laid out by mx_scales.
        @test_throws says("scale_a has 2700 UInt8 values") matmul!(Y, W, X; scale_a=zeros(UInt8, M, 9), scale_b=sb)
        # Exponents per 128 elements of K rather than 32: too few tiles along K.
        @test_throws says("scale_a has 1536 UInt8 values") (
            matmul!(Y, W, X; scale_a=mx_scales(zeros(UInt8, M, cld(K, 128))), scale_b=sb))
        # Batches: the scales of every matrix of a batched operand, one set of a shared one.
        Yb = zeros(Float32, M, N, 4)
        Wb = PermutedDimsArray(zeros(Float8_E4M3FN, K, M, 4), (2, 1, 3))
        @test_throws says("scale_a has 4608 UInt8 values, but the MX scales of A's 4 matrices, 300×260 each, " *
                          "are 18432 bytes, 4608 for each matrix: 3×3 tiles") (
            matmul!(Yb, Wb, X; scale_a=sa, scale_b=sb))
        @test_throws says("scale_b has 12288 UInt8 values, but the MX scales of B, 260×200 for every matrix of " *
                          "the batch (so one set of scales), are 3072 bytes") (
            matmul!(Yb, Wb, X; scale_a=repeat(sa, 4), scale_b=repeat(sb, 4)))

        # MX scales on one operand only, or beside another kind of scale.
        @test_throws says("scale_a holds MX scales and scale_b nothing: MX scales (UInt8) are given for A and " *
                          "B both, never for one alone") matmul!(Y, W, X; scale_a=sa)
        @test_throws says("scale_a holds nothing and scale_b MX scales") matmul!(Y, W, X; scale_b=sb)
        @test_throws says("scale_a holds a tensor scale and scale_b MX scales") (
            matmul!(Y, W, X; scale_a=Float32[2], scale_b=sb))
        @test_throws says("scale_a holds MX scales and scale_b 1×128 block scales") (
            matmul!(Y, W, X; scale_a=sa, scale_b=zeros(Float32, N, 3)))
        @test_throws says("scale_a holds 128×128 block scales and scale_b MX scales") (
            matmul!(Y, W, X; scale_a=zeros(Float32, 3, 3), scale_b=sb))

        # MX scales are UInt8: bytes of another type are no scales; Float32 ones of their length are
        # taken for block scales, of a size that does not fit.
        @test_throws says("scale_a has Int8 elements: a scale is one Float32, block scales are Float32 too, and " *
                          "MX scales UInt8") matmul!(Y, W, X; scale_a=zeros(Int8, length(sa)), scale_b=sb)
        @test_throws says("scale_b has size (3072,): a scale is one Float32, or the block scales of B") (
            matmul!(Y, W, X; scale_a=sa, scale_b=Float32.(sb)))
        # Scales of inputs that are not 8-bit.
        @test_throws says("scale_a is given, but A has Float16 elements: scales dequantize 8-bit inputs") (
            matmul!(Y, zeros(Float16, M, K), zeros(Float16, K, N); scale_a=sa, scale_b=sb))
        # Sizes of C, A and B that disagree are a DimensionMismatch, first.
        @test_throws DimensionMismatch matmul!(zeros(Float32, M, N - 1), W, X; scale_a=sa, scale_b=sb)

        # Where MX scales may lie, judged once the operands are in GPU memory (their alignment needs
        # a GPU address: fp8_mx_products.jl).
        @test_throws says("scale_a is in host memory") AsyncGemm.device_scale(sa, "scale_a", Y, MX)
        @test_throws says("AsyncGemm takes MX scales as a CuArray{UInt8} or a contiguous view of one") (
            AsyncGemm.device_scale(Diagonal(ones(UInt8, 3)), "scale_b", Y, MX))
    end

    if CUDA.functional() && AsyncGemm.functional()
        include("fp8_mx_products.jl")
    end
end
