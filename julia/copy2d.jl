"""
    AsyncGemm.copy2d!(dst, src; op=:N, α=1, algo=:auto, layout=:auto, vector_bytes=0) -> dst

`dst = α·src` (`op=:N`) or `dst = α·transpose(src)` (`op=:T`) through shared-memory tiles, on the
task's stream. `dst` and `src` share an element type; `src` may be a `transpose` or `adjoint`,
which composes with `op`.

- `algo`: `:auto`, `:sync` (plain loads and stores), `:async` (cp.async), `:pipelined`
  (multi-stage cp.async) or `:tma`. With `layout=:auto`, `:auto` copies 16-bit columns aligned
  to 2 bytes only straight through registers, without shared memory, where no transpose remains
  once `op` is composed with `src`'s wrapper.
- `layout`: the shared-memory tile, `:auto`, `:plain`, `:padded` or `:swizzled`.
- `vector_bytes`: 0 lets the library choose, else 4, 8 or 16 bytes per access.

A combination that cannot work throws an [`AsyncGemmError`](@ref) with the library's reason.
"""
function copy2d!(dst::AbstractMatrix, src::AbstractMatrix; op::Symbol=:N, α::Number=1,
                 algo::Symbol=:auto, layout::Symbol=:auto, vector_bytes::Integer=0)
    d, s = device_operand(dst, "dst"), device_operand(src, "src")
    d.op == ASYNCGEMM_OP_N || throw(ArgumentError("dst cannot be a transpose: copy into its parent"))
    d.dtype == s.dtype ||
        throw(ArgumentError("dst and src must share an element type, not $(eltype(dst)) and $(eltype(src))"))
    eltype(dst) <: Element ||
        throw(ArgumentError("dst and src have $(eltype(dst)) elements: copy2d! copies Float16, BFloat16 and Float32"))
    transpose_src = option(OPS, op, "op")
    rows, cols = size(dst)
    expected = transpose_src == ASYNCGEMM_OP_N ? (rows, cols) : (cols, rows)
    size(src) == expected ||
        throw(DimensionMismatch("dst is $(shape(dst)), so src must be $(join(expected, "×")) for op=:$op, " *
                                "not $(shape(src))"))
    copy_algorithm = option(COPY_ALGORITHMS, algo, "algo")
    smem_layout = option(SMEM_LAYOUTS, layout, "layout")
    src_op = transpose_src == ASYNCGEMM_OP_N ? s.op : flip(s.op)
    check(asyncgemm_copy2d(handle(), ASYNCGEMM_ORDER_COL, src_op, rows, cols, Float32(α),
                           s.data, s.ld, d.data, d.ld, d.dtype,
                           copy_algorithm, smem_layout, vector_bytes, stream()))
    return dst
end
