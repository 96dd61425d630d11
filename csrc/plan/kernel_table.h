// The table of every precompiled kernel, as the runtime loads it: each family's planner owns a
// contiguous block (its own KernelSpec array), and the table is their concatenation in Family order.
#pragma once

#include <stddef.h>

#include "runtime/kernel_table.h"

namespace asyncgemm::plan {

// Each family's planner defines its block (csrc/plan/<family>_plan.cpp).
struct FamilyKernels {
    const KernelSpec *kernels;
    size_t count;
};

// A family's specs from its kernel table (csrc/kernels/<family>/<family>_config.h), whose entries
// have a name and a dynamic_smem, at compile time.
template <size_t N>
struct FamilySpecs {
    KernelSpec specs[N];
    constexpr FamilyKernels view() const { return {specs, N}; }
};
template <size_t N, typename KernelInfo>
constexpr FamilySpecs<N> family_specs(Family family, const KernelInfo (&kernels)[N]) {
    FamilySpecs<N> out{};
    for (size_t i = 0; i < N; ++i) out.specs[i] = {family, kernels[i].name, kernels[i].dynamic_smem};
    return out;
}
FamilyKernels copy_kernels();
FamilyKernels simt_kernels();
FamilyKernels sm80_kernels();
FamilyKernels sm90_kernels();
FamilyKernels sm100_kernels();

// All kernels; the handle's kernel index of a family's i-th kernel is family_base(family) + i.
const KernelTable &kernel_table();
size_t family_base(Family family);

}  // namespace asyncgemm::plan
