# The column-major mapping, done here and nowhere else: how the C API, called with
# ASYNCGEMM_ORDER_COL, sees a Julia array or a transpose of one.

"""
A matrix, or a batch of matrices, as the C API takes it with `ASYNCGEMM_ORDER_COL`.
"""
struct Operand{A<:AbstractArray}
    data::A                   # the column-major array whose memory is read or written
    dtype::asyncgemm_dtype_t
    op::asyncgemm_op_t        # ASYNCGEMM_OP_T: the operand is the transpose of the matrices in `data`
    ld::Int64                 # elements between consecutive columns of `data`
    stride::Int64             # elements between consecutive matrices of a batch; 0 for one matrix
end

# The element types the C API names, and their asyncgemm_dtype_t: the one place the package maps
# a Julia element type to the library's. Every matrix may hold an Element; A and B of matmul! may
# hold an FP8 instead (both, the same one or one of each), the OCP FP8 formats that Hopper's tensor
# cores read.
const Element = Union{Float16,BFloat16,Float32}
const FP8 = Union{Float8_E4M3FN,Float8_E5M2}

dtype(::Type{Float32}) = ASYNCGEMM_R_32F
dtype(::Type{Float16}) = ASYNCGEMM_R_16F
dtype(::Type{BFloat16}) = ASYNCGEMM_R_16BF
dtype(::Type{Float8_E4M3FN}) = ASYNCGEMM_R_8F_E4M3
dtype(::Type{Float8_E5M2}) = ASYNCGEMM_R_8F_E5M2

flip(op::asyncgemm_op_t) = op == ASYNCGEMM_OP_N ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N

transposed(x::Operand) = Operand(x.data, x.dtype, flip(x.op), x.ld, x.stride)

"""
    operand(x, name) -> Operand

`x` as the library sees it. A matrix or 3-d batch whose columns are contiguous (unit stride
along the first dimension) passes its memory as it is, its column stride as the leading
dimension and its third stride as the batch stride. `Transpose` and `Adjoint` of real matrices,
and `PermutedDimsArray`s that swap the first two dimensions, become `ASYNCGEMM_OP_T` on their parent.
The elements are an `Element` or an `FP8` (which of them a role takes, its caller checks).
Anything else throws an `ArgumentError` naming `name`.
"""
function operand(x::StridedArray, name::AbstractString)
    ndims(x) in (2, 3) ||
        throw(ArgumentError("$name must be a matrix or a 3-d batch of matrices, not a $(ndims(x))-d array"))
    eltype(x) <: Union{Element,FP8} ||
        throw(ArgumentError("$name has $(eltype(x)) elements: AsyncGemm takes Float16, BFloat16 and Float32, " *
                            "and Float8_E4M3FN and Float8_E5M2 as the inputs of matmul!"))
    stride(x, 1) == 1 ||
        throw(ArgumentError("$name has stride $(stride(x, 1)) along its first dimension: AsyncGemm needs " *
                            "contiguous columns (copy it first)"))
    # The library wants ld >= max(1, rows) even where it reads a single column, whose column
    # stride may be anything.
    ld = size(x, 2) > 1 ? max(stride(x, 2), 1) : max(size(x, 1), 1)
    batch_stride = size(x, 3) > 1 ? stride(x, 3) : 0
    return Operand(x, dtype(eltype(x)), ASYNCGEMM_OP_N, Int64(ld), Int64(batch_stride))
end

# Views that read their parent's matrices transposed.
const TransposedView = Union{Transpose,Adjoint{<:Real},PermutedDimsArray{<:Any,2,(2, 1)},
                             PermutedDimsArray{<:Any,3,(2, 1, 3)}}

operand(x::TransposedView, name::AbstractString) = transposed(operand(parent(x), name))

operand(x::Adjoint{<:Complex}, name::AbstractString) =
    throw(ArgumentError("$name is the adjoint of a $(eltype(x)) matrix, which conjugates: AsyncGemm " *
                        "multiplies real matrices"))

operand(x::AbstractArray, name::AbstractString) =
    throw(ArgumentError("$name is a $(typeof(x)): AsyncGemm takes CuArrays, views of them with contiguous " *
                        "columns, their transpose or adjoint, and PermutedDimsArray(x, (2, 1, 3)) of batches"))

# An operand in GPU memory.
function device_operand(x::AbstractArray, name::AbstractString)
    mapped = operand(x, name)
    mapped.data isa StridedCuArray ||
        throw(ArgumentError("$name is in host memory ($(typeof(mapped.data))): copy it to the GPU with CuArray"))
    return mapped
end
