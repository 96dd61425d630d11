// The skinny family (csrc/kernels/skinny): GEMMs with a side of at most 16 columns, bound by reading
// the other operand once, which ALGO_AUTO gives it wherever it serves them.
#pragma once

#include <optional>

#include "kernels/common/params.h"
#include "kernels/skinny/skinny_params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// The family's view of the canonical problem (skinny_launch.h, skinny_view), when the family serves
// it and its kernel loaded for the handle's device.
std::optional<SkinnyParams> skinny_plan(const Handle &handle, const GemmParams &params);

// Launches a view skinny_plan returned (type_ab: the problem's input type) on `stream`, K cut into at
// most `splits` ranges (0: the family's choice for the device).  A split launch takes its partials
// from the workspace (the caller's, or the handle's outside stream capture); without one it runs
// unsplit (runtime/workspace.h).
void launch_skinny(const Handle &handle, const SkinnyParams &view, int32_t type_ab, int splits, void *stream);

}  // namespace asyncgemm::plan
