# Strided batches: 3-d arrays, batches that share one matrix, transposed batches and views.
@testset "batched matmul!" begin
    m, n, k, count = 33, 20, 47, 4

    # α·A[:, :, i]·B[:, :, i] + β·C0[:, :, i] for every i, batch by batch with CUDA.jl, where a
    # matrix or a batch of one serves every i. Broadcasting materializes views and
    # PermutedDimsArrays as plain CuArrays.
    function batched_reference(A, B, C0, α, β)
        A32, B32, C32 = Float32.(A), Float32.(B), Float32.(C0)
        matrix(X, i) = ndims(X) == 2 ? X : X[:, :, size(X, 3) == 1 ? 1 : i]
        reference = similar(C32)
        for i in axes(C32, 3)
            view(reference, :, :, i) .= α .* (matrix(A32, i) * matrix(B32, i)) .+ β .* matrix(C32, i)
        end
        return reference
    end

    @testset "$algo $T" for algo in gemm_algorithms(), T in ELEMENTS
        operands = (
            "A and B batches" => (device_random(T, m, k, count), device_random(T, k, n, count)),
            "A shared (size 1 along dim 3)" => (device_random(T, m, k, 1), device_random(T, k, n, count)),
            "B shared (a matrix)" => (device_random(T, m, k, count), device_random(T, k, n)),
            "transposed batches" => (PermutedDimsArray(device_random(T, k, m, count), (2, 1, 3)),
                                     PermutedDimsArray(device_random(T, n, k, count), (2, 1, 3))),
            "views of larger batches" => (view(device_random(T, m + 3, k, count + 2), 2:m+1, :, 2:count+1),
                                          view(device_random(T, k + 1, n, count), 1:k, :, :)),
        )
        @testset "$what" for (what, (A, B)) in operands
            C0 = device_random(T, m, n, count)
            C = copy(C0)
            if ran(() -> matmul!(C, A, B, 1.5, -0.5; algo), algo !== :auto)
                @test close_to(C, batched_reference(A, B, C0, 1.5f0, -0.5f0), tolerance(T))
            end
        end
    end

    @testset "matmul of batches" begin
        A, B = device_random(Float32, m, k, count), device_random(Float32, k, n, count)
        C = matmul(A, B)
        @test C isa CuArray{Float32,3} && size(C) == (m, n, count)
        @test close_to(C, batched_reference(A, B, zero(C), 1f0, 0f0), tolerance(Float32))
    end
end
