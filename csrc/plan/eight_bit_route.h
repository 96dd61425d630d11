// Where a product of 8-bit float inputs (e4m3, e5m2) runs: the family, and whether it multiplies
// f16 copies of A and B (plan/widened_inputs.h) or the 8-bit inputs themselves.  A pure function of
// the families that run on the device and of the problem, so the host unit tests cover every case
// (tests/unit/test_eight_bit_route.cpp); plan/gemm_plan.cpp checks the refusals of a named algorithm
// first and launches the route.
#pragma once

#include "asyncgemm.h"
#include "kernels/common/params.h"

namespace asyncgemm::plan {

// The tensor-core GEMM families that run on the device (SM100_TCGEN05: once its self-check passed;
// sm100_mx: and that of its MX-scaled products); SIMT runs everywhere.
struct EightBitFamilies {
    bool sm100 = false, sm90 = false, pipelined = false;
    bool sm100_mx = false;
};

struct EightBitRoute {
    asyncgemm_algo_t family;
    bool widened;  // on f16 copies; false: the family's own 8-bit kernels
};

// The 8-bit kernels read K-major operands alone, through TMA: SM100_TCGEN05's (kind::f8f6f4, or
// kind::mxf8f6f4.block_scale with MX scales; one format; no fp32 block scales) on
// Blackwell, else SM90_TMA_WGMMA's (wgmma's 8-bit kinds, e4m3 and e5m2 in any pair; C and D through
// TMA too; fp32 block scales where B's are not per column, no MX scales) on Hopper; SIMT's read any,
// and apply any scales.  Block- and MX-scaled products the tensor-core kernels cannot take run on
// SIMT.  Every other case runs on f16 copies: with the family `algo` names, or for AUTO
// SM90_TMA_WGMMA where TMA describes C and D, else PIPELINED, else SIMT on the inputs themselves.
// (Where the route is SM90_TMA_WGMMA on copies, plan::gemm first tries its 8-bit kernels on K-major
// 8-bit copies of the MN-major operands: plan/sm90_copies.h.)
// `algo` named has passed its refusals (a named SM100_TCGEN05 then always has its own route, and no
// tensor-core family but SM90_TMA_WGMMA is named with block scales).
EightBitRoute eight_bit_route(const EightBitFamilies &families, asyncgemm_algo_t algo, const GemmParams &params);

// Whether SM100_TCGEN05's 8-bit kernels would take the problem with `algo` (AUTO or the family),
// given that the family runs (and, with MX scales, passed their check): the route's one test of
// everything else, which the caller uses to run the self-checks only where they can matter.
bool sm100_takes(asyncgemm_algo_t algo, const GemmParams &params);

}  // namespace asyncgemm::plan
