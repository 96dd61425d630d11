// The skinny family (csrc/kernels/skinny): GEMMs with a side of at most 16 columns, bound by reading
// the other operand once, which ALGO_AUTO gives it wherever it serves them.
#pragma once

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the family serves the canonical problem (skinny_launch.h, skinny_view) and its kernel
// loaded for the handle's device.
bool skinny_serves(const Handle &handle, const GemmParams &params);

// Launches a problem skinny_serves on `stream`, K cut into at most `splits` ranges (0: the family's
// choice for the device).  A split launch takes its partials from the workspace (the caller's, or
// the handle's outside stream capture); without one it runs unsplit (runtime/workspace.h).
void launch_skinny(const Handle &handle, const GemmParams &params, int splits, void *stream);

}  // namespace asyncgemm::plan
