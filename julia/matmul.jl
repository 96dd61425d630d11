"""
    AsyncGemm.matmul!(C, A, B, α=true, β=false; algo=:auto) -> C

`C = α·A·B + β·C` on the GPU, on the task's stream, accumulating in Float32.

`A` and `B` share an element type, Float16, BFloat16 or Float32; `C` may have another of the
three (Float16 and BFloat16 inputs may write Float16, BFloat16 or Float32). Each of `A`, `B` may be a
`CuMatrix`, a view of one with contiguous columns, or its `transpose` or `adjoint`, read in place.

With 3-d arrays it multiplies batches: `C[:, :, i] = α·A[:, :, i]·B[:, :, i] + β·C[:, :, i]`, where
`A` or `B` may hold a single matrix (a matrix, or size 1 along the third dimension) that every
batch uses. `PermutedDimsArray(X, (2, 1, 3))` transposes every matrix of a batch in place.

`algo` is `:auto` (the fastest that serves the problem) or one of [`algorithms`](@ref); an
algorithm that cannot serve the problem throws an [`AsyncGemmError`](@ref) saying why.
"""
function matmul!(C::AbstractArray, A::AbstractArray, B::AbstractArray, α::Number=true, β::Number=false;
                 algo::Symbol=:auto)
    a, b, c = device_operand(A, "A"), device_operand(B, "B"), device_operand(C, "C")
    c.op == ASYNCGEMM_OP_N ||
        throw(ArgumentError("C cannot be a transpose: compute its parent, transpose(C) = transpose(B)·transpose(A)"))
    a.dtype == b.dtype ||
        throw(ArgumentError("A and B must share an element type, not $(eltype(A)) and $(eltype(B))"))
    (Base.mightalias(C, A) || Base.mightalias(C, B)) &&
        throw(ArgumentError("C must not share memory with A or B"))
    m, n, k, batch = product_dims(C, A, B)
    algorithm = option(ALGORITHMS, algo, "algo")
    h = handle()
    # With β = 0 the library must not read C, which may hold NaN (matmul leaves it uninitialized).
    c_in = iszero(β) ? CU_NULL : c.data
    status = if ndims(C) == 2
        asyncgemm_gemm(h, ASYNCGEMM_ORDER_COL, a.op, b.op, m, n, k,
                       Float32(α), a.data, a.dtype, a.ld,
                       b.data, b.dtype, b.ld,
                       Float32(β), c_in, c.dtype, c.ld,
                       c.data, c.dtype, c.ld,
                       algorithm, stream())
    else
        asyncgemm_gemm_strided_batched(h, ASYNCGEMM_ORDER_COL, a.op, b.op, m, n, k,
                                       Float32(α), a.data, a.dtype, a.ld, a.stride,
                                       b.data, b.dtype, b.ld, b.stride,
                                       Float32(β), c_in, c.dtype, c.ld, c.stride,
                                       c.data, c.dtype, c.ld, c.stride,
                                       batch, algorithm, stream())
    end
    check(status)
    return C
end

"""
    AsyncGemm.matmul(A, B; algo=:auto) -> CuArray

`A·B` in a new `CuArray` of `A`'s element type: a matrix, or a 3-d batch when `A` or `B` is one.
See [`matmul!`](@ref).
"""
function matmul(A::AbstractArray, B::AbstractArray; algo::Symbol=:auto)
    m, n = size(A, 1), size(B, 2)
    dims = ndims(A) == 3 || ndims(B) == 3 ? (m, n, max(size(A, 3), size(B, 3))) : (m, n)
    return matmul!(CuArray{eltype(A)}(undef, dims), A, B; algo)
end

# (m, n, k, batch count) of C = A·B, or a DimensionMismatch naming the sizes that disagree.
function product_dims(C, A, B)
    m, n, batch = size(C, 1), size(C, 2), size(C, 3)
    k = size(A, 2)
    (size(A, 1), size(B, 1), size(B, 2)) == (m, k, n) ||
        throw(DimensionMismatch("C is $(shape(C)), A is $(shape(A)) and B is $(shape(B)): " *
                                "C = A·B needs A m×k, B k×n and C m×n"))
    for (name, x) in (("A", A), ("B", B))
        size(x, 3) in (1, batch) ||
            throw(DimensionMismatch("$name holds $(size(x, 3)) matrices and C $batch: A and B must hold " *
                                    "as many as C, or one"))
    end
    return m, n, k, batch
end

shape(x::AbstractArray) = join(size(x), "×")
