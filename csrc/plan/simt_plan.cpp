#include "plan/simt_plan.h"

#include "common/error.h"
#include "plan/kernel_table.h"
#include "plan/simt_launch.h"
#include "plan/split_scratch.h"

namespace asyncgemm::plan {

void launch_simt(const Handle &handle, const GemmParams &problem, int splits, void *stream) {
    GemmParams params = problem;
    const simt::Launch launch =
        simt::prepare_launch(params, splits > 0 ? splits : simt::splits_for(params, handle.device().sm_count));
    if (launch.kernel < 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SIMT: the problem is too large for one launch "
                                             "(more than 2^31 - 1 output tiles, or k of 2^35 or more)");
    const auto run = [&](const GemmParams &p, const simt::Launch &l) {
        handle.launch(family_base(Family::Simt) + static_cast<size_t>(l.kernel), Dim3{l.grid_x, l.grid_y, l.grid_z},
                      Dim3{l.block_x, 1, 1}, l.dynamic_smem, &p, sizeof p, stream);
    };
    if (params.splits == 1) return run(params, launch);
    const simt::TileConfig &c = simt::kTileConfigs[simt::kConfig];
    if (launch_with_split_scratch(handle, params, launch.grid_x, c.tile_m, c.tile_n, stream,
                                  [&](const GemmParams &p) { run(p, launch); }))
        return;
    // No scratch to be had (a captured call without a workspace of the caller's, or one too small).
    const simt::Launch unsplit = simt::prepare_launch(params, 1);
    run(params, unsplit);
}

}  // namespace asyncgemm::plan
