#include "plan/kernel_table.h"

#include <array>
#include <vector>

#include "plan/copy_kernels.h"
#include "plan/simt_kernels.h"
#include "plan/skinny_kernels.h"
#include "plan/sm100_kernels.h"
#include "plan/sm80_kernels.h"
#include "plan/sm90_kernels.h"

namespace asyncgemm::plan {
namespace {

template <typename KernelInfo, size_t N>
void append(std::vector<KernelSpec> &table, Family family, const KernelInfo (&kernels)[N]) {
    for (const KernelInfo &k : kernels) table.push_back({family, k.unit, k.name, k.dynamic_smem});
}

struct Table {
    std::vector<KernelSpec> kernels;
    std::array<size_t, static_cast<size_t>(Family::Count)> base{};
    KernelTable view{};

    Table() {
        const auto add = [&](Family family, const auto &family_kernels) {
            base[static_cast<size_t>(family)] = kernels.size();
            append(kernels, family, family_kernels);
        };
        add(Family::Copy, copy::kKernels);
        add(Family::Simt, simt::kKernels);
        add(Family::Sm80, sm80::kKernels);
        add(Family::Sm90, sm90::kKernels);
        add(Family::Sm100, sm100::kKernels);
        add(Family::Skinny, skinny::kKernels);
        view = {kernels.data(), kernels.size()};
    }
};

const Table &table() {
    static const Table t;
    return t;
}

}  // namespace

const KernelTable &kernel_table() { return table().view; }

size_t family_base(Family family) { return table().base[static_cast<size_t>(family)]; }

}  // namespace asyncgemm::plan
