# Bias and activation fused into the product: act.(α·A·B + β·C .+ bias) for every activation, bias
# along rows and along columns, of D's type and of Float32, against CUDA.jl's product with the bias
# and the activation applied on the host in Float64.
@testset "matmul! with bias and activation" begin
    # erf in Float64 (Base has none): 2/√π·e^(-x²)·Σₙ 2ⁿx^(2n+1)/(1·3···(2n+1)), whose terms all have
    # x's sign, so nothing cancels; beyond |x| = 6 it is ±1 to Float64 precision.
    function host_erf(x::Float64)
        abs(x) > 6 && return sign(x)
        term = total = x
        n = 0
        while abs(term) > eps(abs(total))
            n += 1
            term *= 2x^2 / (2n + 1)
            total += term
        end
        return 2 / sqrt(π) * exp(-x^2) * total
    end
    gelu_tanh(x) = 0.5x * (1 + tanh(sqrt(2 / π) * (x + 0.044715x^3)))
    # The header's definitions, by the names matmul! takes.
    activations = (none=identity, relu=x -> max(x, 0.0), gelu=gelu_tanh, gelu_tanh=gelu_tanh,
                   gelu_erf=x -> 0.5x * (1 + host_erf(x / sqrt(2))), silu=x -> x / (1 + exp(-x)))
    @test keys(activations) == keys(AsyncGemm.ACTIVATIONS)

    # act.(product .+ bias) on the host, where product is α·A·B + β·C in Float32: bias_dims 1 adds
    # bias[i] to row i, 2 adds bias[j] to column j (of every matrix of a batch).
    function fused_reference(activation, product, bias, bias_dims)
        x = Float64.(Array(product))
        if bias !== nothing
            values = Float64.(Array(bias))
            x = x .+ (bias_dims == 1 ? values : reshape(values, 1, :))
        end
        return Float32.(activations[activation].(x))
    end
    product(A, B) = Float32.(A) * Float32.(B)

    m, n, k = 70, 45, 64  # not square: the bias's length tells rows from columns
    for algo in gemm_algorithms(), Tin in ELEMENTS, Tout in outputs(Tin)
        may_decline = algo !== :auto
        @testset "$algo $Tin→$Tout :$activation bias_dims=$bias_dims $Tbias" for activation in keys(activations),
                                                                                 bias_dims in (1, 2),
                                                                                 Tbias in unique((Tout, Float32))
            A, B = device_random(Tin, m, k), device_random(Tin, k, n)
            bias = device_random(Tbias, bias_dims == 1 ? m : n)
            D = poisoned(Tout, m, n)
            if ran(() -> matmul!(D, A, B; bias, activation, algo), may_decline)
                @test close_to(Array(D), fused_reference(activation, product(A, B), bias, bias_dims),
                               tolerance(Tout))
            end
        end
    end

    @testset "an activation alone, a bias alone ($algo)" for algo in gemm_algorithms()
        A, B = device_random(Float16, m, k), device_random(Float16, k, n)
        D = poisoned(Float32, m, n)
        if ran(() -> matmul!(D, A, B; activation=:silu, algo), algo !== :auto)
            @test close_to(Array(D), fused_reference(:silu, product(A, B), nothing, 1), tolerance(Float32))
        end
        bias = device_random(Float32, n)
        if ran(() -> matmul!(D, A, B; bias, algo), algo !== :auto)
            @test close_to(Array(D), fused_reference(:none, product(A, B), bias, 2), tolerance(Float32))
        end
    end

    @testset "α, β and C ($algo, $T)" for algo in gemm_algorithms(), T in ELEMENTS
        A, B, C0 = device_random(T, m, k), device_random(T, k, n), device_random(T, m, n)
        bias = device_random(T, m)
        for (α, β) in ((2, 0), (0.5, -1), (0, 1))
            C = copy(C0)
            if ran(() -> matmul!(C, A, B, α, β; bias, activation=:gelu_erf, algo), algo !== :auto)
                reference = α .* product(A, B) .+ β .* Float32.(C0)
                @test close_to(Array(C), fused_reference(:gelu_erf, reference, bias, 1), tolerance(T))
            end
        end
    end

    @testset "square C: bias_dims says which way ($algo)" for algo in gemm_algorithms()
        A, B = device_random(Float32, 48, 32), device_random(Float32, 32, 48)
        bias = device_random(Float32, 48)
        for bias_dims in (1, 2)
            D = poisoned(Float32, 48, 48)
            if ran(() -> matmul!(D, A, B; bias, bias_dims, activation=:relu, algo), algo !== :auto)
                @test close_to(Array(D), fused_reference(:relu, product(A, B), bias, bias_dims),
                               tolerance(Float32))
            end
        end
    end

    @testset "transposed operands, views, and a view as bias ($algo)" for algo in gemm_algorithms()
        P, Q, R = device_random(BFloat16, k, m), device_random(BFloat16, n + 3, k + 2), poisoned(BFloat16, m + 4, n)
        A, B, D = transpose(P), adjoint(view(Q, 2:n+1, 3:k+2)), view(R, 3:m+2, :)
        bias = view(device_random(Float32, n + 5), 3:n+2)
        if ran(() -> matmul!(D, A, B; bias, activation=:gelu, algo), algo !== :auto)
            reference = transpose(Float32.(P)) * adjoint(Float32.(view(Q, 2:n+1, 3:k+2)))
            @test close_to(Array(D), fused_reference(:gelu, reference, bias, 2), tolerance(BFloat16))
            # The rows of R outside the view stay as they were.
            @test all(isnan, Array(R)[[1, 2, m + 3, m + 4], :])
        end
    end

    @testset "batches share one bias ($algo)" for algo in gemm_algorithms()
        count = 3
        A, B = device_random(Float16, m, k, count), device_random(Float16, k, n)  # B serves every batch
        A32, B32 = Float32.(Array(A)), Float32.(Array(B))
        batch_product = cat((A32[:, :, i] * B32 for i in 1:count)...; dims=3)
        for bias_dims in (1, 2)
            bias = device_random(Float16, bias_dims == 1 ? m : n)
            D = poisoned(Float16, m, n, count)
            if ran(() -> matmul!(D, A, B; bias, activation=:gelu_tanh, algo), algo !== :auto)
                @test close_to(Array(D), fused_reference(:gelu_tanh, batch_product, bias, bias_dims),
                               tolerance(Float16))
            end
        end
    end

    @testset "matmul" begin
        W, x = device_random(Float16, 64, 40), device_random(Float16, 40, 16)
        b = device_random(Float32, 64)
        y = matmul(W, x; bias=b, activation=:relu)  # a dense layer: relu.(W*x .+ b)
        @test y isa CuMatrix{Float16} && size(y) == (64, 16)
        @test close_to(Array(y), fused_reference(:relu, product(W, x), b, 1), tolerance(Float16))
        A, B, c = device_random(Float32, 16, 8), device_random(Float32, 8, 16), device_random(Float32, 16)
        square = matmul(A, B; bias=c, bias_dims=2)
        @test square isa CuMatrix{Float32} && size(square) == (16, 16)
        @test close_to(Array(square), fused_reference(:none, product(A, B), c, 2), tolerance(Float32))
    end
end
