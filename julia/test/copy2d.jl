# Every copy algorithm and shared-memory layout, as is and transposed, bit for bit.
@testset "copy2d!" begin
    # A named algorithm or layout may refuse a combination it cannot serve; :auto with :auto may not.
    declined = (AsyncGemm.ASYNCGEMM_STATUS_INVALID_VALUE, AsyncGemm.ASYNCGEMM_STATUS_NOT_SUPPORTED,
                AsyncGemm.ASYNCGEMM_STATUS_MISALIGNED)
    shapes = ((1, 1), (33, 65), (128, 256), (257, 31))
    for algo in keys(AsyncGemm.COPY_ALGORITHMS), layout in keys(AsyncGemm.SMEM_LAYOUTS), T in ELEMENTS
        may_decline = algo !== :auto || layout !== :auto
        @testset "$algo $layout $T op=:$op $rows×$cols" for op in (:N, :T), (rows, cols) in shapes
            src = device_random(T, (op === :N ? (rows, cols) : (cols, rows))...)
            dst = poisoned(T, rows, cols)
            if ran(() -> copy2d!(dst, src; op, algo, layout), may_decline; declined)
                @test Array(dst) == (op === :N ? Array(src) : permutedims(Array(src)))
            end
        end
    end

    @testset "α, views, and a transposed source composing with op" begin
        P = device_random(Float32, 40, 50)
        src = view(P, 3:35, 2:48)
        dst = poisoned(Float32, 47, 33)
        copy2d!(dst, transpose(src); α=2)
        @test Array(dst) == 2 .* permutedims(Array(src))
        back = poisoned(Float32, 47, 33)
        copy2d!(back, transpose(dst); op=:T, α=0.5)
        @test Array(back) == permutedims(Array(src))
    end
end
