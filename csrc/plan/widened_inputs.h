// 8-bit float inputs (e4m3, e5m2) that the Hopper family's 8-bit kernels cannot read as they lie: a
// GPU other than Hopper, an MN-major operand (wgmma's 8-bit kinds have no transpose), rows TMA cannot
// describe, or another algorithm named.  A and B are widened into f16 copies in the handle's
// workspace (exact: f16 holds every e4m3 and e5m2 value) and the 16-bit kernels multiply the copies,
// reading the tensor scales themselves (kernels/common/input_scale.cuh).  Correct everywhere, and as
// fast as the 16-bit product plus a pass over A and B, not as fast as the 8-bit kernels.
#pragma once

#include <functional>

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// Widens A and B of `params` (8-bit, with a product to compute) on `stream` and calls
// multiply(q) with q the problem on the copies (type_ab f16, every other field as in `params`),
// which must launch unsplit: the workspace holds the copies.  Without a product, multiply(q) runs
// at once on no copies.  Returns false, launching nothing, where the workspace cannot hold the
// copies (a stream being captured without a workspace of the caller's, a lent workspace too small,
// device memory exhausted, sizes beyond 64 bits); a failure once the copies are queued throws.
bool launch_on_widened(const Handle &handle, const GemmParams &params, void *stream,
                       const std::function<void(const GemmParams &)> &multiply);

}  // namespace asyncgemm::plan
