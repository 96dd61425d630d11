#include "plan/gemm_plan.h"

#include <string>

#include "common/error.h"
#include "plan/simt_plan.h"
#include "plan/sm80_plan.h"
#include "plan/sm90_plan.h"

namespace asyncgemm::plan {
namespace {

// The family behind each algorithm; Family::Count where this version has none.
Family family_of(asyncgemm_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_ALGO_SIMT: return Family::Simt;
    case ASYNCGEMM_ALGO_ASYNC_COPY:
    case ASYNCGEMM_ALGO_PIPELINED: return Family::Sm80;
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: return Family::Sm90;
    default: return Family::Count;
    }
}

// The fastest available algorithm for the problem: for 16-bit inputs (and K-major f32 ones in TF32
// mode) TMA + wgmma on Hopper where TMA can describe the matrices, else mma.sync for 16-bit inputs;
// fp32 FMA otherwise (and wherever no tensor-core family loaded).
asyncgemm_algo_t choose_auto(const Handle &handle, const GemmParams &params) {
    if (sm90_supports(params, handle.math_mode()) && algo_available(handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA) &&
        sm90_tma_obstacle(params).empty())
        return ASYNCGEMM_ALGO_SM90_TMA_WGMMA;
    if (sm80_supports(params) && algo_available(handle, ASYNCGEMM_ALGO_PIPELINED)) return ASYNCGEMM_ALGO_PIPELINED;
    if (algo_available(handle, ASYNCGEMM_ALGO_SIMT)) return ASYNCGEMM_ALGO_SIMT;
    fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "no GEMM algorithm can run on " + handle.device().name);
}

}  // namespace

bool algo_available(const Handle &handle, asyncgemm_algo_t algo) {
    if (algo == ASYNCGEMM_ALGO_AUTO) return algo_available(handle, ASYNCGEMM_ALGO_SIMT);
    const Family family = family_of(algo);
    return family != Family::Count && handle.family_available(family);
}

void gemm(const Handle &handle, const GemmArgs &args, void *stream) {
    validate(args);
    if (args.algo != ASYNCGEMM_ALGO_AUTO && !algo_available(handle, args.algo))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(args.algo)) + " is not available on " +
                                                 handle.device().name + " in this build");
    const GemmParams params = canonicalize(args);
    const asyncgemm_algo_t algo = args.algo == ASYNCGEMM_ALGO_AUTO ? choose_auto(handle, params) : args.algo;
    if (family_of(algo) == Family::Sm80 && !sm80_supports(params))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(algo)) + " needs f16 or bf16 A and B (got " +
                                                 dtype_name(params.type_ab) + ")");
    if (family_of(algo) == Family::Sm90) {
        if (!sm90_supports(params, handle.math_mode()))
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED,
                 std::string(algo_name(algo)) + " needs f16 or bf16 A and B, or f32 ones in TF32 math mode with "
                                                "both operands K-major (got " + dtype_name(params.type_ab) + ")");
        const std::string obstacle = sm90_tma_obstacle(params);
        if (!obstacle.empty())
            fail(ASYNCGEMM_STATUS_MISALIGNED, std::string(algo_name(algo)) + " loads and stores through TMA, but " +
                                                  obstacle);
    }
    if (is_empty(args)) return;
    switch (algo) {
    case ASYNCGEMM_ALGO_SIMT: launch_simt(handle, params, stream); return;
    case ASYNCGEMM_ALGO_ASYNC_COPY:
    case ASYNCGEMM_ALGO_PIPELINED: launch_sm80(handle, params, algo, stream); return;
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: launch_sm90(handle, params, stream); return;
    default: fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string("no launcher for ") + algo_name(algo));
    }
}

}  // namespace asyncgemm::plan
