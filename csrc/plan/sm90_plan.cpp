#include "plan/sm90_plan.h"

#include <stdint.h>

#include <algorithm>
#include <string>

#include "common/error.h"
#include "kernels/common/block_scale.h"
#include "kernels/sm90/sm90_params.h"
#include "plan/autotune.h"
#include "plan/gemm_args.h"
#include "plan/gemm_tma.h"
#include "plan/kernel_table.h"
#include "plan/sm90_kernels.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {
namespace {

// Tile rows walked together by the persistent blocks: 132 blocks in flight on an H100 then read 16
// tile rows of A and about 8 tile columns of B, which L2 holds.
constexpr int32_t kRasterGroup = 16;

}  // namespace

bool sm90_supports(const GemmParams &params, asyncgemm_math_t math) {
    return sm90::supports_types(params.type_ab, params.type_cd, math == ASYNCGEMM_MATH_TF32, params.a_k_major != 0,
                                params.b_k_major != 0);
}

bool sm90_serves_block_scales(const GemmParams &p) { return p.block_scale_b == nullptr || p.block_cols_b != 1; }

std::string sm90_tma_obstacle(const GemmParams &p) { return tma_obstacle(p, p.beta != 0.f, true); }

std::string sm90_output_obstacle(const GemmParams &p) {
    GemmParams outputs = p;
    outputs.k = 0;  // no product: tma_obstacle describes neither A nor B
    return sm90_tma_obstacle(outputs);
}

TensorMap3d sm90_a_map(const GemmParams &p, int config) {
    return operand_a_map(p, static_cast<uint32_t>(sm90::kTileConfigs[config].tile_m));
}

TensorMap3d sm90_b_map(const GemmParams &p, int config) {
    return operand_b_map(p, static_cast<uint32_t>(sm90::kTileConfigs[config].tile_n));
}

TensorMap3d sm90_cd_map(const GemmParams &p, int64_t ld, int64_t batch_stride) {
    return output_map(p, ld, batch_stride, static_cast<uint32_t>(sm90::chunk_columns(p.type_cd)),
                      sm90::kEpilogueChunkRows);
}

void launch_sm90(const Handle &handle, const GemmParams &p, void *stream) {
    launch_sm90_choice(handle, p, sm90_tuned_config(handle, p, stream), stream);
}

void launch_sm90_choice(const Handle &handle, const GemmParams &p, KernelChoice choice, void *stream) {
    const int sm_count = handle.device().sm_count;
    const int config = choice.config;
    const sm90::TileConfig &c = sm90::kTileConfigs[config];
    if (has_block_scales(p) && !sm90::applies_block_scales(c))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM90_TMA_WGMMA's configuration " + std::to_string(config) +
                                                 " applies no block scales (its warpgroups' tiles are too wide)");
    if (!sm90_serves_block_scales(p))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM90_TMA_WGMMA applies no per-column block scales of B");
    const int kernel = sm90::kernel_index(p.type_ab, config, p.a_k_major != 0, p.b_k_major != 0);
    const size_t table_index = family_base(Family::Sm90) + static_cast<size_t>(kernel);
    if (kernel < 0 || !handle.kernel_available(table_index))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM90_TMA_WGMMA has no kernel of configuration " +
                                                 std::to_string(config) + " for these inputs on " +
                                                 handle.device().name);

    Sm90Params params{};
    const int64_t tiles_m = (p.m + c.tile_m - 1) / c.tile_m;
    const int64_t tiles_n = (p.n + c.tile_n - 1) / c.tile_n;
    if (tiles_m * tiles_n > kMaxTmaCoordinate)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM90_TMA_WGMMA: more than 2^31 - 1 output tiles");
    // Work items are tiles here: batched problems do not split K.
    if (launch_in_batch_ranges(p, tiles_m * tiles_n,
                               [&](const GemmParams &range) { launch_sm90_choice(handle, range, choice, stream); }))
        return;
    // Without a product no operand is loaded, and an operand of k = 0 is no tensor TMA can describe.
    if (has_product(p)) {
        encode_swizzled(params.a_map, sm90_a_map(p, config), p.a, p.type_ab);
        encode_swizzled(params.b_map, sm90_b_map(p, config), p.b, b_dtype(p));
    }
    encode_swizzled(params.d_map, sm90_cd_map(p, p.ldd, p.stride_d), p.d, p.type_cd);
    if (p.beta != 0.f) encode_swizzled(params.c_map, sm90_cd_map(p, p.ldc, p.stride_c), p.c, p.type_cd);
    params.d = p.d;
    params.ldd = p.ldd;
    params.stride_d = p.stride_d;
    params.c = p.c;
    params.ldc = p.ldc;
    params.stride_c = p.stride_c;
    params.m = static_cast<int32_t>(p.m);
    params.n = static_cast<int32_t>(p.n);
    params.d_rows_whole = static_cast<uint64_t>(p.n) * dtype_size(p.type_cd) % 16 == 0;
    params.batch_count = p.batch_count;
    params.alpha = p.alpha;
    params.beta = p.beta;
    params.type_cd = p.type_cd;
    params.a_k_major = p.a_k_major;
    params.b_k_major = p.b_k_major;
    params.a_e5m2 = p.type_ab == kE5M2;
    params.b_e5m2 = b_dtype(p) == kE5M2;
    params.a_batched = batched(p, p.stride_a);
    params.b_batched = batched(p, p.stride_b);
    params.c_batched = batched(p, p.stride_c);
    params.tiles_m = static_cast<int32_t>(tiles_m);
    params.tiles_n = static_cast<int32_t>(tiles_n);
    const int64_t k_blocks = has_product(p) ? k_block_count(p.k, p.type_ab) : 0;
    params.k_blocks = static_cast<int32_t>(k_blocks);
    params.bias = p.bias;
    params.stride_bias = p.stride_bias;
    params.bias_per_row = p.bias_per_row;
    params.type_bias = p.type_bias;
    params.activation = p.activation;
    params.scale_a = p.scale_a;
    params.scale_b = p.scale_b;
    params.block_scale_a = p.block_scale_a;
    params.block_scale_b = p.block_scale_b;
    params.block_rows_a = p.block_rows_a;
    params.block_cols_b = p.block_cols_b;
    if (p.block_scale_a != nullptr) params.scales_per_k_block_a = static_cast<int32_t>(scale_blocks(p.m, p.block_rows_a));
    if (p.block_scale_b != nullptr) params.scales_per_k_block_b = static_cast<int32_t>(scale_blocks(p.n, p.block_cols_b));

    const int64_t tiles = tiles_m * tiles_n * p.batch_count;
    const auto run = [&](const SplitRanges &ranges) {
        params.splits = ranges.count;
        params.order = persistent_order(static_cast<int32_t>(tiles_m), static_cast<int32_t>(tiles_n), kRasterGroup,
                                        ranges.count);
        params.blocks_per_split = static_cast<int32_t>(ranges.blocks_per_range);
        // Persistent: at most one block per SM.
        const auto blocks = static_cast<uint32_t>(std::min<int64_t>(tiles * ranges.count, sm_count));
        handle.launch(table_index, Dim3{blocks, 1, 1}, Dim3{static_cast<uint32_t>(sm90::kThreads), 1, 1},
                      sm90::kKernels[kernel].dynamic_smem, &params, sizeof params, stream);
    };
    const int wanted = choice.splits > 0 ? choice.splits
                                         : sm90::split_count(c, {p.m, p.n, p.k, p.batch_count}, sm_count);
    const SplitRanges ranges = split_ranges(k_blocks, p.batch_count == 1 ? wanted : 1);
    if (ranges.count == 1) return run(ranges);

    const WorkspaceNeed need = split_workspace(tiles, ranges.count, c.tile_m, c.tile_n, sm90::consumers(c));
    const bool ran = handle.workspace().run(
        static_cast<size_t>(need.counters), static_cast<size_t>(need.partial_bytes), static_cast<CUstream_st *>(stream),
        [&](Workspace::Lease lease) {
            params.partials = static_cast<float *>(lease.partials);
            params.tile_counters = static_cast<int32_t *>(lease.counters);
            run(ranges);
        });
    if (!ran) run(split_ranges(k_blocks, 1));  // captured: the same configuration unsplit
}

}  // namespace asyncgemm::plan
