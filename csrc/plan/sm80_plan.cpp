#include "plan/sm80_plan.h"

#include <stdlib.h>

#include <optional>
#include <string>

#include "common/error.h"
#include "plan/autotune.h"
#include "plan/forced_config.h"
#include "plan/kernel_table.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {

sm80::Shape sm80_shape(const GemmParams &params) {
    return {params.m, params.n, params.k, params.batch_count, sm80::element_bytes(params.type_ab)};
}

sm80::DeviceLimits sm80_limits(const Handle &handle) {
    return {handle.device().sm_count, handle.device().max_smem_per_block_optin};
}

namespace {

constexpr auto kSpecs = family_specs(Family::Sm80, sm80::kKernels);

// ASYNCGEMM_SM80_CONFIG, parsed: "<config>" or "<config>:<splits>"; splits 0 means the heuristic's.
std::optional<ForcedConfig> forced_config() {
    static const char *const text = getenv("ASYNCGEMM_SM80_CONFIG");
    return parse_forced_config("ASYNCGEMM_SM80_CONFIG", text, sm80::kTileConfigCount, sm80::kMaxSplits);
}

size_t kernel_table_index(int sm80_kernel) { return family_base(Family::Sm80) + static_cast<size_t>(sm80_kernel); }

// PIPELINED's configuration and split: the forced one, else the autotuner's (which falls back on
// the heuristic's).
sm80::Choice pipelined_choice(const Handle &handle, const GemmParams &params, void *stream) {
    const std::optional<ForcedConfig> forced = forced_config();
    // The hook forces the configuration for the input types it has kernels for (tf32 has no
    // 128 x 256 ones); the rest run as without it.
    const int kernel = forced ? sm80::kernel_index(params.type_ab, forced->config, params.a_k_major != 0,
                                                   params.b_k_major != 0)
                              : -1;
    if (kernel < 0) return pipelined_config(handle, params, stream);
    if (!handle.kernel_available(kernel_table_index(kernel)))
        fail(ASYNCGEMM_STATUS_INVALID_VALUE, "ASYNCGEMM_SM80_CONFIG names configuration " +
                                                 std::to_string(forced->config) + ", which cannot run on " +
                                                 handle.device().name);
    const int splits = forced->splits > 0
                           ? forced->splits
                           : sm80::splits_for(forced->config, sm80_shape(params), handle.device().sm_count);
    return {forced->config, splits};
}

}  // namespace

FamilyKernels sm80_kernels() { return kSpecs.view(); }

bool sm80_supports(const GemmParams &params, asyncgemm_math_t math) {
    return sm80::supports_types(params.type_ab, params.type_cd, math == ASYNCGEMM_MATH_TF32, params.a_k_major != 0,
                                params.b_k_major != 0);
}

void launch_sm80(const Handle &handle, GemmParams params, asyncgemm_algo_t algo, void *stream) {
    if (algo != ASYNCGEMM_ALGO_ASYNC_COPY && algo != ASYNCGEMM_ALGO_PIPELINED)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "launch_sm80: algo is neither ASYNC_COPY nor PIPELINED");
    const sm80::Choice choice = algo == ASYNCGEMM_ALGO_PIPELINED
                                    ? pipelined_choice(handle, params, stream)
                                    : sm80::choose_config(false, sm80_shape(params), sm80_limits(handle));
    launch_sm80_choice(handle, params, choice, stream);
}

void launch_sm80_choice(const Handle &handle, GemmParams params, sm80::Choice choice, void *stream) {
    const sm80::Launch launch = sm80::prepare_launch_config(params, choice.config, choice.splits);
    if (launch.kernel < 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_ASYNC_COPY / PIPELINED: the problem is too large for one "
                                             "launch (more than 2^31 - 1 output tiles, or k of 2^36 or more)");
    const auto run = [&](const GemmParams &p, const sm80::Launch &l) {
        handle.launch(kernel_table_index(l.kernel), Dim3{l.grid_x, l.grid_y, l.grid_z}, Dim3{l.block_x, 1, 1},
                      l.dynamic_smem, &p, sizeof p, stream);
    };
    if (params.splits == 1) return run(params, launch);

    const sm80::WorkspaceNeed need = sm80::workspace_need(choice.config, launch.grid_x, params.splits);
    const bool ran = handle.workspace().run(
        static_cast<size_t>(need.counters), static_cast<size_t>(need.partial_bytes), static_cast<CUstream_st *>(stream),
        [&](Workspace::Lease lease) {
            params.partials = lease.partials;
            params.tile_counters = lease.counters;
            run(params, launch);
        });
    if (ran) return;
    // Captured: the same configuration unsplit.
    const sm80::Launch unsplit = sm80::prepare_launch_config(params, choice.config, 1);
    run(params, unsplit);
}

}  // namespace asyncgemm::plan
