// The words of the families' kernel lists (csrc/kernels/<family>/<family>_kernels.def) as C++.
//
// A list line is a macro call whose arguments are tokens: an input type (f16, bf16, tf32, f32, e4m3,
// e5m2, f8), a configuration's shape as its kernels are named (128x256x64_s3, a pp-number), the
// configuration's name in the family's traits, and the operand majors it reads (a Majors word, or k,
// m, n for one operand).  The kernels paste them into their extern "C" names, the planner into the same names as
// strings and into its table: one list, read twice, cannot disagree with itself.  Plain C++ (host and device).
#pragma once

#include <stddef.h>

#include "kernels/common/host_device.h"
#include "kernels/common/params.h"

// The DType of an input type word.
#define ASYNCGEMM_DTYPE_f16 ::asyncgemm::kF16
#define ASYNCGEMM_DTYPE_bf16 ::asyncgemm::kBF16
#define ASYNCGEMM_DTYPE_tf32 ::asyncgemm::kF32
#define ASYNCGEMM_DTYPE_f32 ::asyncgemm::kF32
#define ASYNCGEMM_DTYPE_e4m3 ::asyncgemm::kE4M3
#define ASYNCGEMM_DTYPE_e5m2 ::asyncgemm::kE5M2
// Either 8-bit format, read at run time (element_type.cuh, Fp8Bits): listed as e4m3, and found for
// both (listed_dtype).
#define ASYNCGEMM_DTYPE_f8 ::asyncgemm::kE4M3
// Whether a one-operand major word is K-major: k is, m (of A) and n (of B) are not.
#define ASYNCGEMM_K_MAJOR_k true
#define ASYNCGEMM_K_MAJOR_m false
#define ASYNCGEMM_K_MAJOR_n false
// The Majors of a majors word.
#define ASYNCGEMM_MAJORS_kk ::asyncgemm::Majors::KK
#define ASYNCGEMM_MAJORS_kn ::asyncgemm::Majors::KN
#define ASYNCGEMM_MAJORS_mk ::asyncgemm::Majors::MK
#define ASYNCGEMM_MAJORS_mn ::asyncgemm::Majors::MN
#define ASYNCGEMM_MAJORS_any ::asyncgemm::Majors::Any

namespace asyncgemm {

// The operand majors a kernel reads, as its majors word names them: kk, kn, mk and mn one pair (A's
// letter first; k K-major, m or n MN-major), any every pair, read from the launch's parameters.
enum class Majors : unsigned char { KK, KN, MK, MN, Any };

// The DType a kernel list gives the kernels of inputs of type_ab: f8's for either 8-bit format (the
// lists of SIMT and SM90 have f8 kernels alone; SM100's e4m3 and e5m2 ones are found by their own).
ASYNCGEMM_HOST_DEVICE constexpr int32_t listed_dtype(int32_t type_ab) {
    return is_eight_bit(type_ab) ? ASYNCGEMM_DTYPE_f8 : type_ab;
}

// A's and B's majors of a kernel that reads one pair (not Any: the kernel macros of the families
// that take one pair assert it).
ASYNCGEMM_HOST_DEVICE constexpr bool a_k_major(Majors m) { return m == Majors::KK || m == Majors::KN; }
ASYNCGEMM_HOST_DEVICE constexpr bool b_k_major(Majors m) { return m == Majors::KK || m == Majors::MK; }

// Whether a kernel reading `kernel` serves operands of these majors.
ASYNCGEMM_HOST_DEVICE constexpr bool serves_majors(Majors kernel, bool a_k, bool b_k) {
    return kernel == Majors::Any || (a_k_major(kernel) == a_k && b_k_major(kernel) == b_k);
}

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
