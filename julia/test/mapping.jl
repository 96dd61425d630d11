# The column-major mapping on host arrays: it needs no GPU (device_operand then refuses them).
@testset "column-major mapping (no GPU)" begin
    operand(x) = AsyncGemm.operand(x, "X")
    N, T = AsyncGemm.ASYNCGEMM_OP_N, AsyncGemm.ASYNCGEMM_OP_T

    X = zeros(Float32, 6, 5)
    @testset "matrix" begin
        x = operand(X)
        @test x.data === X && x.op == N && x.ld == 6 && x.stride == 0
        @test x.dtype == AsyncGemm.ASYNCGEMM_R_32F
    end
    @testset "transpose and real adjoint read the parent transposed" begin
        for wrapped in (transpose(X), X', PermutedDimsArray(X, (2, 1)))
            x = operand(wrapped)
            @test x.data === X && x.op == T && x.ld == 6
        end
        @test operand(transpose(transpose(X))).op == N
        @test operand(transpose(X')).op == N
    end
    @testset "views with contiguous columns pass their column stride" begin
        v = view(X, 2:5, 2:4)
        x = operand(v)
        @test x.data === v && x.op == N && x.ld == 6
        @test operand(transpose(v)).op == T && operand(transpose(v)).ld == 6
    end
    @testset "leading dimension of degenerate shapes" begin
        @test operand(zeros(Float32, 7, 1)).ld == 7
        @test operand(view(X, :, 3:3)).ld == 6
        @test operand(zeros(Float32, 0, 5)).ld == 1
        @test operand(zeros(Float32, 4, 0)).ld == 4
    end
    @testset "element types" begin
        @test operand(zeros(Float16, 2, 2)).dtype == AsyncGemm.ASYNCGEMM_R_16F
        @test operand(zeros(BFloat16, 2, 2)).dtype == AsyncGemm.ASYNCGEMM_R_16BF
        @test_throws "Float64" operand(zeros(Float64, 2, 2))
        @test_throws ArgumentError operand(zeros(Int32, 2, 2))
    end
    @testset "batches" begin
        Y = zeros(Float16, 4, 3, 5)
        y = operand(Y)
        @test y.op == N && y.ld == 4 && y.stride == 12
        yt = operand(PermutedDimsArray(Y, (2, 1, 3)))
        @test yt.data === Y && yt.op == T && yt.ld == 4 && yt.stride == 12
        @test operand(zeros(Float16, 4, 3, 1)).stride == 0
        w = operand(view(Y, 1:3, :, 2:4))
        @test w.ld == 4 && w.stride == 12
    end
    @testset "what cannot be read in place throws ArgumentError" begin
        @test_throws "stride 2 along its first dimension" operand(view(X, 1:2:5, :))
        @test_throws "stride 2 along its first dimension" operand(transpose(view(X, 1:2:5, :)))
        @test_throws "conjugates" operand(zeros(ComplexF32, 3, 3)')
        @test_throws ArgumentError operand(zeros(ComplexF32, 3, 3))
        @test_throws "matrix or a 3-d batch" operand(zeros(Float32, 3))
        @test_throws "matrix or a 3-d batch" operand(zeros(Float32, 2, 2, 2, 2))
        @test_throws ArgumentError operand(PermutedDimsArray(zeros(Float32, 2, 3, 4), (3, 1, 2)))
        @test_throws ArgumentError operand(view(X, [1, 3], :))
    end
    @testset "host arrays are refused before any library call" begin
        @test_throws "host memory" AsyncGemm.device_operand(X, "A")
        @test_throws "host memory" matmul!(zeros(Float32, 2, 2), zeros(Float32, 2, 3), zeros(Float32, 3, 2))
    end
    @testset "sizes" begin
        A, B = zeros(Float32, 4, 3), zeros(Float32, 3, 5)
        @test AsyncGemm.product_dims(zeros(Float32, 4, 5), A, B) == (4, 5, 3, 1)
        @test_throws DimensionMismatch AsyncGemm.product_dims(zeros(Float32, 4, 5), A, zeros(Float32, 2, 5))
        @test_throws DimensionMismatch AsyncGemm.product_dims(zeros(Float32, 5, 5), A, B)
        @test AsyncGemm.product_dims(zeros(Float32, 4, 5, 6), A, zeros(Float32, 3, 5, 6)) == (4, 5, 3, 6)
        @test AsyncGemm.product_dims(zeros(Float32, 4, 5, 6), zeros(Float32, 4, 3, 1), B) == (4, 5, 3, 6)
        @test_throws "holds 2 matrices" AsyncGemm.product_dims(zeros(Float32, 4, 5, 6), zeros(Float32, 4, 3, 2), B)
    end
    @testset "bias and activation: their modes, and their refusals before any GPU call" begin
        epilogue(C, bias; activation=:none, bias_dims=nothing) = AsyncGemm.epilogue(C, bias, activation, bias_dims)
        ROW, COL = AsyncGemm.ASYNCGEMM_BIAS_PER_ROW, AsyncGemm.ASYNCGEMM_BIAS_PER_COL
        NONE = AsyncGemm.ASYNCGEMM_BIAS_NONE
        C = zeros(Float16, 4, 5)
        # The length picks the mode of the column-major D: size(C, 1) values are one per row (C .+ bias).
        @test epilogue(C, nothing) == (NONE, AsyncGemm.ASYNCGEMM_ACT_NONE)
        @test epilogue(C, zeros(Float16, 4)) == (ROW, AsyncGemm.ASYNCGEMM_ACT_NONE)
        @test first(epilogue(C, zeros(Float32, 5))) == COL
        @test first(epilogue(C, zeros(Float32, 4); bias_dims=1)) == ROW
        @test first(epilogue(C, zeros(Float32, 5); bias_dims=2)) == COL
        @test first(epilogue(zeros(Float32, 4, 5, 3), zeros(Float32, 5))) == COL  # one bias for every batch
        @test first(epilogue(C, nothing; bias_dims=2)) == NONE
        square = zeros(BFloat16, 3, 3)
        @test first(epilogue(square, zeros(BFloat16, 3); bias_dims=1)) == ROW
        @test first(epilogue(square, zeros(Float32, 3); bias_dims=2)) == COL
        @test last(epilogue(C, nothing; activation=:gelu)) == AsyncGemm.ASYNCGEMM_ACT_GELU_TANH
        @test last(epilogue(C, nothing; activation=:gelu_tanh)) == AsyncGemm.ASYNCGEMM_ACT_GELU_TANH
        @test last(epilogue(C, nothing; activation=:gelu_erf)) == AsyncGemm.ASYNCGEMM_ACT_GELU_ERF
        @test last(epilogue(C, zeros(Float16, 4); activation=:relu)) == AsyncGemm.ASYNCGEMM_ACT_RELU
        @test last(epilogue(C, nothing; activation=:silu)) == AsyncGemm.ASYNCGEMM_ACT_SILU

        # matmul! refuses a wrong keyword first, so host arrays show it with no GPU; right ones
        # pass on to the next check.
        # An ArgumentError saying `words`: @test_throws hands a match function the error as showerror
        # prints it, "ArgumentError: message".
        says(words) = shown -> startswith(shown, "ArgumentError: ") && occursin(words, shown)
        A, B, D, bias = zeros(Float32, 4, 3), zeros(Float32, 3, 5), zeros(Float32, 4, 5), zeros(Float32, 4)
        @test_throws says("activation must be one of :none, :relu, :gelu, :gelu_tanh, :gelu_erf, :silu, not :tanh") (
            matmul!(D, A, B; activation=:tanh))
        @test_throws says("bias has 3 values, but C is 4×5: a bias has 4 values (one per row) or 5 (one per column)") (
            matmul!(D, A, B; bias=zeros(Float32, 3)))
        @test_throws says("bias has Float16 elements: with a Float32 C it must have Float32 elements") (
            matmul!(D, A, B; bias=zeros(Float16, 4)))
        @test_throws says("with a BFloat16 C it must have BFloat16 or Float32 elements") (
            epilogue(square, zeros(Float16, 3); bias_dims=1))
        @test_throws says("bias_dims=1, but bias has 5 values, one per column of C") (
            matmul!(D, A, B; bias=zeros(Float32, 5), bias_dims=1))
        @test_throws says("bias_dims=2, but bias has 4 values, one per row of C") matmul!(D, A, B; bias, bias_dims=2)
        @test_throws says("bias_dims must be 1") matmul!(D, A, B; bias, bias_dims=3)
        @test_throws says("bias must be a vector") matmul!(D, A, B; bias=zeros(Float32, 4, 1))
        @test_throws says("say which with bias_dims=1 (one per row) or bias_dims=2 (one per column)") (
            matmul!(zeros(Float32, 4, 4), A, zeros(Float32, 3, 4); bias))
        @test_throws says("A is in host memory") matmul!(D, A, B; bias, activation=:relu)
        @test_throws says("A is in host memory") (
            matmul!(zeros(Float32, 4, 4), A, zeros(Float32, 3, 4); bias, bias_dims=2))
        @test_throws says("bias is in host memory") AsyncGemm.device_bias(bias, D)
        @test_throws says("AsyncGemm takes a CuVector") AsyncGemm.device_bias(range(0f0, 1f0; length=4), D)
    end
    @testset "options" begin
        @test AsyncGemm.option(AsyncGemm.ALGORITHMS, :simt, "algo") == AsyncGemm.ASYNCGEMM_ALGO_SIMT
        @test AsyncGemm.option(AsyncGemm.SMEM_LAYOUTS, :swizzled, "layout") == AsyncGemm.ASYNCGEMM_SMEM_SWIZZLED
        @test_throws ":auto, :simt" AsyncGemm.option(AsyncGemm.ALGORITHMS, :fastest, "algo")
        @test_throws ":auto, :default, :tf32" AsyncGemm.set_math_mode!(:fp16)
        # CUDA.jl's default math mode (or no GPU at all) leaves :auto at exact fp32.
        @test AsyncGemm.math_mode() == :default
        # An explicit mode holds in its task only; :auto goes back to following CUDA.jl.
        @test fetch(Threads.@spawn begin
            AsyncGemm.set_math_mode!(:tf32)
            chosen = AsyncGemm.math_mode()
            AsyncGemm.set_math_mode!(:auto)
            (chosen, AsyncGemm.math_mode())
        end) == (:tf32, :default)
        @test AsyncGemm.math_mode() == :default
    end
end
