// The scratch of a split launch (plan/split_k.h): the partials and tile counters that a workspace
// lease gives the families whose kernels take GemmParams (SIMT and the sm80 family).
#pragma once

#include <stdint.h>

#include <functional>

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// Calls launch(p) with p = `params` (split into params.splits > 1 ranges over `tiles` tiles of
// tile_m x tile_n, one reducing block each) given the partials and tile counters of a lease of the
// handle's workspace: the caller's lent one, or the handle's own outside a stream capture.  Returns
// false, launching nothing, where neither can be had (a captured call without a workspace of the
// caller's, one too small, or no device memory for the handle's own).
bool launch_with_split_scratch(const Handle &handle, const GemmParams &params, int64_t tiles, int tile_m, int tile_n,
                               void *stream, const std::function<void(const GemmParams &)> &launch);

}  // namespace asyncgemm::plan
