# 8-bit float inputs, DLFP8Types' Float8_E4M3FN and Float8_E5M2, with their tensor scales (block
# scales: fp8_block.jl; MX scales: fp8_mx.jl). The refusals matmul! makes before any GPU call are
# checked on any machine; the products, against Float32 references computed on the host from the
# dequantized inputs, on any GPU (fp8_products.jl). On Hopper (compute capability 9.0) the 8-bit
# tensor cores multiply the K-major forms, A = transpose(At) of a stored K×M At and a stored K×N B;
# every other form, GPU and algorithm runs on Float16 copies of A and B.

const FLOAT8 = (Float8_E4M3FN, Float8_E5M2)

@testset "8-bit inputs" begin
    # An ArgumentError saying `words` (@test_throws hands a match function the error as showerror
    # prints it, "ArgumentError: message").
    says(words) = shown -> startswith(shown, "ArgumentError: ") && occursin(words, shown)
    N, T = AsyncGemm.ASYNCGEMM_OP_N, AsyncGemm.ASYNCGEMM_OP_T

    @testset "element types and the K-major forms (no GPU)" begin
        operand(x) = AsyncGemm.operand(x, "X")
        @test operand(zeros(Float8_E4M3FN, 4, 3)).dtype == AsyncGemm.ASYNCGEMM_R_8F_E4M3
        @test operand(zeros(Float8_E5M2, 4, 3)).dtype == AsyncGemm.ASYNCGEMM_R_8F_E5M2
        # The other two of DLFP8Types' formats (no negative zero, other biases) are no OCP FP8.
        @test_throws says("Float8_E4M3FNUZ elements") operand(zeros(Float8_E4M3FNUZ, 4, 3))
        # What the library reads K-major, column-major: op_a T on a K×M At, op_b N on a K×N B.
        At, B = zeros(Float8_E4M3FN, 32, 4), zeros(Float8_E4M3FN, 32, 5)
        for A in (transpose(At), adjoint(At), PermutedDimsArray(At, (2, 1)))
            a = operand(A)
            @test a.data === At && a.op == T && a.ld == 32
        end
        b = operand(B)
        @test b.data === B && b.op == N && b.ld == 32
        batch = operand(PermutedDimsArray(zeros(Float8_E5M2, 32, 4, 3), (2, 1, 3)))
        @test batch.op == T && batch.ld == 32 && batch.stride == 128
    end

    @testset "refusals before any GPU call (no GPU)" begin
        At, B, D = zeros(Float8_E4M3FN, 32, 4), zeros(Float8_E4M3FN, 32, 5), zeros(Float32, 4, 5)
        A = transpose(At)
        # E4M3 by E5M2 passes on (to the host-memory check), with any scales.
        @test_throws says("A is in host memory") matmul!(D, A, zeros(Float8_E5M2, 32, 5))
        @test_throws says("A is in host memory") matmul!(D, A, zeros(Float8_E5M2, 32, 5); scale_b=Float32[1])
        @test_throws says("A is in host memory") matmul!(D, A, zeros(Float8_E5M2, 32, 5); scale_a=ones(Float32, 4, 1))
        @test_throws says("A has Float16 elements and B Float8_E4M3FN") matmul!(D, zeros(Float16, 4, 32), B)
        @test_throws says("C has Float8_E5M2 elements: 8-bit floats are inputs only") (
            matmul!(zeros(Float8_E5M2, 4, 5), A, B))
        A32, B32 = zeros(Float32, 4, 32), zeros(Float32, 32, 5)
        @test_throws says("scale_a is given, but A has Float32 elements: scales dequantize 8-bit inputs") (
            matmul!(D, A32, B32; scale_a=Float32[1]))
        @test_throws says("scale_b is given, but A has BFloat16 elements") (
            matmul!(D, zeros(BFloat16, 4, 32), zeros(BFloat16, 32, 5); scale_b=Float32[1]))
        # Neither one Float32 nor block scales (fp8_block.jl): the message names the block sizes that fit.
        @test_throws says("scale_a has size (2,): a scale is one Float32, or the block scales of A, 4×32, " *
                          "in 1 block of 128 along K, of size (4, 1)") matmul!(D, A, B; scale_a=Float32[1, 2])
        @test_throws says("scale_b has size (0,): a scale is one Float32") matmul!(D, A, B; scale_b=Float32[])
        @test_throws says("scale_a has Float16 elements: a scale is one Float32") matmul!(D, A, B; scale_a=Float16[1])
        @test_throws says("scale_b has Float64 elements") matmul!(D, A, B; scale_b=[1.0])
        @test_throws says("scale_a is a Float32: a scale is nothing, a one-element CuArray{Float32}") (
            matmul!(D, A, B; scale_a=2.0f0))
        # A wrong bias or activation is refused first, as before.
        @test_throws says("activation must be one of") matmul!(D, A, B; activation=:tanh, scale_a=Float32[1, 2])
        # Right keywords pass on to the next check.
        @test_throws says("A is in host memory") matmul!(D, A, B)
        @test_throws says("A is in host memory") matmul!(D, A, B; scale_a=Float32[1], scale_b=fill(1.0f0))
        @test_throws says("A is in host memory") matmul!(D, A, B; bias=zeros(Float32, 4), activation=:relu)
        # Where a scale may lie, judged once the operands are in GPU memory.
        @test_throws says("scale_a is in host memory") AsyncGemm.device_scale(Float32[1], "scale_a", D)
        @test_throws says("AsyncGemm takes a one-element CuArray{Float32} or a view") (
            AsyncGemm.device_scale(range(1.0f0, 1.0f0; length=1), "scale_b", D))
    end

    if CUDA.functional() && AsyncGemm.functional()
        @testset "scales in GPU memory" begin
            At, B = device_random(Float8_E4M3FN, 32, 16), device_random(Float8_E4M3FN, 32, 24)
            D = poisoned(Float32, 16, 24)
            @test_throws says("scale_a is in host memory") matmul!(D, transpose(At), B; scale_a=Float32[1])
            @test_throws says("scale_b has size (2,)") matmul!(D, transpose(At), B; scale_b=CUDA.ones(Float32, 2))
            @test_throws says("scale_a must not share memory with C") (
                matmul!(D, transpose(At), B; scale_a=view(D, 1:1, 1)))
        end

        include("fp8_products.jl")
    end
end
