// The table of every kernel of the families' lists, as the runtime loads it: each family's kernels (its list,
// csrc/kernels/<family>/<family>_kernels.def, read by csrc/plan/<family>_kernels.h) as a contiguous
// block, the blocks in Family order.
#pragma once

#include <stddef.h>

#include "runtime/kernel_table.h"

namespace asyncgemm::plan {

// All kernels; the handle's kernel index of a family's i-th kernel is family_base(family) + i.
const KernelTable &kernel_table();
size_t family_base(Family family);

}  // namespace asyncgemm::plan
