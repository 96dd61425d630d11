# What goes wrong says so: Julia's exceptions for what Julia can see, the library's message for
# what only it can.
@testset "errors" begin
    A, B, C = device_random(Float32, 4, 3), device_random(Float32, 3, 5), device_random(Float32, 4, 5)

    @testset "mismatched sizes: DimensionMismatch" begin
        @test_throws DimensionMismatch matmul!(C, A, device_random(Float32, 2, 5))
        @test_throws DimensionMismatch matmul!(device_random(Float32, 5, 5), A, B)
        @test_throws DimensionMismatch matmul(A, A)
        @test_throws DimensionMismatch matmul!(device_random(Float32, 4, 5, 3), device_random(Float32, 4, 3, 2), B)
        @test_throws DimensionMismatch copy2d!(device_random(Float32, 4, 5), A)
        @test_throws DimensionMismatch copy2d!(device_random(Float32, 4, 3), A; op=:T)
    end

    @testset "what cannot be passed: ArgumentError before any call" begin
        @test_throws "stride 2" matmul!(C, view(device_random(Float32, 8, 3), 1:2:7, :), B)
        @test_throws "conjugates" matmul!(device_random(ComplexF32, 4, 5), device_random(ComplexF32, 3, 4)',
                                          device_random(ComplexF32, 3, 5))
        @test_throws "share an element type" matmul!(C, device_random(Float16, 4, 3), B)
        @test_throws "Float64" matmul!(CuArray{Float64}(undef, 4, 5), CuArray{Float64}(undef, 4, 3),
                                       CuArray{Float64}(undef, 3, 5))
        @test_throws "host memory" matmul!(C, Array(A), B)
        @test_throws "C cannot be a transpose" matmul!(transpose(device_random(Float32, 5, 4)), A, B)
        @test_throws "share memory" matmul!(C, C, device_random(Float32, 5, 5))
        @test_throws "algo must be one of" matmul!(C, A, B; algo=:fastest)
        @test_throws "layout must be one of" copy2d!(C, copy(C); layout=:diagonal)
        @test_throws "bias is in host memory" matmul!(C, A, B; bias=zeros(Float32, 4))
        @test_throws "bias has stride 2" matmul!(C, A, B; bias=view(device_random(Float32, 8), 1:2:7))
        @test_throws "bias must not share memory with C" matmul!(C, A, B; bias=view(C, :, 2))
    end

    @testset "the library's own refusals: AsyncGemmError with its message" begin
        # An algorithm this device lacks.
        unavailable = setdiff(keys(AsyncGemm.ALGORITHMS), [:auto; AsyncGemm.algorithms()])
        @testset "algo=:$algo" for algo in unavailable
            err = try
                matmul!(C, A, B; algo)
            catch caught
                caught
            end
            library_message = unsafe_string(AsyncGemm.asyncgemm_last_error())
            @test err isa AsyncGemmError
            @test err.status == AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED
            @test !isempty(err.message) && err.message == library_message
            @test occursin(library_message, sprint(showerror, err))
        end
        # An argument only the library checks.
        err = try
            copy2d!(C, copy(C); vector_bytes=3)
        catch caught
            caught
        end
        @test err isa AsyncGemmError
        @test err.status == AsyncGemm.ASYNCGEMM_STATUS_INVALID_VALUE
        @test occursin("vector_bytes", err.message)
    end
end
