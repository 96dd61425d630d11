// The public header compiles as C++ (with the same warnings as errors as the library) and gives C++
// the same ABI: C linkage and the enum values of the C API.
#include "asyncgemm.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>

static_assert(ASYNCGEMM_STATUS_SUCCESS == 0 && ASYNCGEMM_STATUS_INTERNAL_ERROR == 9, "status values are ABI");
static_assert(ASYNCGEMM_R_32F == 0 && ASYNCGEMM_R_16F == 1 && ASYNCGEMM_R_16BF == 2 && ASYNCGEMM_R_8F_E4M3 == 3 &&
                  ASYNCGEMM_R_8F_E5M2 == 4,
              "dtype values are ABI");
static_assert(ASYNCGEMM_BIAS_NONE == 0 && ASYNCGEMM_BIAS_PER_ROW == 1 && ASYNCGEMM_BIAS_PER_COL == 2,
              "bias values are ABI");
static_assert(ASYNCGEMM_ACT_NONE == 0 && ASYNCGEMM_ACT_RELU == 1 && ASYNCGEMM_ACT_GELU_TANH == 2 &&
                  ASYNCGEMM_ACT_GELU_ERF == 3 && ASYNCGEMM_ACT_SILU == 4,
              "activation values are ABI");
static_assert(ASYNCGEMM_SCALE_NONE == 0 && ASYNCGEMM_SCALE_TENSOR == 1 && ASYNCGEMM_SCALE_BLOCK_1x128 == 2 &&
                  ASYNCGEMM_SCALE_BLOCK_128x128 == 3 && ASYNCGEMM_SCALE_MX_32 == 4,
              "scale values are ABI");
static_assert(offsetof(asyncgemm_matmul_desc_t, struct_size) == 0, "struct_size comes first");
static_assert(ASYNCGEMM_ORDER_ROW == 0 && ASYNCGEMM_ORDER_COL == 1, "order values are ABI");
static_assert(ASYNCGEMM_OP_N == 0 && ASYNCGEMM_OP_T == 1, "op values are ABI");
static_assert(ASYNCGEMM_ALGO_AUTO == 0 && ASYNCGEMM_ALGO_SM100_TCGEN05 == 5, "algorithm values are ABI");
static_assert(ASYNCGEMM_MATH_DEFAULT == 0 && ASYNCGEMM_MATH_TF32 == 1, "math mode values are ABI");
static_assert(ASYNCGEMM_COPY_AUTO == 0 && ASYNCGEMM_COPY_TMA == 4, "copy algorithm values are ABI");
static_assert(ASYNCGEMM_SMEM_AUTO == 0 && ASYNCGEMM_SMEM_SWIZZLED == 3, "layout values are ABI");
static_assert(std::is_same<decltype(&asyncgemm_last_error), const char *(*)()>::value, "prototype");

int main() {
    // Calls that need no driver: they link against the C symbols.
    int major = -1;
    asyncgemm_get_version(&major, nullptr, nullptr);
    const char *name = asyncgemm_status_string(ASYNCGEMM_STATUS_NO_DRIVER);
    asyncgemm_matmul_desc_t desc;
    asyncgemm_matmul_desc_init(&desc);
    const bool ok = major == ASYNCGEMM_VERSION_MAJOR && name && std::strcmp(name, "ASYNCGEMM_STATUS_NO_DRIVER") == 0 &&
                    asyncgemm_destroy(nullptr) == ASYNCGEMM_STATUS_SUCCESS && desc.struct_size == sizeof desc &&
                    asyncgemm_matmul(nullptr, &desc, nullptr) == ASYNCGEMM_STATUS_INVALID_VALUE;
    std::printf("asyncgemm.h as C++: %s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}
