# Cached handles follow their contexts: a handle of a destroyed context is never handed out again
# and leaves the cache. Run last: on CUDA.jl before 6.2.1 it resets the device.
@testset "handles and destroyed contexts" begin
    dev = CUDA.device()
    exclusive = attribute(dev, CUDA.DEVICE_ATTRIBUTE_COMPUTE_MODE) == CUDA.COMPUTEMODE_EXCLUSIVE_PROCESS
    in_cache(ctx) = haskey(AsyncGemm.all_handles, ctx)

    @testset "a context of one's own, destroyed" begin
        if exclusive
            @info "skipped: an exclusive-process GPU allows no second context"
        else
            own = CuContext(dev)
            h = CUDA.context!(AsyncGemm.handle, own)
            @test in_cache(own)
            CUDA.unsafe_destroy!(own)
            @test !AsyncGemm.CUDACore.isvalid(own)

            # The driver may give the next context the same CUcontext; its ID differs, and the
            # destroyed context's handle was dropped, not freed, so its pointer cannot come back.
            again = CuContext(dev)
            h_again = CUDA.context!(AsyncGemm.handle, again)
            @test again != own && h_again != h
            @test !in_cache(own) && in_cache(again)
            CUDA.unsafe_destroy!(again)

            # The task's own context and handle are untouched.
            A, B = device_random(Float16, 64, 32), device_random(Float16, 32, 48)
            @test close_to(matmul(A, B), Float32.(A) * Float32.(B), tolerance(Float16))
        end
    end

    # device_reset! destroys the primary context up to CUDA.jl 6.2.0; from 6.2.1 it is a no-op.
    if pkgversion(CUDA) < v"6.2.1"
        @testset "device_reset!" begin
            old_context, old_handle = context(), AsyncGemm.handle()
            device_reset!()
            A, B = device_random(Float16, 64, 32), device_random(Float16, 32, 48)
            @test close_to(matmul(A, B), Float32.(A) * Float32.(B), tolerance(Float16))
            @test context() != old_context && AsyncGemm.handle() != old_handle
            @test !in_cache(old_context)
        end
    end
end
