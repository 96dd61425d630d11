// Compile-time checks that a family's extern "C" entry points match its kernel table.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/common/params.h"

namespace asyncgemm {

// The DType of an element type.
template <typename T>
constexpr DType kDTypeOf = kF32;
template <>
constexpr DType kDTypeOf<__half> = kF16;
template <>
constexpr DType kDTypeOf<__nv_bfloat16> = kBF16;

constexpr bool same_name(const char *a, const char *b) {
    while (*a != '\0' && *a == *b) ++a, ++b;
    return *a == *b;
}

}  // namespace asyncgemm
