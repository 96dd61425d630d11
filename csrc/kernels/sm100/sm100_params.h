// The Blackwell GEMM kernels' parameter block: the tensor maps the host encodes
// (plan/sm100_plan.cpp), the instruction descriptor it computes, and the canonical problem's numbers
// the kernel still needs.  Passed by value as `const __grid_constant__`, so the maps stay in
// parameter memory, where cp.async.bulk.tensor may read them.
#pragma once

#include <cuda.h>
#include <stdint.h>

#include "kernels/common/host_device.h"
#include "kernels/common/raster.h"

namespace asyncgemm {

struct Sm100Params {
    CUtensorMap a_map;  // K-major A: {k, m}, boxes {K per stage, 128}; MN-major: {m, k}, boxes {128 B, K per stage}
    CUtensorMap b_map;  // the same for B with n
    CUtensorMap c_map;  // fp32 C {n, m} in boxes of 32 x 128, when seed_c
    // C and D as the epilogue threads read and write them, row-major; c null when beta == 0.
    const void *c;
    int64_t ldc, stride_c;
    void *d;
    int64_t ldd, stride_d;
    int32_t m, n;
    int64_t batch_count;
    float alpha, beta;
    // seed_c: C enters the accumulator (TMA, then tcgen05.cp) scaled by seed_scale = beta / alpha, so
    // that alpha * (A·B + seed_scale * C) is the result; the epilogue then reads no C.
    int32_t seed_c;
    float seed_scale;
    int32_t type_cd;                          // DType of C and D
    uint32_t instruction;                     // tcgen05.mma instruction descriptor (sm100_config.h)
    int32_t a_k_major, b_k_major;
    int32_t a_batched, b_batched, c_batched;  // 1: the batch is the map's third coordinate; 0: broadcast
    int32_t c_vectors, d_vectors;             // 1: rows of C / D start 16-byte aligned (base, ld, batch stride)
    int32_t tiles_m, tiles_n;
    PersistentOrder order;  // work item -> tile
    int32_t k_blocks;  // K blocks per tile; 0 when there is no product (alpha == 0 or k == 0)
    // K is never split here: one range of all k_blocks per tile (the persistent scheduler reads these).
    int32_t splits;            // 1
    int32_t blocks_per_split;  // k_blocks
    // The tensor scales of 8-bit A and B (GemmParams's), folded into alpha by the epilogue; null: 1.
    // C is never seeded with them (seed_scale is the host's beta / alpha).
    const float *scale_a;
    const float *scale_b;
    // The MX scales of 8-bit A and B (kernels/common/mx_scale.h), both or neither; null: none.  With
    // them every stage also loads the tile's 512-byte scale tile of A and of B, and the MMAs are
    // kind::mxf8f6f4.block_scale (`instruction` is then mx_instruction_descriptor's).
    const uint8_t *mx_scale_a;
    const uint8_t *mx_scale_b;
    int64_t mx_batch_bytes_a, mx_batch_bytes_b;  // from one batch's scales to the next; 0: broadcast
    // The fused epilogue (GemmParams's): bias null for none, else added to row i of D (bias_per_row)
    // or column i, of type_bias, batches stride_bias elements apart; then the activation.
    const void *bias;
    int64_t stride_bias;
    int32_t bias_per_row;
    int32_t type_bias;
    int32_t activation;
};

// True when the MMAs are block-scaled (both scales are set, or neither).
ASYNCGEMM_HOST_DEVICE inline bool has_mx_scales(const Sm100Params &params) { return params.mx_scale_a != nullptr; }

}  // namespace asyncgemm
