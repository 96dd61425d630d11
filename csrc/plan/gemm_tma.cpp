#include "plan/gemm_tma.h"

#include "kernels/common/block_scale.h"
#include "kernels/common/mx_scale.h"
#include "kernels/common/smem_descriptor.h"
#include "plan/gemm_args.h"
#include "plan/tensor_map.h"

namespace asyncgemm::plan {
namespace {

// One matrix's map: inner x outer elements of `elem` bytes with leading dimension ld.
TensorMap3d matrix_map(int64_t inner, int64_t outer, int64_t ld, int64_t batch_stride, int64_t batches, size_t elem,
                       uint32_t box_inner, uint32_t box_outer) {
    TensorMap3d map{};
    map.dims[0] = static_cast<cuuint64_t>(inner);
    map.dims[1] = static_cast<cuuint64_t>(outer);
    map.dims[2] = static_cast<cuuint64_t>(batches);
    map.strides[0] = static_cast<cuuint64_t>(ld) * elem;
    // A single batch still needs a valid stride: one whole matrix.
    map.strides[1] = batches > 1 ? static_cast<cuuint64_t>(batch_stride) * elem : map.strides[0] * map.dims[1];
    map.box[0] = box_inner;
    map.box[1] = box_outer;
    map.box[2] = 1;
    return map;
}

TensorMap3d operand_map(const GemmParams &p, bool k_major, int64_t rows_extent, int64_t ld, int64_t batch_stride,
                        uint32_t rows) {
    const int64_t batches = batched(p, batch_stride) ? p.batch_count : 1;
    const size_t elem = dtype_size(p.type_ab);
    const auto row = static_cast<uint32_t>(row_elements(static_cast<uint32_t>(elem)));  // K per stage, too
    return k_major ? matrix_map(p.k, rows_extent, ld, batch_stride, batches, elem, row, rows)
                   : matrix_map(rows_extent, p.k, ld, batch_stride, batches, elem, row, row);
}

}  // namespace

bool batched(const GemmParams &p, int64_t batch_stride) { return p.batch_count > 1 && batch_stride != 0; }

GemmParams batch_range(const GemmParams &p, int64_t first, int64_t count) {
    GemmParams range = p;
    const auto advance = [&](const void *base, int64_t stride, int32_t dtype) -> const void * {
        if (base == nullptr || !batched(p, stride)) return base;
        return static_cast<const char *>(base) + first * stride * static_cast<int64_t>(dtype_size(dtype));
    };
    range.a = advance(p.a, p.stride_a, p.type_ab);
    range.b = advance(p.b, p.stride_b, p.type_ab);
    range.c = advance(p.c, p.stride_c, p.type_cd);
    range.d = const_cast<void *>(advance(p.d, p.stride_d, p.type_cd));
    if (p.bias != nullptr)
        range.bias = static_cast<const char *>(p.bias) + first * p.stride_bias * static_cast<int64_t>(dtype_size(p.type_bias));
    // An operand's block scales go with its batches (kernels/common/block_scale.h).
    if (p.block_scale_a != nullptr && batched(p, p.stride_a))
        range.block_scale_a = p.block_scale_a + first * block_scale_count(p.m, p.k, p.block_rows_a);
    if (p.block_scale_b != nullptr && batched(p, p.stride_b))
        range.block_scale_b = p.block_scale_b + first * block_scale_count(p.n, p.k, p.block_cols_b);
    if (has_mx_scales(p) && batched(p, p.stride_a)) range.mx_scale_a = p.mx_scale_a + first * mx_scale_bytes(p.m, p.k);
    if (has_mx_scales(p) && batched(p, p.stride_b)) range.mx_scale_b = p.mx_scale_b + first * mx_scale_bytes(p.n, p.k);
    range.batch_count = count;
    return range;
}

TensorMap3d operand_a_map(const GemmParams &p, uint32_t rows) {
    return operand_map(p, p.a_k_major != 0, p.m, p.lda, p.stride_a, rows);
}

TensorMap3d operand_b_map(const GemmParams &p, uint32_t rows) {
    return operand_map(p, p.b_k_major != 0, p.n, p.ldb, p.stride_b, rows);
}

TensorMap3d output_map(const GemmParams &p, int64_t ld, int64_t batch_stride, uint32_t box_columns,
                       uint32_t box_rows) {
    const int64_t batches = batched(p, batch_stride) ? p.batch_count : 1;
    return matrix_map(p.n, p.m, ld, batch_stride, batches, dtype_size(p.type_cd), box_columns, box_rows);
}

void encode_swizzled(CUtensorMap &out, const TensorMap3d &map, const void *base, int32_t dtype) {
    encode_tensor_map(out, dtype, 3, base, map.dims, map.strides, map.box, CU_TENSOR_MAP_SWIZZLE_128B);
}

std::string tma_obstacle(const GemmParams &p, bool with_c, bool with_d) {
    const size_t ab = dtype_size(p.type_ab);
    const size_t cd = dtype_size(p.type_cd);
    const auto check_matrix = [&](const char *name, const void *ptr, int64_t ld, int64_t stride,
                                  size_t elem) -> std::string {
        if (reinterpret_cast<uintptr_t>(ptr) % 16 != 0) return std::string(name) + " is not 16-byte aligned";
        if (static_cast<uint64_t>(ld) * elem % 16 != 0)
            return std::string("the leading dimension of ") + name + " is not a multiple of 16 bytes";
        if (batched(p, stride) && static_cast<uint64_t>(stride) * elem % 16 != 0)
            return std::string("the batch stride of ") + name + " is not a multiple of 16 bytes";
        return {};
    };
    if (p.m > kMaxTmaCoordinate || p.n > kMaxTmaCoordinate || p.k > kMaxTmaCoordinate ||
        p.batch_count > kMaxTmaCoordinate)
        return "an extent exceeds TMA's 32-bit coordinates";
    std::string why;
    if (has_product(p)) {  // without one, A and B are neither read nor described
        why = check_matrix("A", p.a, p.lda, p.stride_a, ab);
        if (why.empty()) why = check_matrix("B", p.b, p.ldb, p.stride_b, ab);
    }
    if (why.empty() && with_c) why = check_matrix("C", p.c, p.ldc, p.stride_c, cd);
    if (why.empty() && with_d) why = check_matrix("D", p.d, p.ldd, p.stride_d, cd);
    return why;
}

}  // namespace asyncgemm::plan
