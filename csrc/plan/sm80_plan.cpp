#include "plan/sm80_plan.h"

#include <string>

#include "common/error.h"
#include "plan/autotune.h"
#include "plan/kernel_table.h"
#include "plan/sm80_launch.h"
#include "plan/split_scratch.h"

namespace asyncgemm::plan {
namespace {

size_t kernel_table_index(int sm80_kernel) { return family_base(Family::Sm80) + static_cast<size_t>(sm80_kernel); }

}  // namespace

sm80::Shape sm80_shape(const GemmParams &params) {
    return {params.m, params.n, params.k, params.batch_count, sm80::element_bytes(params.type_ab)};
}

sm80::DeviceLimits sm80_limits(const Handle &handle) {
    return {handle.device().sm_count, handle.device().max_smem_per_block_optin};
}

bool sm80_supports(const GemmParams &params, asyncgemm_math_t math) {
    return sm80::supports_types(params.type_ab, params.type_cd, math == ASYNCGEMM_MATH_TF32, params.a_k_major != 0,
                                params.b_k_major != 0);
}

void launch_sm80(const Handle &handle, const GemmParams &params, asyncgemm_algo_t algo, void *stream) {
    if (algo != ASYNCGEMM_ALGO_ASYNC_COPY && algo != ASYNCGEMM_ALGO_PIPELINED)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "launch_sm80: algo is neither ASYNC_COPY nor PIPELINED");
    const KernelChoice choice = algo == ASYNCGEMM_ALGO_PIPELINED
                                    ? pipelined_config(handle, params, stream)
                                    : sm80::choose_config(false, sm80_shape(params), sm80_limits(handle));
    launch_sm80_choice(handle, params, choice, stream);
}

void launch_sm80_choice(const Handle &handle, const GemmParams &problem, KernelChoice choice, void *stream) {
    GemmParams params = problem;
    const int kernel =
        sm80::kernel_index(params.type_ab, choice.config, params.a_k_major != 0, params.b_k_major != 0);
    if (kernel < 0 || !handle.kernel_available(kernel_table_index(kernel)))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "the sm80 family has no kernel of configuration " +
                                                 std::to_string(choice.config) + " for these inputs on " +
                                                 handle.device().name);
    const int splits =
        choice.splits > 0 ? choice.splits : sm80::splits_for(choice.config, sm80_shape(params), handle.device().sm_count);
    const sm80::Launch launch = sm80::prepare_launch_config(params, choice.config, splits);
    if (launch.kernel < 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_ASYNC_COPY / PIPELINED: the problem is too large for one "
                                             "launch (more than 2^31 - 1 output tiles, or k of 2^36 or more)");
    const auto run = [&](const GemmParams &p, const sm80::Launch &l) {
        handle.launch(kernel_table_index(l.kernel), Dim3{l.grid_x, l.grid_y, l.grid_z}, Dim3{l.block_x, 1, 1},
                      l.dynamic_smem, &p, sizeof p, stream);
    };
    if (params.splits == 1) return run(params, launch);
    const sm80::TileConfig &c = sm80::kTileConfigs[choice.config];
    if (launch_with_split_scratch(handle, params, launch.grid_x, c.tile_m, c.tile_n, stream,
                                  [&](const GemmParams &p) { run(p, launch); }))
        return;
    // Captured: the same configuration unsplit.
    const sm80::Launch unsplit = sm80::prepare_launch_config(params, choice.config, 1);
    run(params, unsplit);
}

}  // namespace asyncgemm::plan
