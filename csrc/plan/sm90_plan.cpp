#include "plan/sm90_plan.h"

#include <stdint.h>
#include <stdlib.h>

#include <algorithm>
#include <optional>

#include "common/error.h"
#include "kernels/sm90/sm90_params.h"
#include "plan/autotune.h"
#include "plan/forced_config.h"
#include "plan/gemm_args.h"
#include "plan/kernel_table.h"
#include "plan/gemm_tma.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {
namespace {

constexpr auto kSpecs = family_specs(Family::Sm90, sm90::kKernels);

// Tile rows walked together by the persistent blocks: 132 blocks in flight on an H100 then read 16
// tile rows of A and about 8 tile columns of B, which L2 holds.
constexpr int32_t kRasterGroup = 16;

// ASYNCGEMM_SM90_CONFIG=<config>[:<splits>]: every launch uses that configuration, split that many
// ways where K allows (0 or absent: the heuristic's split).  The GPU tests run each one.
std::optional<ForcedConfig> forced_config() {
    static const char *const text = getenv("ASYNCGEMM_SM90_CONFIG");
    return parse_forced_config("ASYNCGEMM_SM90_CONFIG", text, sm90::kTileConfigCount, sm90::kMaxSplits);
}

}  // namespace

FamilyKernels sm90_kernels() { return kSpecs.view(); }

bool sm90_supports(const GemmParams &params, asyncgemm_math_t math) {
    return sm90::supports_types(params.type_ab, params.type_cd, math == ASYNCGEMM_MATH_TF32, params.a_k_major != 0,
                                params.b_k_major != 0);
}

std::string sm90_tma_obstacle(const GemmParams &p) { return tma_obstacle(p, p.beta != 0.f, true); }

TensorMap3d sm90_a_map(const GemmParams &p, int config) {
    return operand_a_map(p, static_cast<uint32_t>(sm90::kTileConfigs[config].tile_m));
}

TensorMap3d sm90_b_map(const GemmParams &p, int config) {
    const sm90::TileConfig &c = sm90::kTileConfigs[config];
    return operand_b_map(p, static_cast<uint32_t>(sm90::b_rows_per_block(c)),
                         static_cast<uint32_t>(sm90::b_k_rows_per_block(c)));
}

TensorMap3d sm90_cd_map(const GemmParams &p, int64_t ld, int64_t batch_stride) {
    return output_map(p, ld, batch_stride, static_cast<uint32_t>(sm90::chunk_columns(p.type_cd)),
                      sm90::kEpilogueChunkRows);
}

void launch_sm90(const Handle &handle, const GemmParams &p, void *stream) {
    const std::optional<ForcedConfig> forced = forced_config();
    // The hook forces the configuration for the input types it has kernels for (the cluster one has
    // no tf32 kernel); the rest run as without it.
    if (!forced || sm90::kernel_index(p.type_ab, forced->config) < 0)
        return launch_sm90_choice(handle, p, sm90_tuned_config(handle, p, stream), stream);
    const sm90::Shape shape{p.m, p.n, p.k, p.batch_count};
    const sm90::TileConfig &c = sm90::kTileConfigs[forced->config];
    const int splits = forced->splits > 0 ? forced->splits : sm90::split_count(c, shape, handle.device().sm_count);
    launch_sm90_choice(handle, p, {forced->config, splits}, stream);
}

void launch_sm90_choice(const Handle &handle, const GemmParams &p, sm90::Choice choice, void *stream) {
    const int sm_count = handle.device().sm_count;
    const int config = choice.config;
    const sm90::TileConfig &c = sm90::kTileConfigs[config];
    const int kernel = sm90::kernel_index(p.type_ab, config);
    const size_t table_index = family_base(Family::Sm90) + static_cast<size_t>(kernel);
    if (kernel < 0 || !handle.kernel_available(table_index))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM90_TMA_WGMMA has no kernel for configuration " +
                                                 std::to_string(config) + " on " + handle.device().name);

    Sm90Params params{};
    const int64_t tiles_m = sm90::cluster_tiles_m(c, (p.m + c.tile_m - 1) / c.tile_m);
    const int64_t tiles_n = (p.n + c.tile_n - 1) / c.tile_n;
    if (tiles_m * tiles_n > kMaxTmaCoordinate)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM90_TMA_WGMMA: more than 2^31 - 1 output tiles");
    // Work items are tiles (of cluster rows) here: batched problems do not split K.
    if (launch_in_batch_ranges(p, tiles_m / c.cluster_m * tiles_n,
                               [&](const GemmParams &range) { launch_sm90_choice(handle, range, choice, stream); }))
        return;
    encode_swizzled(params.a_map, sm90_a_map(p, config), p.a, p.type_ab);
    encode_swizzled(params.b_map, sm90_b_map(p, config), p.b, p.type_ab);
    encode_swizzled(params.d_map, sm90_cd_map(p, p.ldd, p.stride_d), p.d, p.type_cd);
    if (p.beta != 0.f) encode_swizzled(params.c_map, sm90_cd_map(p, p.ldc, p.stride_c), p.c, p.type_cd);
    params.d = p.d;
    params.ldd = p.ldd;
    params.stride_d = p.stride_d;
    params.m = static_cast<int32_t>(p.m);
    params.n = static_cast<int32_t>(p.n);
    params.d_rows_whole = static_cast<uint64_t>(p.n) * dtype_size(p.type_cd) % 16 == 0;
    params.batch_count = p.batch_count;
    params.alpha = p.alpha;
    params.beta = p.beta;
    params.type_cd = p.type_cd;
    params.a_k_major = p.a_k_major;
    params.b_k_major = p.b_k_major;
    params.a_batched = batched(p, p.stride_a);
    params.b_batched = batched(p, p.stride_b);
    params.c_batched = batched(p, p.stride_c);
    params.tiles_m = static_cast<int32_t>(tiles_m);
    params.tiles_n = static_cast<int32_t>(tiles_n);
    // As in BLAS, alpha == 0 or k == 0 gives D = beta * C without reading A or B.
    const int64_t k_blocks = p.alpha != 0.f && p.k > 0 ? k_block_count(p.k, p.type_ab) : 0;
    params.k_blocks = static_cast<int32_t>(k_blocks);

    const int64_t tiles = tiles_m * tiles_n * p.batch_count;
    const auto run = [&](int splits) {
        params.splits = splits;
        params.order = persistent_order(static_cast<int32_t>(tiles_m / c.cluster_m), static_cast<int32_t>(tiles_n),
                                        kRasterGroup, splits);
        params.blocks_per_split = splits > 1 ? sm90::blocks_per_split(k_blocks, splits) : params.k_blocks;
        // Persistent: at most one block per SM, in whole clusters.
        const int64_t clusters = std::min<int64_t>(tiles * splits / c.cluster_m, sm_count / c.cluster_m);
        const auto blocks = static_cast<uint32_t>(clusters * c.cluster_m);
        handle.launch(table_index, Dim3{blocks, 1, 1}, Dim3{static_cast<uint32_t>(sm90::kThreads), 1, 1},
                      sm90::kKernels[kernel].dynamic_smem, &params, sizeof params, stream,
                      static_cast<uint32_t>(c.cluster_m));
    };
    const int splits = p.batch_count == 1 ? sm90::effective_splits(k_blocks, choice.splits) : 1;
    if (splits == 1) return run(1);

    const sm90::WorkspaceNeed need = sm90::workspace_need(c, tiles, splits);
    const bool ran = handle.workspace().run(
        static_cast<size_t>(need.counters), static_cast<size_t>(need.partial_bytes), static_cast<CUstream_st *>(stream),
        [&](Workspace::Lease lease) {
            params.partials = static_cast<float *>(lease.partials);
            params.tile_counters = static_cast<int32_t *>(lease.counters);
            run(splits);
        });
    if (!ran) run(1);  // captured: the same configuration unsplit
}

}  // namespace asyncgemm::plan
