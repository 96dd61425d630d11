#include "plan/eight_bit_route.h"

#include "plan/gemm_args.h"
#include "plan/sm100_plan.h"
#include "plan/sm90_plan.h"

namespace asyncgemm::plan {

namespace {

// The 8-bit kernels are `kk`, also where k = 0 or alpha = 0 leaves A and B unread.
bool k_major(const GemmParams &params) { return params.a_k_major != 0 && params.b_k_major != 0; }

bool allows(asyncgemm_algo_t algo, asyncgemm_algo_t family) {
    return algo == ASYNCGEMM_ALGO_AUTO || algo == family;
}

}  // namespace

bool sm100_takes(asyncgemm_algo_t algo, const GemmParams &params) {
    return k_major(params) && allows(algo, ASYNCGEMM_ALGO_SM100_TCGEN05) && !has_block_scales(params) &&
           !has_mixed_eight_bit_inputs(params) && sm100_tma_obstacle(params).empty();
}

EightBitRoute eight_bit_route(const EightBitFamilies &families, asyncgemm_algo_t algo, const GemmParams &params) {
    if (algo == ASYNCGEMM_ALGO_SIMT) return {ASYNCGEMM_ALGO_SIMT, false};
    const bool block_scaled = has_block_scales(params);
    const bool mx_scaled = has_mx_scales(params);
    if ((mx_scaled ? families.sm100_mx : families.sm100) && sm100_takes(algo, params))
        return {ASYNCGEMM_ALGO_SM100_TCGEN05, false};
    // MX scales: tcgen05's block-scaled MMAs above, else SIMT (wgmma scales no 32-element blocks).
    if (mx_scaled) return {ASYNCGEMM_ALGO_SIMT, false};
    if (k_major(params) && allows(algo, ASYNCGEMM_ALGO_SM90_TMA_WGMMA) && families.sm90 &&
        sm90_tma_obstacle(params).empty() && (!block_scaled || sm90_serves_block_scales(params)))
        return {ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false};
    // f16 cannot hold an input times its block scale: SIMT scales the inputs as it loads them.
    if (block_scaled) return {ASYNCGEMM_ALGO_SIMT, false};
    if (algo != ASYNCGEMM_ALGO_AUTO) return {algo, true};
    if (families.sm90 && sm90_output_obstacle(params).empty()) return {ASYNCGEMM_ALGO_SM90_TMA_WGMMA, true};
    if (families.pipelined) return {ASYNCGEMM_ALGO_PIPELINED, true};
    return {ASYNCGEMM_ALGO_SIMT, false};
}

}  // namespace asyncgemm::plan
