#include "plan/kernel_table.h"

#include <array>
#include <vector>

namespace asyncgemm::plan {
namespace {

FamilyKernels kernels_of(Family family) {
    switch (family) {
    case Family::Copy: return copy_kernels();
    case Family::Simt: return simt_kernels();
    case Family::Sm80: return sm80_kernels();
    case Family::Sm90: return sm90_kernels();
    case Family::Sm100: return sm100_kernels();
    case Family::Count: break;
    }
    return {nullptr, 0};
}

struct Table {
    std::vector<KernelSpec> kernels;
    std::array<size_t, static_cast<size_t>(Family::Count)> base{};
    KernelTable view{};

    Table() {
        for (int f = 0; f < static_cast<int>(Family::Count); ++f) {
            base[f] = kernels.size();
            const FamilyKernels block = kernels_of(static_cast<Family>(f));
            kernels.insert(kernels.end(), block.kernels, block.kernels + block.count);
        }
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
