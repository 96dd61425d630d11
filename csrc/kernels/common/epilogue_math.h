// The arithmetic of every family's epilogue: D = alpha * acc + beta * C in fp32, rounded once to D's
// type by the caller, under the BLAS rules.
//  - alpha == 0 means there is no product: the accumulators are not read.  They may hold a NaN from
//    A or B, or never have been written, and 0 * NaN would carry it into D.
//  - beta == 0 means there is no C: a family reads C only where beta != 0 and only then calls
//    plus_scaled_c, so a NaN in C (or in D's old contents, when C is D) never reaches D.
// Plain C++ (host and device), so tests/unit pins it against a double-precision reference.
#pragma once

#include <math.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

// The select picks the accumulator, not the product: written so, ptxas keeps the SIMT kernels within
// their 128 registers on sm_90, where selecting the product spilled 16 bytes.
ASYNCGEMM_HOST_DEVICE inline float scaled_product(float alpha, float acc) { return alpha * (alpha != 0.f ? acc : 0.f); }

// beta * c + product as one fused multiply-add (one rounding), for beta != 0.
ASYNCGEMM_HOST_DEVICE inline float plus_scaled_c(float product, float beta, float c) { return fmaf(beta, c, product); }

}  // namespace asyncgemm
