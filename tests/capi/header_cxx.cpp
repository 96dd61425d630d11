// The public header compiles as C++ (with the same warnings as errors as the library) and gives C++
// the same ABI: C linkage and the enum values of the C API.
#include "asyncgemm.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

static_assert(ASYNCGEMM_STATUS_SUCCESS == 0 && ASYNCGEMM_STATUS_INTERNAL_ERROR == 9, "status values are ABI");
static_assert(ASYNCGEMM_R_32F == 0 && ASYNCGEMM_R_16F == 1 && ASYNCGEMM_R_16BF == 2, "dtype values are ABI");
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
    const bool ok = major == ASYNCGEMM_VERSION_MAJOR && name && std::strcmp(name, "ASYNCGEMM_STATUS_NO_DRIVER") == 0 &&
                    asyncgemm_destroy(nullptr) == ASYNCGEMM_STATUS_SUCCESS;
    std::printf("asyncgemm.h as C++: %s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}
