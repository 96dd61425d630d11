# 8-bit inputs with block scales (ASYNCGEMM_SCALE_BLOCK_1x128 and BLOCK_128x128). How a scale's size
# selects its mode, and the refusal of every other size, are checked on any machine; the products,
# on any GPU, against Float64 references of the dequantized inputs. The inputs are random Float32
# matrices whose magnitudes vary from block to block, quantized per block with power-of-two scales
# (so dequantizing is exact), and a scale applied to the wrong block shows. On Hopper (compute
# capability 9.0), :auto and :sm90_tma_wgmma multiply the fast form, matmul!(Y, transpose(Wt), X)
# with 128×128 scales of W and 1×128 (or 128×128) scales of X, on the 8-bit tensor cores; every other
# block-scaled product runs on :simt, exact, and the other algorithms refuse block scales.
# FLOAT8 comes from fp8.jl, included before.

@testset "8-bit inputs with block scales" begin
    says(words) = shown -> startswith(shown, "ArgumentError: ") && occursin(words, shown)
    NONE, TENSOR = AsyncGemm.ASYNCGEMM_SCALE_NONE, AsyncGemm.ASYNCGEMM_SCALE_TENSOR
    ROW, BLOCK = AsyncGemm.ASYNCGEMM_SCALE_BLOCK_1x128, AsyncGemm.ASYNCGEMM_SCALE_BLOCK_128x128
    # The modes matmul! gives scale_a and scale_b, judged before any GPU call.
    modes(C, A, B; scale_a=nothing, scale_b=nothing) = AsyncGemm.quantization(C, A, B, scale_a, scale_b)[2:3]

    # Y = W·X: W is M×K, stored K-major as Wt (K×M); X is K×N. K = 260: 3 blocks of K, the last partial.
    M, N, K = 300, 200, 260
    Wt, X, Y = zeros(Float8_E4M3FN, K, M), zeros(Float8_E4M3FN, K, N), zeros(Float32, M, N)
    W = transpose(Wt)

    @testset "the size of a scale selects its mode (no GPU)" begin
        @test modes(Y, W, X) == (NONE, NONE)
        @test modes(Y, W, X; scale_a=zeros(Float32, 300, 3), scale_b=zeros(Float32, 200, 3)) == (ROW, ROW)
        @test modes(Y, W, X; scale_a=zeros(Float32, 3, 3), scale_b=zeros(Float32, 2, 3)) == (BLOCK, BLOCK)
        @test modes(Y, W, X; scale_a=zeros(Float32, 3, 3), scale_b=zeros(Float32, 200, 3)) == (BLOCK, ROW)
        @test modes(Y, W, X; scale_a=Float32[2], scale_b=zeros(Float32, 2, 3)) == (TENSOR, BLOCK)
        # The sizes are those of A and B as matmul! takes them: a plain M×K A, a transposed B.
        @test modes(Y, zeros(Float8_E5M2, M, K), transpose(zeros(Float8_E5M2, N, K));
                    scale_a=zeros(Float32, 300, 3), scale_b=zeros(Float32, 2, 3)) == (ROW, BLOCK)
        # K a multiple of 128: K / 128 blocks.
        @test modes(Y, zeros(Float8_E4M3FN, M, 256), zeros(Float8_E4M3FN, 256, N);
                    scale_a=zeros(Float32, 3, 2), scale_b=zeros(Float32, 200, 2)) == (BLOCK, ROW)
        # One Float32 is a tensor scale, whatever its shape, also where it would fit a block size.
        @test modes(Y, W, X; scale_a=fill(2.0f0, 1, 1), scale_b=fill(2.0f0)) == (TENSOR, TENSOR)
        @test modes(zeros(Float32, 1, N), zeros(Float8_E4M3FN, 1, 100), zeros(Float8_E4M3FN, 100, N);
                    scale_a=fill(1.0f0, 1, 1)) == (TENSOR, NONE)
        # M = 1: one per row and one per 128×128 block are the same size, and mean the same: 1x128.
        @test modes(zeros(Float32, 1, N), zeros(Float8_E4M3FN, 1, K), X; scale_a=zeros(Float32, 1, 3)) == (ROW, NONE)
        # K = 0: no blocks of K, so empty scales (matmul! passes them as none: nothing is scaled).
        @test modes(Y, zeros(Float8_E4M3FN, M, 0), zeros(Float8_E4M3FN, 0, N);
                    scale_a=zeros(Float32, 3, 0), scale_b=zeros(Float32, 200, 0)) == (BLOCK, ROW)
        # Batches: an operand with a matrix per batch has scales per batch along the third dimension;
        # one that serves every batch has one matrix of scales, or size 1 along the third dimension.
        Yb = zeros(Float32, M, N, 4)
        Wb = PermutedDimsArray(zeros(Float8_E4M3FN, K, M, 4), (2, 1, 3))
        @test modes(Yb, Wb, X; scale_a=zeros(Float32, 3, 3, 4), scale_b=zeros(Float32, 200, 3)) == (BLOCK, ROW)
        @test modes(Yb, Wb, X; scale_a=zeros(Float32, 300, 3, 4), scale_b=zeros(Float32, 2, 3, 1)) == (ROW, BLOCK)
        @test modes(Yb, W, zeros(Float8_E4M3FN, K, N, 4);
                    scale_a=zeros(Float32, 3, 3), scale_b=zeros(Float32, 200, 3, 4)) == (BLOCK, ROW)
    end

    @testset "other sizes: an ArgumentError naming the sizes that fit (no GPU)" begin
        @test_throws says("scale_a has size (300, 2): a scale is one Float32, or the block scales of A, " *
                          "300×260, in 3 blocks of 128 along K, of size (300, 3) (ASYNCGEMM_SCALE_BLOCK_1x128: " *
                          "one per row of A and 128 elements of K) or (3, 3) (ASYNCGEMM_SCALE_BLOCK_128x128: " *
                          "one per 128×128 block)") matmul!(Y, W, X; scale_a=zeros(Float32, 300, 2))
        # The transpose of the right size: K's blocks run along the second dimension of both scales.
        @test_throws says("scale_b has size (3, 200): a scale is one Float32, or the block scales of B, " *
                          "260×200, in 3 blocks of 128 along K, of size (200, 3) (ASYNCGEMM_SCALE_BLOCK_1x128: " *
                          "one per column of B and 128 elements of K) or (2, 3)") (
            matmul!(Y, W, X; scale_b=zeros(Float32, 3, 200)))
        @test_throws says("scale_a has size (3, 300)") matmul!(Y, W, X; scale_a=zeros(Float32, 3, 300))
        # The right number of values, as a vector.
        @test_throws says("scale_a has size (900,)") matmul!(Y, W, X; scale_a=zeros(Float32, 900))
        @test_throws says("scale_b has size (2, 3, 1, 1)") matmul!(Y, W, X; scale_b=zeros(Float32, 2, 3, 1, 1))
        # Block scales count K's blocks of 128, not of another size.
        @test_throws says("scale_b has size (200, 5)") matmul!(Y, W, X; scale_b=zeros(Float32, 200, 5))
        # Batches: scales per batch for an operand with a matrix per batch, one matrix for a shared one.
        Yb = zeros(Float32, M, N, 4)
        Wb = PermutedDimsArray(zeros(Float8_E4M3FN, K, M, 4), (2, 1, 3))
        @test_throws says("scale_a has size (3, 3): a scale is one Float32, or the block scales of A's 4 " *
                          "matrices, 300×260 each, in 3 blocks of 128 along K, of size (300, 3, 4)") (
            matmul!(Yb, Wb, X; scale_a=zeros(Float32, 3, 3)))
        @test_throws says("scale_b has size (200, 3, 4): a scale is one Float32, or the block scales of B, " *
                          "260×200 for every matrix of the batch (so one set of scales), in 3 blocks") (
            matmul!(Yb, Wb, X; scale_b=zeros(Float32, 200, 3, 4)))
        # Sizes of C, A and B that disagree are a DimensionMismatch, first.
        @test_throws DimensionMismatch matmul!(zeros(Float32, M, N - 1), W, X; scale_a=zeros(Float32, 3, 3))
        # A right size passes on to the next check.
        @test_throws says("A is in host memory") matmul!(Y, W, X; scale_a=zeros(Float32, 3, 3),
                                                         scale_b=zeros(Float32, 200, 3))
        # Where block scales may lie, judged once the operands are in GPU memory.
        @test_throws says("scale_a is in host memory") (
            AsyncGemm.device_scale(zeros(Float32, 3, 3), "scale_a", Y, BLOCK))
        @test_throws says("AsyncGemm takes block scales as a CuArray{Float32} or a contiguous view of one") (
            AsyncGemm.device_scale(Diagonal(ones(Float32, 3)), "scale_b", Y, ROW))
        @test AsyncGemm.dense(zeros(Float32, 4, 3)) && AsyncGemm.dense(view(zeros(Float32, 4, 5), :, 2:4))
        @test AsyncGemm.dense(view(zeros(Float32, 4, 5), 2:2, 3:3)) && AsyncGemm.dense(zeros(Float32, 4, 0))
        # Not contiguous: rows left out of every column, or columns skipped.
        @test !AsyncGemm.dense(view(zeros(Float32, 4, 5), 1:3, :))
        @test !AsyncGemm.dense(view(zeros(Float32, 4, 5), :, 1:2:5))
    end

    if CUDA.functional() && AsyncGemm.functional()
        include("fp8_block_products.jl")
    end
end
