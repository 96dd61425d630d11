"""
    AsyncGemm.matmul!(C, A, B, α=true, β=false; bias=nothing, activation=:none, bias_dims=nothing,
                      algo=:auto, scale_a=nothing, scale_b=nothing) -> C

`C = act.(α·A·B + β·C .+ bias)` on the GPU, on the task's stream, accumulating in Float32; the bias
and the activation are applied in Float32 too, before the one rounding to `C`'s element type.
Without them, `C = α·A·B + β·C`.

`A` and `B` share an element type, Float16, BFloat16 or Float32 (or an 8-bit float: see below);
`C` may have another of the three (Float16 and BFloat16 inputs may write Float16, BFloat16 or Float32). Each of `A`, `B` may be a
`CuMatrix`, a view of one with contiguous columns, or its `transpose` or `adjoint`, read in place.

With 3-d arrays it multiplies batches: `C[:, :, i] = α·A[:, :, i]·B[:, :, i] + β·C[:, :, i]`, where
`A` or `B` may hold a single matrix (a matrix, or size 1 along the third dimension) that every
batch uses. `PermutedDimsArray(X, (2, 1, 3))` transposes every matrix of a batch in place.

`bias` is `nothing` or a `CuVector` (or a contiguous view of one) of `C`'s element type or
Float32. Its length says how it is added: `size(C, 1)` values add `bias[i]` to row `i`, as
`C .+ bias` does (`y = W*x .+ b`, a dense layer's output); `size(C, 2)` values add `bias[j]` to
column `j`, as `C .+ transpose(bias)` does. Where `C` is square both fit, and `bias_dims` must say
which: `1` for one value per row, `2` for one per column (elsewhere it may be given, and must
agree with the length). A batch adds the same bias to every matrix.

`activation`, applied last: `:none`, `:relu` (`max(x, 0)`), `:gelu` or `:gelu_tanh`
(`0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))`, NNlib's `gelu`), `:gelu_erf` (`0.5x(1 + erf(x/√2))`)
or `:silu` (`x/(1 + exp(-x))`).

A `bias` or an `activation` needs libasyncgemm 0.2 or later; a wrong one throws an
`ArgumentError` before anything runs on the GPU.

`algo` is `:auto` (the fastest that serves the problem) or one of [`algorithms`](@ref); an
algorithm that cannot serve the problem throws an [`AsyncGemmError`](@ref) saying why.
Every algorithm fuses the bias and the activation (`:sm100_tcgen05` from libasyncgemm 0.2.6 on:
named with them, an earlier library throws, and its `:auto` chooses among the others).

# 8-bit inputs

`A` and `B` may instead hold `Float8_E4M3FN` or `Float8_E5M2`, DLFP8Types.jl's OCP FP8 types,
both the same or one of each (E4M3 by E5M2, as FP8 training's gradient products are, from
libasyncgemm 0.2.4 on: from 0.2.5 on Hopper's 8-bit tensor cores as one format runs, elsewhere on
Float16 copies, or with `:simt`, with MX scales, or with block scales outside Hopper's form, on
SIMT's kernels, which read both formats)
(`CuArray(Float8_E4M3FN.(X ./ s))` quantizes a host array with a scale `s`; E4M3's largest
value is 448, and DLFP8Types rounds magnitudes from 480 on to NaN); `C` then has Float16,
BFloat16 or Float32 elements, and the products accumulate in Float32. `scale_a` and `scale_b`
dequantize them, each its own way: `nothing` (a scale of 1), a tensor scale, one Float32 for the
whole matrix in a one-element `CuArray{Float32}` (or a view of one element of one), or block
scales, a `CuMatrix{Float32}` (see "Block scales" below); or both are MX scales, UInt8 exponents
in a `CuVector{UInt8}` (see "MX scales" below). The GPU reads them when the product runs, so scales
computed there need no synchronization. With tensor scales `sa = scale_a[]` and `sb = scale_b[]`,

    C = act.(α·sa·sb·(A·B) + β·C .+ bias)

the product of the dequantized `sa .* Float32.(A)` and `sb .* Float32.(B)`. A scale with inputs
that are not 8-bit, one that is neither one Float32 nor block or MX scales of a size given below,
one not in GPU memory (or that lies in `C`), block or MX scales that are not contiguous, MX scales
of one operand only or not 16-byte aligned, an 8-bit `A` or `B` beside one that is not, and an 8-bit
`C` throw an `ArgumentError` before anything runs on the GPU.
8-bit inputs need libasyncgemm 0.2.1 or later.

Without block or MX scales, where they run depends on the GPU and on the form of `A` and `B`. On
Hopper GPUs (compute capability 9.0), with `algo` `:auto` or `:sm90_tma_wgmma`, the 8-bit tensor cores
multiply them where both operands are K-major (K runs down the columns of both stored matrices),
which in Julia's column-major terms is

    matmul!(C, transpose(At), B; scale_a, scale_b)    # At: K×M, B: K×N, C: M×N

where `transpose(At)` may also be `adjoint(At)` or `PermutedDimsArray(At, (2, 1))`, `At` and `B`
may be views with contiguous columns, and a batch is `PermutedDimsArray(At, (2, 1, 3))` with a
K×N×batch `B`; and where TMA can load every matrix, `C` included: each starts 16-byte aligned with
its columns (and matrices of a batch) a multiple of 16 bytes apart, so K a multiple of 16 for a
whole `At` or `B`. These kernels sum the exact products with fewer bits than Float32 keeps: the
library measured `D` within 4e-3 of max |D| of a Float32 sum at K = 4096.

Every other case without block or MX scales is served as well, on Float16 copies: another GPU, any
other form (a plain M×K `A`, a transposed `B`, both) but on Hopper (below), columns that are not
16-byte aligned, or `:async_copy` or `:pipelined` named (and `:sm90_tma_wgmma` named for inputs
neither its 8-bit kernels nor their copies serve). There the library first widens `A` and `B`, exactly, into Float16 copies in the task's
workspace and multiplies those with a 16-bit kernel, reading the scales itself: exact products
summed in Float32, as accurate as a Float16 `matmul!`, at its rate plus a pass over `A` and `B`. So
`:auto` serves 8-bit inputs on every GPU and in every form. On Hopper, from libasyncgemm 0.2.6 on,
a plain `A` or `B` (one matrix, not a batch, its columns 4-byte aligned, the rest as above) is
instead transposed into an 8-bit copy of the other form in the workspace, and the 8-bit tensor cores
multiply, at half the copies' bytes and twice their rate; storing an operand K-major once
(`permutedims`) still saves the copy on a repeated product. `A` and `B` of the
two formats (E4M3 by E5M2) take the same paths: Hopper's 8-bit kernels read either format for
each (from libasyncgemm 0.2.5 on; 0.2.4 multiplied Float16 copies), `:simt` reads them itself.

Each task lends its handle a workspace of its own (32 MiB, `AsyncGemm.WORKSPACE_BYTES`), which the
library uses inside stream capture too, so a product on copies also runs in a `CUDA.capture`.
A graph so captured uses the task's workspace: replay it while the task lives and keeps its stream
(the workspace is freed when the task is finalized or moves to another stream), not at the same
time as the task's own products, and make the task's first product on a stream outside a capture
(it allocates the workspace).
The copies must fit in it, as the library then uses no memory of its own: they take about
2·K·(M + N) bytes (an operand's times its batch count where it is a batch). Where they do not (M =
N = K = 4096 needs 64 MiB), `:auto` runs `:simt`, whose kernels read 8-bit inputs themselves
(exact, far slower than tensor cores), and `:async_copy`, `:pipelined` or `:sm90_tma_wgmma` named
throw the library's [`AsyncGemmError`](@ref) with status `ASYNCGEMM_STATUS_NOT_SUPPORTED`; on
Hopper the K-major form of the same product needs no copies. `:simt` named always reads the 8-bit
inputs itself, of either format.

The library still refuses, with an [`AsyncGemmError`](@ref): `:sm100_tcgen05` named (Blackwell)
with 8-bit inputs of the two formats or in a form other than the K-major one
(`ASYNCGEMM_STATUS_NOT_SUPPORTED`; the K-major form runs on its `kind::f8f6f4` kernels, which this
project has compiled and self-checks but never run), and `:sm90_tma_wgmma` named with a `C` TMA
cannot store, one not 16-byte aligned or with columns not a multiple of 16 bytes apart
(`ASYNCGEMM_STATUS_MISALIGNED`; `:auto` multiplies that on copies with another kernel).

# Block scales

`scale_a` or `scale_b` may be block scales, one Float32 per block of the operand, as DeepGEMM and
cuBLASLt scale FP8 activations and weights: a `CuMatrix{Float32}`, or a contiguous view of one,
whose size says which blocks. Sizes are those of `A` (M×K) and `B` (K×N) as `matmul!` takes them,
transposes included (for `transpose(Wt)`, those of the M×K `W`), and `KB = cld(K, 128)` blocks of
128 run along K (the last may be partial):

| scale     | size                 | one Float32 per                        | C API mode                     |
|:----------|:---------------------|:---------------------------------------|:-------------------------------|
| `scale_a` | `(M, KB)`            | row of `A` and 128 elements of K       | `ASYNCGEMM_SCALE_BLOCK_1x128`   |
| `scale_a` | `(cld(M, 128), KB)`  | 128×128 block of `A`                   | `ASYNCGEMM_SCALE_BLOCK_128x128` |
| `scale_b` | `(N, KB)`            | column of `B` and 128 elements of K    | `ASYNCGEMM_SCALE_BLOCK_1x128`   |
| `scale_b` | `(cld(N, 128), KB)`  | 128×128 block of `B`                   | `ASYNCGEMM_SCALE_BLOCK_128x128` |

so `A[i, p]` is dequantized by `scale_a[i, cld(p, 128)]` (per row) or `scale_a[cld(i, 128),
cld(p, 128)]` (per block), and `B[p, j]` by `scale_b[j, cld(p, 128)]` or `scale_b[cld(j, 128),
cld(p, 128)]`: K's blocks run along the second dimension of both. Where M = 1 (N = 1) the two sizes
are one and mean the same. A one-element scale is a tensor scale (where it also has a block
size, its one block covers the whole matrix); any other size throws an `ArgumentError` naming the
sizes that fit. Either operand may have block scales, a tensor scale or none, whatever the other
has (but not MX scales, which both have or neither). In a batch, an operand that holds one matrix
per batch has a matrix of scales per batch, a 3-d array with the batch along the third dimension
(`(M, KB, count)` or `(cld(M, 128), KB, count)` for `A`); one that serves every batch has one
matrix of scales (or size 1 along the third dimension). With `sa[i, p]` the scale of `A[i, p]`
and `sb[p, j]` that of `B[p, j]` (a tensor scale, a block's, or 1),

    C = act.(α·((sa .* Float32.(A))·(sb .* Float32.(B))) + β·C .+ bias)

On Hopper, with `algo` `:auto` or `:sm90_tma_wgmma`, the 8-bit tensor cores multiply block-scaled
inputs in the K-major form above, with the same alignment of `At`, `B` and `C`, where `scale_a`
is not one per row: 128×128 blocks of `A` (or a tensor scale, or none), with any scales of `B`.
That is a quantized dense layer, weights `W` (M×K, stored as `Wt`, K×M) in 128×128 blocks and
activations `X` (K×N) per column and 128 elements of K:

    matmul!(Y, transpose(Wt), X; scale_a=sw, scale_b=sx)    # sw: cld(M, 128)×KB, sx: N×KB

The kernels scale each K block's products, summed by the tensor cores, and add them into Float32
(DeepGEMM's promotion); from libasyncgemm 0.2.6 `:auto` also serves a plain `A` or `B` (one matrix,
columns 4-byte aligned) there, on a K-major 8-bit copy of it. Every other block-scaled product
(another GPU, another form, columns TMA cannot load, or `scale_a` one per row of `A`) runs on `:simt`, whose kernels scale the inputs as
they load them and sum the exact products in Float32: exact, and far slower than tensor cores.
Block-scaled inputs never run on Float16 copies. `:auto` chooses between the two. Named, `:simt`
serves every block-scaled product; `:sm90_tma_wgmma` throws an [`AsyncGemmError`](@ref) with
`ASYNCGEMM_STATUS_NOT_SUPPORTED` for a form or a `scale_a` its kernels cannot take, and with
`ASYNCGEMM_STATUS_MISALIGNED` where TMA cannot load or store a matrix; `:async_copy`, `:pipelined`
and `:sm100_tcgen05` throw `ASYNCGEMM_STATUS_NOT_SUPPORTED`. Block scales need libasyncgemm 0.2.2 or
later.

# MX scales

`scale_a` and `scale_b` may instead both be MX scales, the OCP Microscaling formats' MXFP8 as
cuBLASLt and PyTorch scale FP8 on Blackwell: one byte per row of `A` (column of `B`) and 32 elements
of K, an exponent `e` that stands for the power of two `2^(e - 127)` (UE8M0; 0xFF is NaN), in a
`CuVector{UInt8}` (or a contiguous `CuArray{UInt8}` of any shape, or a contiguous view of one) that
starts 16-byte aligned, as a `CuArray` does. Sizes are those of `A` (M×K) and `B` (K×N) as
`matmul!` takes them:

| scale     | bytes                             | one UInt8 per                        | C API mode              |
|:----------|:----------------------------------|:-------------------------------------|:------------------------|
| `scale_a` | `cld(M, 128) * cld(K, 128) * 512` | row of `A` and 32 elements of K      | `ASYNCGEMM_SCALE_MX_32` |
| `scale_b` | `cld(N, 128) * cld(K, 128) * 512` | column of `B` and 32 elements of K   | `ASYNCGEMM_SCALE_MX_32` |

The bytes lie in cuBLASLt's VEC32_UE8M0 tiles of 128 rows by 4 blocks of K, which
[`mx_scales`](@ref) lays out from a plain matrix of exponents, `E_A` M×cld(K, 32) and `E_B`
N×cld(K, 32) (`scale_a = CuArray(mx_scales(E_A))`), so that `A[i, p]` is dequantized by
`2^(E_A[i, cld(p, 32)] - 127)` and `B[p, j]` by `2^(E_B[j, cld(p, 32)] - 127)`: with `sa` and `sb`
those powers of two, element by element,

    C = act.(α·((sa .* Float32.(A))·(sb .* Float32.(B))) + β·C .+ bias)

MX scales are given for `A` and `B` both, never for one alone nor beside a tensor scale or block
scales. In a batch, an operand that holds one matrix per batch has the scales of each, one after
another (`mx_scales` of an X×cld(K, 32)×count array of exponents), and one that serves every batch
has one set. The bytes of the K blocks past K in the last tile of a row must not be 0xFF (a NaN
poisons the tensor cores' sums; `mx_scales` leaves them zero). Any other length, MX scales of one
operand only, or scales not 16-byte aligned throw an `ArgumentError` naming what was given.

On Blackwell GPUs (compute capability 10.0), with `algo` `:auto` or `:sm100_tcgen05`, the tensor
cores' block-scaled MMAs (`kind::mxf8f6f4`) multiply MX-scaled inputs in the K-major form above,
`matmul!(C, transpose(At), B; scale_a, scale_b)`, where TMA can load `At` and `B` (K a multiple of
16 for a whole `At` or `B`) and there is no bias or activation: compiled and self-checked by the
library, never run by this project. Every other MX-scaled product (another GPU, another form, a bias
or an activation) runs on `:simt`, whose kernels scale the inputs as they load them and sum the
exact products in Float32 (the scaled inputs must lie in Float32's range): exact, and far slower
than tensor cores. MX-scaled inputs never run on Float16 copies. Named, `:simt` serves every
MX-scaled product; `:sm100_tcgen05` throws an [`AsyncGemmError`](@ref) with
`ASYNCGEMM_STATUS_NOT_SUPPORTED` for a form, a bias or an activation it cannot take (or where its
self-check of MX-scaled products failed) and `ASYNCGEMM_STATUS_MISALIGNED` where TMA cannot load `At`
or `B`, and `:async_copy`, `:pipelined` and `:sm90_tma_wgmma` throw `ASYNCGEMM_STATUS_NOT_SUPPORTED`.
MX scales need libasyncgemm 0.2.3 or later.
"""
function matmul!(C::AbstractArray, A::AbstractArray, B::AbstractArray, α::Number=true, β::Number=false;
                 bias::Union{Nothing,AbstractArray}=nothing, activation::Symbol=:none,
                 bias_dims::Union{Nothing,Integer}=nothing, algo::Symbol=:auto,
                 scale_a=nothing, scale_b=nothing)
    bias_mode, act = epilogue(C, bias, activation, bias_dims)
    quantized, scale_mode_a, scale_mode_b = quantization(C, A, B, scale_a, scale_b)
    a, b, c = device_operand(A, "A"), device_operand(B, "B"), device_operand(C, "C")
    c.op == ASYNCGEMM_OP_N ||
        throw(ArgumentError("C cannot be a transpose: compute its parent, transpose(C) = transpose(B)·transpose(A)"))
    (a.dtype == b.dtype || quantized) ||
        throw(ArgumentError("A and B must share an element type, not $(eltype(A)) and $(eltype(B))"))
    (Base.mightalias(C, A) || Base.mightalias(C, B)) &&
        throw(ArgumentError("C must not share memory with A or B"))
    fused = bias_mode != ASYNCGEMM_BIAS_NONE || act != ASYNCGEMM_ACT_NONE
    bias === nothing || device_bias(bias, C)
    scale_a === nothing || device_scale(scale_a, "scale_a", C, scale_mode_a)
    scale_b === nothing || device_scale(scale_b, "scale_b", C, scale_mode_b)
    m, n, k, batch = product_dims(C, A, B)
    algorithm = option(ALGORITHMS, algo, "algo")
    h = handle()
    # With β = 0 the library must not read C, which may hold NaN (matmul leaves it uninitialized).
    c_in = iszero(β) ? CU_NULL : c.data
    # 8-bit inputs take the descriptor, the one call with scales, with or without them.
    status = if fused || quantized
        if quantized && a.dtype != b.dtype
            require_matmul("8-bit inputs of two formats", v"0.2.4")
        elseif is_mx_scale(scale_mode_a)  # and scale_mode_b: quantization pairs them
            require_matmul("MX scales", v"0.2.3")
        elseif is_block_scale(scale_mode_a) || is_block_scale(scale_mode_b)
            require_matmul("block scales", v"0.2.2")
        elseif quantized
            require_matmul("8-bit inputs", v"0.2.1")
        else
            require_matmul("a bias or an activation", v"0.2")
        end
        # The descriptor holds bare addresses (ccall converts arguments, not the fields of a struct).
        a_data, b_data, c_data = a.data, b.data, c.data
        GC.@preserve a_data b_data c_data bias scale_a scale_b begin
            desc = matmul_desc(a, b, c, c_in, m, n, k, batch, α, β, bias_mode, bias, act,
                               scale_mode_a, scale_a, scale_mode_b, scale_b, algorithm)
            asyncgemm_matmul(h, desc, stream())
        end
    elseif ndims(C) == 2
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
    AsyncGemm.matmul(A, B; bias=nothing, activation=:none, bias_dims=nothing, algo=:auto,
                     scale_a=nothing, scale_b=nothing) -> CuArray

`act.(A·B .+ bias)` in a new `CuArray` of `A`'s element type, Float32 for 8-bit inputs (call
`matmul!` for another): a matrix, or a 3-d batch when `A` or `B` is one. `bias` then has that
element type or Float32. See [`matmul!`](@ref).
"""
function matmul(A::AbstractArray, B::AbstractArray; bias::Union{Nothing,AbstractArray}=nothing,
                activation::Symbol=:none, bias_dims::Union{Nothing,Integer}=nothing, algo::Symbol=:auto,
                scale_a=nothing, scale_b=nothing)
    m, n = size(A, 1), size(B, 2)
    dims = ndims(A) == 3 || ndims(B) == 3 ? (m, n, max(size(A, 3), size(B, 3))) : (m, n)
    T = eltype(A) <: FP8 ? Float32 : eltype(A)
    return matmul!(CuArray{T}(undef, dims), A, B; bias, activation, bias_dims, algo, scale_a, scale_b)
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

shape(x::AbstractArray) = shape(size(x))
shape(dims::Tuple) = join(dims, "×")

# The bias mode and the activation that matmul!'s keywords ask for, judged from sizes and element
# types alone: matmul! checks them first, so that a wrong keyword is refused before anything is
# asked of the GPU, whatever the arrays (host arrays included).
function epilogue(C::AbstractArray, bias, activation::Symbol, bias_dims)
    act = option(ACTIVATIONS, activation, "activation")
    bias_dims in (nothing, 1, 2) ||
        throw(ArgumentError("bias_dims must be 1 (one bias value per row of C) or 2 (one per column), " *
                            "not $(repr(bias_dims))"))
    bias === nothing && return ASYNCGEMM_BIAS_NONE, act
    bias isa AbstractVector ||
        throw(ArgumentError("bias must be a vector, not a $(ndims(bias))-d array: one bias serves every " *
                            "matrix of a batch"))
    eltype(bias) in (eltype(C), Float32) ||
        throw(ArgumentError("bias has $(eltype(bias)) elements: with a $(eltype(C)) C it must have " *
                            "$(join(unique((eltype(C), Float32)), " or ")) elements"))
    len, rows, cols = length(bias), size(C, 1), size(C, 2)
    len in (rows, cols) ||
        throw(ArgumentError("bias has $len values, but C is $(shape(C)): a bias has $rows values (one " *
                            "per row) or $cols (one per column)"))
    along = if rows == cols
        bias_dims === nothing &&
            throw(ArgumentError("C is $(shape(C)), so a bias of $len values may run along either " *
                                "dimension: say which with bias_dims=1 (one per row) or bias_dims=2 " *
                                "(one per column)"))
        bias_dims
    else
        fits = len == rows ? 1 : 2
        bias_dims === nothing || bias_dims == fits ||
            throw(ArgumentError("bias_dims=$bias_dims, but bias has $len values, one per " *
                                "$(fits == 1 ? "row" : "column") of C, which is $(shape(C))"))
        fits
    end
    return along == 1 ? ASYNCGEMM_BIAS_PER_ROW : ASYNCGEMM_BIAS_PER_COL, act
end

# Whether A and B are 8-bit, and the asyncgemm_scale_t of each scale, judged from element types and
# sizes alone, so that, as with epilogue, a wrong combination is refused before anything is asked of
# the GPU (host arrays included): A and B are both 8-bit (of one format or the two) or neither, C is
# not 8-bit, and a scale is given only for 8-bit inputs, as one Float32 (ASYNCGEMM_SCALE_TENSOR), as block scales of a size
# that says which (block_scale_mode), or as MX scales, UInt8 of the length mx_scale_mode expects, for
# A and B both (ASYNCGEMM_SCALE_MX_32). Returns (quantized, scale_a's mode, scale_b's mode).
function quantization(C::AbstractArray, A::AbstractArray, B::AbstractArray, scale_a, scale_b)
    eltype(C) <: FP8 &&
        throw(ArgumentError("C has $(eltype(C)) elements: 8-bit floats are inputs only, and C takes " *
                            "Float16, BFloat16 or Float32"))
    quantized = eltype(A) <: FP8 || eltype(B) <: FP8
    quantized && !(eltype(A) <: FP8 && eltype(B) <: FP8) &&
        throw(ArgumentError("A has $(eltype(A)) elements and B $(eltype(B)): 8-bit A and B are both " *
                            "Float8_E4M3FN or Float8_E5M2"))
    mode_a = scale_mode(scale_a, "scale_a", :A, quantized, C, A, B)
    mode_b = scale_mode(scale_b, "scale_b", :B, quantized, C, A, B)
    # The library scales both operands with MX scales or neither (include/asyncgemm.h, scale_mode_a).
    is_mx_scale(mode_a) == is_mx_scale(mode_b) ||
        throw(ArgumentError("scale_a holds $(scale_kind(mode_a)) and scale_b $(scale_kind(mode_b)): MX " *
                            "scales (UInt8) are given for A and B both, never for one alone"))
    return quantized, mode_a, mode_b
end

# What a scale of the mode is, in words, for the errors.
scale_kind(mode::asyncgemm_scale_t) =
    mode == ASYNCGEMM_SCALE_NONE ? "nothing" :
    mode == ASYNCGEMM_SCALE_TENSOR ? "a tensor scale" :
    mode == ASYNCGEMM_SCALE_BLOCK_1x128 ? "1×128 block scales" :
    mode == ASYNCGEMM_SCALE_BLOCK_128x128 ? "128×128 block scales" : "MX scales"

# The asyncgemm_scale_t of the scale `name` of `operand` (:A or :B), or an ArgumentError.
function scale_mode(scale, name::AbstractString, operand::Symbol, quantized::Bool, C, A, B)
    scale === nothing && return ASYNCGEMM_SCALE_NONE
    quantized ||
        throw(ArgumentError("$name is given, but A has $(eltype(A)) elements: scales dequantize 8-bit " *
                            "inputs (Float8_E4M3FN or Float8_E5M2)"))
    scale isa AbstractArray ||
        throw(ArgumentError("$name is a $(typeof(scale)): a scale is nothing, a one-element " *
                            "CuArray{Float32} (CuArray([s]) holds a number s), a CuMatrix{Float32} of " *
                            "block scales or a CuVector{UInt8} of MX scales, read on the GPU"))
    eltype(scale) == UInt8 && return mx_scale_mode(scale, name, operand, C, A, B)
    eltype(scale) == Float32 ||
        throw(ArgumentError("$name has $(eltype(scale)) elements: a scale is one Float32, block scales " *
                            "are Float32 too, and MX scales UInt8"))
    # One Float32 is a tensor scale, also where its size would fit block scales: that one block then
    # covers the whole matrix, and the two mean the same.
    length(scale) == 1 && return ASYNCGEMM_SCALE_TENSOR
    return block_scale_mode(scale, name, operand, C, A, B)
end

# The block mode a scale's size selects (include/asyncgemm.h, asyncgemm_scale_t), in Julia's
# column-major terms. With A (the Julia op(A)) M×K, B K×N and KB = cld(K, 128) blocks of K, the C
# API's scale[kb*X + x] (X: M for A, N for B) is element (x, kb) of an X×KB column-major matrix:
#   scale_a (M, KB): BLOCK_1x128, one per row of A;    (cld(M, 128), KB): BLOCK_128x128;
#   scale_b (N, KB): BLOCK_1x128, one per column of B; (cld(N, 128), KB): BLOCK_128x128.
# Where M (N) is 1 the two sizes coincide and mean the same: BLOCK_1x128. An operand that holds one
# matrix per batch (operand() gives it a batch stride where size(X, 3) > 1) has one such matrix of
# scales per matrix, consecutive: the batch is the third dimension; one that serves every batch has
# one for all (a matrix, or size 1 along the third dimension), as the C API's batched and broadcast
# operands do. Any other size is an ArgumentError naming the sizes that fit. Sizes that disagree
# among C, A and B are product_dims' DimensionMismatch, first.
function block_scale_mode(scale::AbstractArray, name::AbstractString, operand::Symbol, C, A, B)
    m, n, k, batch = product_dims(C, A, B)
    extent, matrices, dims = operand === :A ? (m, size(A, 3), (m, k)) : (n, size(B, 3), (k, n))
    kb = cld(k, 128)
    per_row, per_block = (extent, kb), (cld(extent, 128), kb)
    fits(sizes) = matrices > 1 ? size(scale) == (sizes..., matrices) : size(scale) in (sizes, (sizes..., 1))
    fits(per_row) && return ASYNCGEMM_SCALE_BLOCK_1x128
    fits(per_block) && return ASYNCGEMM_SCALE_BLOCK_128x128
    batched(sizes) = matrices > 1 ? (sizes..., matrices) : sizes
    whose = matrices > 1 ? "$operand's $matrices matrices, $(shape(dims)) each," :
            batch > 1 ? "$operand, $(shape(dims)) for every matrix of the batch (so one set of scales)," :
                        "$operand, $(shape(dims)),"
    throw(ArgumentError("$name has size $(size(scale)): a scale is one Float32, or the block scales of " *
                        "$whose in $kb block$(kb == 1 ? "" : "s") of 128 along K, of size " *
                        "$(batched(per_row)) (ASYNCGEMM_SCALE_BLOCK_1x128: one per " *
                        "$(operand === :A ? "row of A" : "column of B") and 128 elements of K) or " *
                        "$(batched(per_block)) (ASYNCGEMM_SCALE_BLOCK_128x128: one per 128×128 block)"))
end

# Whether a scale mode is one of the block modes (a Float32 array per block, not one per matrix).
is_block_scale(mode::asyncgemm_scale_t) = mode in (ASYNCGEMM_SCALE_BLOCK_1x128, ASYNCGEMM_SCALE_BLOCK_128x128)

# Whether a scale mode is MX (UInt8 exponents per row and 32 elements of K, in tiles: mx_scales).
is_mx_scale(mode::asyncgemm_scale_t) = mode == ASYNCGEMM_SCALE_MX_32

# MX scales (ASYNCGEMM_SCALE_MX_32, include/asyncgemm.h, asyncgemm_scale_t): bytes, one per row of A
# (column of B) and 32 elements of K, in tiles of 128 rows by 4 K blocks (mx_scales lays them out),
# so their shape says nothing and their length everything: mx_scale_bytes of the operand's extent
# (M for A, N for B) for each of its matrices. An operand that holds one matrix per batch has one such
# array per matrix, consecutive; one that serves every batch has one, as the C API's batched and
# broadcast operands do (operand() gives the first a batch stride, the second none). Any other length
# is an ArgumentError saying the one that fits. Sizes that disagree among C, A and B are
# product_dims' DimensionMismatch, first.
function mx_scale_mode(scale::AbstractArray, name::AbstractString, operand::Symbol, C, A, B)
    m, n, k, batch = product_dims(C, A, B)
    extent, matrices, dims = operand === :A ? (m, size(A, 3), (m, k)) : (n, size(B, 3), (k, n))
    bytes = mx_scale_bytes(extent, k)
    length(scale) == matrices * bytes && return ASYNCGEMM_SCALE_MX_32
    row, rows = operand === :A ? ("row of A", "rows of A") : ("column of B", "columns of B")
    whose = matrices > 1 ? "$operand's $matrices matrices, $(shape(dims)) each, are $(matrices * bytes) bytes, " *
                           "$bytes for each matrix" :
            batch > 1 ? "$operand, $(shape(dims)) for every matrix of the batch (so one set of scales), are " *
                        "$bytes bytes" :
                        "$operand, $(shape(dims)), are $bytes bytes"
    throw(ArgumentError("$name has $(length(scale)) UInt8 values, but the MX scales of $whose: " *
                        "$(cld(extent, 128))×$(cld(k, 128)) tiles of 512, each 128 $rows by 4 blocks of 32 " *
                        "along K (ASYNCGEMM_SCALE_MX_32, one byte per $row and 32 elements of K; mx_scales " *
                        "lays them out)"))
end

# Bytes of the MX scales of one matrix of `extent` rows of A (columns of B) and k elements of K:
# ceil(extent / 128) · ceil(k / 128) tiles of 512 (include/asyncgemm.h).
mx_scale_bytes(extent::Integer, k::Integer) = cld(extent, 128) * cld(k, 128) * 512

"""
    AsyncGemm.mx_scales(E) -> Vector{UInt8}

The MX scales of an operand of [`matmul!`](@ref) as its `scale_a` or `scale_b` takes them (once
copied to the GPU, `CuArray(mx_scales(E))`), from a plain X×KB matrix of exponents `E`: `E[x, j]`
is the scale `2^(E[x, j] - 127)` (UE8M0; 0xFF is NaN) of row `x` of `A` (for `scale_b`, column `x`
of `B`) in the `j`-th block of 32 elements of K, elements `32(j - 1) + 1` to `32j`. So for a product
`A·B` of M×K `A` and K×N `B`, `E` is M×cld(K, 32) for `scale_a` and N×cld(K, 32) for `scale_b`
(the last block may be partial); the exponent of a power-of-two scale `s` is `exponent(s) + 127`.

The bytes are laid out as cuBLASLt's VEC32_UE8M0 scales (include/asyncgemm.h): tiles of 128 rows
by 4 blocks of K, 512 bytes each; first the tiles of rows 1 to 128 in K order, then those of rows
129 to 256, and so on; and in a tile, with `x` and `j` counted from 0 within it, the byte of row `x`
and block `j` at offset `16(x % 32) + 4(x ÷ 32) + j`. That is `cld(X, 128) * cld(KB, 4) * 512`
bytes, those of the rows and blocks past `E`'s zero (the library needs the blocks of K that pad
the last tile not to be 0xFF).

A 3-d `E`, X×KB×count, gives the scales of `count` matrices one after another, as an operand that
holds one matrix per batch takes them.

    using AsyncGemm: matmul!, mx_scales
    Ea = rand(UInt8(124):UInt8(130), M, cld(K, 32))    # A[i, p] is scaled by 2^(Ea[i, cld(p, 32)] - 127)
    Eb = rand(UInt8(124):UInt8(130), N, cld(K, 32))    # B[p, j] by 2^(Eb[j, cld(p, 32)] - 127)
    matmul!(C, transpose(At), B; scale_a=CuArray(mx_scales(Ea)), scale_b=CuArray(mx_scales(Eb)))

It runs on the host, and needs no GPU.
"""
function mx_scales(E::AbstractMatrix{UInt8})
    extent, blocks = size(E)
    k_tiles = cld(blocks, 4)
    bytes = zeros(UInt8, cld(extent, 128) * k_tiles * 512)
    for (j, q) in enumerate(axes(E, 2)), (x, p) in enumerate(axes(E, 1))
        bytes[mx_scale_index(x, j, k_tiles)] = E[p, q]
    end
    return bytes
end

function mx_scales(E::AbstractArray{UInt8,3})
    extent, blocks, count = size(E)
    per_matrix = cld(extent, 128) * cld(blocks, 4) * 512
    bytes = Vector{UInt8}(undef, per_matrix * count)
    for (i, r) in enumerate(axes(E, 3))
        copyto!(bytes, (i - 1) * per_matrix + 1, mx_scales(view(E, :, :, r)), 1, per_matrix)
    end
    return bytes
end

# The index in one matrix's MX scales of the byte of row x and K block j (both counted from 1), where
# a row of tiles holds k_tiles tiles: the header's offset
#   tile · 512 + (x % 32) · 16 + ((x % 128) / 32) · 4 + j % 4   (x, j from 0)
# plus one.
function mx_scale_index(x::Integer, j::Integer, k_tiles::Integer)
    x0, j0 = x - 1, j - 1
    tile = div(x0, 128) * k_tiles + div(j0, 4)
    return tile * 512 + rem(x0, 32) * 16 + div(rem(x0, 128), 32) * 4 + rem(j0, 4) + 1
end

# Refuses a scale, one that quantization accepted as `mode`, that the library cannot read: outside
# GPU memory, block or MX scales that are not contiguous (the library reads them as one array), MX
# scales not 16-byte aligned (cp.async.bulk copies their tiles; the library would answer MISALIGNED),
# or in C's memory, which the call writes while it reads the scale.
function device_scale(scale::AbstractArray, name::AbstractString, C::AbstractArray,
                      mode::asyncgemm_scale_t=ASYNCGEMM_SCALE_TENSOR)
    block, mx = is_block_scale(mode), is_mx_scale(mode)
    if !(scale isa StridedCuArray)
        scale isa StridedArray &&
            throw(ArgumentError("$name is in host memory ($(typeof(scale))): copy it to the GPU with CuArray"))
        throw(ArgumentError("$name is a $(typeof(scale)): AsyncGemm takes " *
                            (mx ? "MX scales as a CuArray{UInt8} or a contiguous view of one" :
                             block ? "block scales as a CuArray{Float32} or a contiguous view of one" :
                                     "a one-element CuArray{Float32} or a view of one element of one")))
    end
    (block || mx) && !dense(scale) &&
        throw(ArgumentError("$name has strides $(strides(scale)) with size $(size(scale)): " *
                            "$(mx ? "MX" : "block") scales must be contiguous, as in a CuArray of that size " *
                            "(copy them first)"))
    if mx && !isempty(scale)  # empty ones are passed as none (scale_field), and have no address to check
        misalignment = GC.@preserve scale (reinterpret(UInt, device_address(scale)) % 16)
        iszero(misalignment) ||
            throw(ArgumentError("$name is not 16-byte aligned (its address modulo 16 is $misalignment): MX " *
                                "scales must be, as a CuArray is (a view must start a multiple of 16 bytes " *
                                "into one; copy them first)"))
    end
    Base.mightalias(C, scale) && throw(ArgumentError("$name must not share memory with C"))
    return
end

# Whether x's elements lie one after another in column-major order, as an Array's of its size do
# (a dimension of size 1 may have any stride).
function dense(x::AbstractArray)
    isempty(x) && return true
    expected = 1
    for d in 1:ndims(x)
        size(x, d) == 1 || stride(x, d) == expected || return false
        expected *= size(x, d)
    end
    return true
end

# Refuses a bias, one that epilogue accepted, that the library cannot read: outside GPU memory, not
# contiguous, or in C's memory, which the call writes while it reads the bias.
function device_bias(bias::AbstractVector, C::AbstractArray)
    if !(bias isa StridedCuArray)
        bias isa StridedArray &&
            throw(ArgumentError("bias is in host memory ($(typeof(bias))): copy it to the GPU with CuArray"))
        throw(ArgumentError("bias is a $(typeof(bias)): AsyncGemm takes a CuVector or a contiguous view of one"))
    end
    stride(bias, 1) == 1 ||
        throw(ArgumentError("bias has stride $(stride(bias, 1)): AsyncGemm needs contiguous values (copy it first)"))
    Base.mightalias(C, bias) && throw(ArgumentError("bias must not share memory with C"))
    return
end

# asyncgemm_matmul came with version 0.2 of the C API, 8-bit inputs are multiplied from 0.2.1 on
# (0.2.0 named them and answered NOT_SUPPORTED), their block scales applied from 0.2.2 on, and their
# MX scales from 0.2.3 on (0.2.2 named ASYNCGEMM_SCALE_MX_32 and answered NOT_SUPPORTED). A library
# of the same major version but older loads, and only this call would find the function missing or
# the inputs refused. `what` names what needs it, `since` the version that serves it.
function require_matmul(what::AbstractString, since::VersionNumber)
    v = library_version()
    v >= since || error("$what needs libasyncgemm $since or later, and $libasyncgemm is $v")
    return
end

# The address ccall would pass for x as a CuPtr{Cvoid} argument, through CUDA.jl's conversion
# (which also orders x's memory on the task's stream). Valid while x is preserved.
device_address(x) = Base.unsafe_convert(CuPtr{Cvoid}, Base.cconvert(CuPtr{Cvoid}, x))

# The descriptor of matmul!'s fused or 8-bit call: the arguments asyncgemm_gemm_strided_batched
# would take, with the bias, the activation and the scales in the modes quantization found for them.
# Fields matmul! has no value for (struct_size; the bias and the scales where there are none) keep
# asyncgemm_matmul_desc_init's; the struct is immutable, so it is built anew around them. Call with
# the arrays preserved.
function matmul_desc(a::Operand, b::Operand, c::Operand, c_in, m, n, k, batch, α, β,
                     bias_mode::asyncgemm_bias_t, bias, act::asyncgemm_activation_t,
                     scale_mode_a::asyncgemm_scale_t, scale_a, scale_mode_b::asyncgemm_scale_t, scale_b,
                     algo::asyncgemm_algo_t)
    initialized = Ref{asyncgemm_matmul_desc_t}()
    asyncgemm_matmul_desc_init(initialized)
    defaults = initialized[]
    bias_address, bias_dtype = bias === nothing ? (CU_NULL, defaults.type_bias) :
                                                  (device_address(bias), dtype(eltype(bias)))
    # MX scales go in pairs: where one operand's are empty (K = 0, no rows of A or no columns of B),
    # there is no product, and neither is passed.
    if is_mx_scale(scale_mode_a) && (isempty(scale_a) || isempty(scale_b))
        scale_mode_a = scale_mode_b = ASYNCGEMM_SCALE_NONE
    end
    mode_a, scale_address_a = scale_field(scale_mode_a, scale_a, defaults.scale_mode_a, defaults.scale_a)
    mode_b, scale_address_b = scale_field(scale_mode_b, scale_b, defaults.scale_mode_b, defaults.scale_b)
    return asyncgemm_matmul_desc_t(
        defaults.struct_size, ASYNCGEMM_ORDER_COL, a.op, b.op, m, n, k, batch, Float32(α), Float32(β),
        device_address(a.data), a.dtype, a.ld, a.stride,
        device_address(b.data), b.dtype, b.ld, b.stride,
        device_address(c_in), c.dtype, c.ld, c.stride,
        device_address(c.data), c.dtype, c.ld, c.stride,
        # stride_bias 0: one bias for every matrix of a batch.
        bias_mode, bias_address, bias_dtype, 0,
        act,
        mode_a, mode_b, scale_address_a, scale_address_b,
        algo)
end

# A scale's (mode, address) in the descriptor. No scale keeps the defaults (ASYNCGEMM_SCALE_NONE and
# no address); so do empty block or MX scales (K = 0, or no rows of A or columns of B), of which the
# library reads none: an empty CuArray may have no address, which the library refuses for a block
# or MX mode, and with nothing to scale NONE computes the same.
function scale_field(mode::asyncgemm_scale_t, scale, default_mode::asyncgemm_scale_t, default_address)
    (mode == ASYNCGEMM_SCALE_NONE || isempty(scale)) && return default_mode, default_address
    return mode, device_address(scale)
end
