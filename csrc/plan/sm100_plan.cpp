#include "plan/sm100_plan.h"

#include <stdint.h>

#include <algorithm>

#include "common/error.h"
#include "kernels/sm100/sm100_traits.h"
#include "plan/sm100_kernels.h"
#include "kernels/sm100/sm100_params.h"
#include "plan/gemm_args.h"
#include "plan/gemm_tma.h"
#include "plan/kernel_table.h"

namespace asyncgemm::plan {
namespace {

// Tile rows walked together by the persistent blocks (the Hopper family's measured best).
constexpr int32_t kRasterGroup = 16;

// True when every row of the matrix starts on a 16-byte boundary: the base, the leading dimension
// and (when batches step through it) the batch stride.
bool rows_aligned(const GemmParams &p, const void *base, int64_t ld, int64_t batch_stride) {
    const size_t elem = dtype_size(p.type_cd);
    return reinterpret_cast<uintptr_t>(base) % 16 == 0 && static_cast<uint64_t>(ld) * elem % 16 == 0 &&
           (!batched(p, batch_stride) || static_cast<uint64_t>(batch_stride) * elem % 16 == 0);
}

}  // namespace

bool sm100_supports(const GemmParams &params, asyncgemm_math_t math) {
    return sm100::supports_types(params.type_ab, params.type_cd, math == ASYNCGEMM_MATH_TF32);
}

std::string sm100_tma_obstacle(const GemmParams &params) { return tma_obstacle(params, false, false); }

bool sm100_seeds_c(const GemmParams &p) {
    // Not with tensor scales: the seed is scaled by beta / alpha on the host, which cannot read them.
    return p.type_cd == kF32 && p.beta != 0.f && has_product(p) && p.scale_a == nullptr && p.scale_b == nullptr &&
           tma_obstacle(p, true, false).empty();
}

Sm100Params sm100_params(const GemmParams &p) {
    Sm100Params params{};
    const int64_t tiles_m = (p.m + sm100::kTileM - 1) / sm100::kTileM;
    const int64_t tiles_n = (p.n + sm100::kTileN - 1) / sm100::kTileN;
    if (tiles_m * tiles_n > kMaxTmaCoordinate)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SM100_TCGEN05: more than 2^31 - 1 output tiles");
    params.c = p.c;
    params.ldc = p.ldc;
    params.stride_c = p.stride_c;
    params.d = p.d;
    params.ldd = p.ldd;
    params.stride_d = p.stride_d;
    params.m = static_cast<int32_t>(p.m);
    params.n = static_cast<int32_t>(p.n);
    params.batch_count = p.batch_count;
    params.alpha = p.alpha;
    params.beta = p.beta;
    params.seed_c = sm100_seeds_c(p);
    params.seed_scale = params.seed_c ? p.beta / p.alpha : 0.f;
    params.type_cd = p.type_cd;
    params.instruction =
        has_mx_scales(p) ? sm100::mx_instruction_descriptor(p.type_ab, sm100::kTileM, sm100::kTileN)
                         : sm100::instruction_descriptor(p.type_ab, p.a_k_major != 0, p.b_k_major != 0, sm100::kTileM,
                                                         sm100::kTileN);
    params.a_k_major = p.a_k_major;
    params.b_k_major = p.b_k_major;
    params.a_batched = batched(p, p.stride_a);
    params.b_batched = batched(p, p.stride_b);
    params.c_batched = batched(p, p.stride_c);
    params.c_vectors = p.beta != 0.f && rows_aligned(p, p.c, p.ldc, p.stride_c);
    params.d_vectors = rows_aligned(p, p.d, p.ldd, p.stride_d);
    params.tiles_m = static_cast<int32_t>(tiles_m);
    params.tiles_n = static_cast<int32_t>(tiles_n);
    params.order = persistent_order(params.tiles_m, params.tiles_n, kRasterGroup, 1);
    params.k_blocks = has_product(p) ? static_cast<int32_t>(k_block_count(p.k, p.type_ab)) : 0;
    params.splits = 1;
    params.blocks_per_split = params.k_blocks;
    params.scale_a = p.scale_a;
    params.scale_b = p.scale_b;
    if (has_mx_scales(p)) {
        params.mx_scale_a = p.mx_scale_a;
        params.mx_scale_b = p.mx_scale_b;
        params.mx_batch_bytes_a = params.a_batched ? mx_scale_bytes(p.m, p.k) : 0;
        params.mx_batch_bytes_b = params.b_batched ? mx_scale_bytes(p.n, p.k) : 0;
    }
    params.bias = p.bias;
    params.stride_bias = p.stride_bias;
    params.bias_per_row = p.bias_per_row;
    params.type_bias = p.type_bias;
    params.activation = p.activation;
    return params;
}

TensorMap3d sm100_a_map(const GemmParams &p) { return operand_a_map(p, sm100::kTileM); }
TensorMap3d sm100_b_map(const GemmParams &p) {
    return operand_b_map(p, sm100::kTileN);
}
TensorMap3d sm100_c_map(const GemmParams &p) {
    return output_map(p, p.ldc, p.stride_c, sm100::kSeedBoxColumns, sm100::kTileM);
}

void launch_sm100(const Handle &handle, const GemmParams &p, void *stream) {
    const int kernel = sm100::kernel_index(p.type_ab);
    const size_t table_index = family_base(Family::Sm100) + static_cast<size_t>(kernel);
    if (kernel < 0 || !handle.kernel_available(table_index))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string("ASYNCGEMM_ALGO_SM100_TCGEN05 has no kernel for ") +
                                                 dtype_name(p.type_ab) + " inputs on " + handle.device().name);
    Sm100Params params = sm100_params(p);
    const int64_t tiles_per_batch = static_cast<int64_t>(params.tiles_m) * params.tiles_n;
    if (launch_in_batch_ranges(p, tiles_per_batch, [&](const GemmParams &range) { launch_sm100(handle, range, stream); }))
        return;
    // Without a product no operand is loaded, and an operand of k = 0 is no tensor TMA can describe.
    if (has_product(p)) {
        encode_swizzled(params.a_map, sm100_a_map(p), p.a, p.type_ab);
        encode_swizzled(params.b_map, sm100_b_map(p), p.b, p.type_ab);
    }
    if (params.seed_c) encode_swizzled(params.c_map, sm100_c_map(p), p.c, p.type_cd);
    // Persistent: at most one block per SM.
    const int64_t tiles = tiles_per_batch * p.batch_count;
    const auto blocks = static_cast<uint32_t>(std::min<int64_t>(tiles, handle.device().sm_count));
    handle.launch(table_index, Dim3{blocks, 1, 1}, Dim3{static_cast<uint32_t>(sm100::kThreads), 1, 1},
                  sm100::kKernels[kernel].dynamic_smem, &params, sizeof params, stream);
}

}  // namespace asyncgemm::plan
