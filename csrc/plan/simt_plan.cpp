#include "plan/simt_plan.h"

#include "common/error.h"
#include "plan/kernel_table.h"
#include "plan/simt_launch.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {

void launch_simt(const Handle &handle, const GemmParams &problem, int splits, void *stream) {
    GemmParams params = problem;
    const simt::Launch launch =
        simt::prepare_launch(params, splits > 0 ? splits : simt::splits_for(params, handle.device().sm_count));
    if (launch.kernel < 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SIMT: the problem is too large for one launch "
                                             "(more than 2^31 - 1 output tiles, or k of 2^34 or more)");
    const auto run = [&](const GemmParams &p, const simt::Launch &l) {
        handle.launch(family_base(Family::Simt) + static_cast<size_t>(l.kernel), Dim3{l.grid_x, l.grid_y, l.grid_z},
                      Dim3{l.block_x, 1, 1}, l.dynamic_smem, &p, sizeof p, stream);
    };
    if (params.splits == 1) return run(params, launch);

    const simt::TileConfig &c = simt::kTileConfigs[simt::kConfig];
    const WorkspaceNeed need = split_workspace(launch.grid_x, params.splits, c.tile_m, c.tile_n, 1);
    const bool ran = handle.workspace().run(
        static_cast<size_t>(need.counters), static_cast<size_t>(need.partial_bytes), static_cast<CUstream_st *>(stream),
        [&](Workspace::Lease lease) {
            params.partials = lease.partials;
            params.tile_counters = lease.counters;
            run(params, launch);
        });
    if (ran) return;
    // No scratch to be had (a captured call without a workspace of the caller's, or one too small).
    const simt::Launch unsplit = simt::prepare_launch(params, 1);
    run(params, unsplit);
}

}  // namespace asyncgemm::plan
