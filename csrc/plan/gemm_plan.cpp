#include "plan/gemm_plan.h"

#include <string>

#include "common/error.h"
#include "plan/simt_plan.h"

namespace asyncgemm::plan {
namespace {

// The family behind each algorithm; Family::Count where this version has none.
Family family_of(asyncgemm_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_ALGO_SIMT: return Family::Simt;
    default: return Family::Count;
    }
}

// The fastest available algorithm for the problem.  Today only SIMT exists; the tensor-core
// families take over f16/bf16 (and TF32) as they are added.
asyncgemm_algo_t choose_auto(const Handle &handle) {
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
    asyncgemm_algo_t algo = args.algo;
    if (algo == ASYNCGEMM_ALGO_AUTO) {
        algo = choose_auto(handle);
    } else if (!algo_available(handle, algo)) {
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(algo)) + " is not available on " +
                                                 handle.device().name + " in this build");
    }
    if (is_empty(args)) return;
    const GemmParams params = canonicalize(args);
    switch (algo) {
    case ASYNCGEMM_ALGO_SIMT: launch_simt(handle, params, stream); return;
    default: fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string("no launcher for ") + algo_name(algo));
    }
}

}  // namespace asyncgemm::plan
