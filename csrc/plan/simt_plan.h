// ALGO_SIMT: launches the fp32-FMA GEMM family (csrc/kernels/simt) for a canonical problem.
#pragma once

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// Completes `params` (vectors, tiles, raster) and launches on `stream`.  Throws NOT_SUPPORTED when
// the problem is too large for one launch.
void launch_simt(const Handle &handle, GemmParams params, void *stream);

}  // namespace asyncgemm::plan
