// ALGO_SM100_TCGEN05: launches the Blackwell family (csrc/kernels/sm100) for a canonical problem.
#pragma once

#include <string>

#include "asyncgemm.h"
#include "kernels/common/params.h"
#include "kernels/sm100/sm100_params.h"
#include "plan/gemm_tma.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the family serves the problem's types: f16 or bf16 A and B, or f32 ones under
// ASYNCGEMM_MATH_TF32, in any majors (tcgen05's instruction descriptor has a major bit per operand);
// any C and D type.
bool sm100_supports(const GemmParams &params, asyncgemm_math_t math);

// Why TMA cannot describe A or B (alignment, leading dimension, batch stride, 32-bit extents);
// empty when it can.  C and D go through TMA only where they can (see launch_sm100).
std::string sm100_tma_obstacle(const GemmParams &params);

// True when C enters the accumulator (tcgen05.cp) rather than the epilogue: C is f32 (the layout
// tcgen05.cp copies), TMA can describe it, and there is a product to add it to (alpha != 0, k > 0).
bool sm100_seeds_c(const GemmParams &params);

// The kernel's parameter block for the problem, but for its tensor maps; the tests check it.
Sm100Params sm100_params(const GemmParams &params);

// The maps of A and B (one stage of 128 rows each) and of C when it is seeded (boxes of 32 x 128).
TensorMap3d sm100_a_map(const GemmParams &params);
TensorMap3d sm100_b_map(const GemmParams &params);
TensorMap3d sm100_c_map(const GemmParams &params);

// Launches the family's kernel for the problem's input types on `stream`: a persistent grid of one
// block per SM at most.  When C is f32, beta != 0, alpha != 0 and TMA can describe C, the C tile is
// loaded into the accumulator (tcgen05.cp) before the MMAs; otherwise the epilogue applies it.
// `params` must be sm100_supports() with no TMA obstacle; the self-check (plan/self_check.h) is the
// caller's business.
void launch_sm100(const Handle &handle, const GemmParams &params, void *stream);

}  // namespace asyncgemm::plan
