// The fused epilogue of one element of D (asyncgemm_matmul's bias and activation), for the families
// whose epilogues know each element's row and column: D = act(alpha * acc + beta * C + bias), in
// fp32, with epilogue_math.h's activations, rounded once by the caller.
#pragma once

#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/params.h"

namespace asyncgemm {

// epilogue_value out of line: the families call it from unrolled stores, where inlining the
// activations' exp and erfc at every element would multiply their code (and compile time) for a call
// that only fused epilogues make.
static __device__ __noinline__ float fused_epilogue_value(float v, float bias, int32_t activation) {
    return epilogue_value(v, bias, static_cast<Activation>(activation));
}

// One batch's bias and the activation.  Elements are named by two indices, (row, column) of D for
// the GEMM families; the bias runs along the first (per_first) or the second.
template <typename TOut>
class FusedEpilogue {
public:
    __device__ __forceinline__ FusedEpilogue(const void *bias, int64_t stride_bias, int32_t type_bias, bool per_first,
                                             int32_t activation, int64_t batch)
        : bias_(bias == nullptr ? nullptr
                                : static_cast<const char *>(bias) +
                                      batch * stride_bias * (type_bias == kF32 ? 4 : static_cast<int64_t>(sizeof(TOut)))),
          per_first_(per_first), bias_f32_(type_bias == kF32), activation_(static_cast<Activation>(activation)) {}

    // The epilogue of a canonical GEMM's D (params.h): the bias along its rows or its columns.
    __device__ __forceinline__ FusedEpilogue(const GemmParams &p, int64_t batch)
        : FusedEpilogue(p.bias, p.stride_bias, p.type_bias, p.bias_per_row != 0, p.activation, batch) {}

    // Nothing to add or apply: the caller may take its plain path.
    __device__ __forceinline__ bool none() const { return bias_ == nullptr && activation_ == Activation::None; }

    // D's value at (first, second) from v = alpha * acc + beta * C, the activation called.
    __device__ __forceinline__ float operator()(float v, int64_t first, int64_t second) const {
        if (none()) return v;
        return fused_epilogue_value(v, bias_at(first, second), static_cast<int32_t>(activation_));
    }

    // The same with the activation inlined, for a caller that makes one call site of it.
    __device__ __forceinline__ float apply_inline(float v, int64_t first, int64_t second) const {
        return epilogue_value(v, bias_at(first, second), activation_);
    }

    // The pieces, for a caller that hoists the bias of a fixed index out of its loop.
    __device__ __forceinline__ bool bias_per_first() const { return per_first_; }
    __device__ __forceinline__ Activation activation() const { return activation_; }
    // Element i of the bias, 0 where there is none.
    __device__ __forceinline__ float bias_value(int64_t i) const {
        if (bias_ == nullptr) return 0.f;
        return bias_f32_ ? __ldg(reinterpret_cast<const float *>(bias_) + i)
                         : to_float(reinterpret_cast<const TOut *>(bias_)[i]);
    }

private:
    __device__ __forceinline__ float bias_at(int64_t first, int64_t second) const {
        return bias_value(per_first_ ? first : second);
    }

    const char *bias_;
    bool per_first_, bias_f32_;
    Activation activation_;
};

}  // namespace asyncgemm
