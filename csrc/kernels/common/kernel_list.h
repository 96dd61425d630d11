// The words of the families' kernel lists (csrc/kernels/<family>/<family>_kernels.def) as C++.
//
// A list line is a macro call whose arguments are tokens: an input type (f16, bf16, tf32, f32), a
// configuration's shape as its kernels are named (128x256x64_s3, a pp-number), the configuration's
// name in the family's traits, and operand majors (k, m, n).  The kernels paste them into their
// extern "C" names, the planner into the same names as strings and into its table: one list, read
// twice, cannot disagree with itself.  Plain C++ (host and device).
#pragma once

#include <stddef.h>

#include "kernels/common/params.h"

// The DType of an input type word.
#define ASYNCGEMM_DTYPE_f16 ::asyncgemm::kF16
#define ASYNCGEMM_DTYPE_bf16 ::asyncgemm::kBF16
#define ASYNCGEMM_DTYPE_tf32 ::asyncgemm::kF32
#define ASYNCGEMM_DTYPE_f32 ::asyncgemm::kF32
// Whether a major word is K-major: k is, m (of A) and n (of B) are not.
#define ASYNCGEMM_K_MAJOR_k true
#define ASYNCGEMM_K_MAJOR_m false
#define ASYNCGEMM_K_MAJOR_n false

namespace asyncgemm {

// True when the decimal numbers in `name`, in order, are `expected` ("128x256x64_s3" holds 128, 256,
// 64, 3): the kernels check that a shape word says what its configuration is.
template <size_t N>
constexpr bool names_numbers(const char *name, const int (&expected)[N]) {
    size_t found = 0;
    for (const char *p = name; *p != '\0';) {
        if (*p < '0' || *p > '9') {
            ++p;
            continue;
        }
        int value = 0;
        for (; *p >= '0' && *p <= '9'; ++p) value = value * 10 + (*p - '0');
        if (found == N || value != expected[found]) return false;
        ++found;
    }
    return found == N;
}

}  // namespace asyncgemm
