// ALGO_SM90_TMA_WGMMA: launches the Hopper family (csrc/kernels/sm90) for a canonical problem, with
// the tensor maps TMA reads and writes through.
#pragma once

#include <cuda.h>

#include <string>

#include "kernels/common/params.h"
#include "plan/gemm_tma.h"
#include "plan/sm90_heuristic.h"
#include "plan/split_k.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the family serves the problem's types: f16 or bf16 A and B in any majors, or f32 A and B
// under ASYNCGEMM_MATH_TF32 and e4m3 or e5m2 ones with both K-major (wgmma transposes 16-bit
// operands alone); any C and D type.
bool sm90_supports(const GemmParams &params, asyncgemm_math_t math);

// Why TMA cannot describe one of the problem's matrices (a base address not 16-byte aligned, a
// leading dimension or batch stride that is not a multiple of 16 bytes, an extent beyond TMA's
// 32-bit coordinates); empty when it can.  ALGO_AUTO then takes the pipelined family; the forced
// algorithm fails with MISALIGNED.
std::string sm90_tma_obstacle(const GemmParams &params);
// The same for C and D alone (A and B multiplied on copies, or not read).
std::string sm90_output_obstacle(const GemmParams &params);

// True when the family's 8-bit kernels apply the problem's block scales: A's of either granularity,
// B's per 128 columns (a warpgroup's columns then share one scale per K block), not per column.
bool sm90_serves_block_scales(const GemmParams &params);

// The maps of A, B and C or D (which share one shape rule) for configuration `config`.
TensorMap3d sm90_a_map(const GemmParams &params, int config);
TensorMap3d sm90_b_map(const GemmParams &params, int config);
TensorMap3d sm90_cd_map(const GemmParams &params, int64_t ld, int64_t batch_stride);

// Picks the configuration and split (the autotuner's where the handle tunes, plan/autotune.h; else
// sm90::choose_config and split_count) and launches it.  `params` must be sm90_supports() with no
// TMA obstacle.
void launch_sm90(const Handle &handle, const GemmParams &params, void *stream);

// Encodes the maps and launches `choice` (splits 0: the configuration's heuristic split) as a
// persistent grid of at most one block per SM on `stream`; NOT_SUPPORTED when the configuration has
// no kernel for the problem's types and majors.  A split launch takes its partials from the handle's
// workspace; where that cannot hold them (a capture without a lent workspace, one too small, no
// device memory) it runs unsplit instead.
void launch_sm90_choice(const Handle &handle, const GemmParams &params, KernelChoice choice, void *stream);

}  // namespace asyncgemm::plan
