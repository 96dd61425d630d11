// A canonical GEMM problem for planner tests: tight leading dimensions, alpha 1, beta 0, one batch,
// every matrix at one 256-byte aligned address (planning never dereferences them).
#pragma once

#include <stdint.h>

#include "kernels/common/params.h"

namespace asyncgemm::test {

inline GemmParams canonical_problem(int64_t m, int64_t n, int64_t k, int32_t type_ab, int32_t type_cd, bool a_k_major,
                                    bool b_k_major) {
    GemmParams p{};
    p.m = m;
    p.n = n;
    p.k = k;
    p.type_ab = p.type_b = type_ab;
    p.type_cd = type_cd;
    p.a_k_major = a_k_major;
    p.b_k_major = b_k_major;
    p.lda = a_k_major ? k : m;
    p.ldb = b_k_major ? k : n;
    p.ldc = p.ldd = n;
    p.batch_count = 1;
    p.alpha = 1.f;
    alignas(256) static unsigned char storage[256];
    p.a = p.b = p.c = p.d = storage;
    return p;
}

}  // namespace asyncgemm::test
