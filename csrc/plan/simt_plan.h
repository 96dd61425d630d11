// ALGO_SIMT: launches the fp32-FMA GEMM family (csrc/kernels/simt) for a canonical problem.
#pragma once

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// Completes the problem's launch fields (vectors, tiles, raster, K cut into at most `splits` ranges,
// or where its tiles leave SMs idle for splits == 0) and launches on `stream`, a split launch with
// the handle's or the caller's workspace, unsplit where it can have neither (a captured call).
// Throws NOT_SUPPORTED when the problem is too large for one launch.
void launch_simt(const Handle &handle, const GemmParams &problem, int splits, void *stream);

}  // namespace asyncgemm::plan
