#include "plan/tensor_map.h"

#include "driver/driver.h"
#include "driver/errors.h"
#include "kernels/common/params.h"

namespace asyncgemm::plan {
namespace {

CUtensorMapDataType tma_data_type(int32_t dtype) {
    switch (dtype) {
    case kF16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case kBF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case kE4M3:
    case kE5M2: return CU_TENSOR_MAP_DATA_TYPE_UINT8;  // TMA moves bytes; only wgmma reads them as floats
    default: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    }
}

}  // namespace

CUtensorMapL2promotion l2_promotion(const void *base, unsigned rank, const cuuint64_t *strides) {
    constexpr uint64_t kLine = 128;
    bool on_lines = reinterpret_cast<uintptr_t>(base) % kLine == 0;
    for (unsigned d = 0; d + 1 < rank; ++d) on_lines = on_lines && strides[d] % kLine == 0;
    return on_lines ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

void encode_tensor_map(CUtensorMap &out, int32_t dtype, unsigned rank, const void *base, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, CUtensorMapSwizzle swizzle) {
    const cuuint32_t element_strides[5] = {1, 1, 1, 1, 1};  // every element of a box, in each dimension
    check(driver().cuTensorMapEncodeTiled(&out, tma_data_type(dtype), rank, const_cast<void *>(base), dims, strides,
                                          box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                          l2_promotion(base, rank, strides), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "cuTensorMapEncodeTiled");
}

}  // namespace asyncgemm::plan
