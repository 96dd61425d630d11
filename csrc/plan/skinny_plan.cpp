#include "plan/skinny_plan.h"

#include "common/error.h"
#include "plan/kernel_table.h"
#include "plan/skinny_launch.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {
namespace {

size_t kernel_table_index(int skinny_kernel) {
    return family_base(Family::Skinny) + static_cast<size_t>(skinny_kernel);
}

}  // namespace

std::optional<SkinnyParams> skinny_plan(const Handle &handle, const GemmParams &params) {
    if (!handle.family_available(Family::Skinny)) return std::nullopt;
    const std::optional<SkinnyParams> view = skinny::skinny_view(params);
    if (!view) return std::nullopt;
    const int kernel =
        skinny::kernel_index(params.type_ab, skinny::smalls_tile(view->smalls), view->large_k_major != 0);
    if (kernel < 0 || !handle.kernel_available(kernel_table_index(kernel))) return std::nullopt;
    return view;
}

void launch_skinny(const Handle &handle, const SkinnyParams &view, int32_t type_ab, int splits, void *stream) {
    SkinnyParams s = view;
    const int want = splits > 0 ? splits : skinny::splits_for(s, handle.device().sm_count);
    const skinny::Launch launch = skinny::prepare_launch(s, type_ab, want);
    if (launch.kernel < 0 || !handle.kernel_available(kernel_table_index(launch.kernel)))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "the skinny family has no kernel for the problem on " + handle.device().name);
    const auto run = [&](const SkinnyParams &p, const skinny::Launch &l) {
        handle.launch(kernel_table_index(l.kernel), Dim3{l.grid_x, l.grid_y, l.grid_z}, Dim3{skinny::kThreads, 1, 1}, 0,
                      &p, sizeof p, stream);
    };
    if (s.splits == 1) return run(s, launch);
    const bool ran = handle.workspace().run(
        static_cast<size_t>(launch.workspace.counters), static_cast<size_t>(launch.workspace.partial_bytes),
        static_cast<CUstream_st *>(stream), [&](Workspace::Lease lease) {
            s.partials = lease.partials;
            s.counters = static_cast<int32_t *>(lease.counters);
            run(s, launch);
        });
    if (ran) return;
    // Captured without a workspace: unsplit.
    SkinnyParams unsplit = view;
    run(unsplit, skinny::prepare_launch(unsplit, type_ab, 1));
}

}  // namespace asyncgemm::plan
