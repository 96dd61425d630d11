// GEMM planning: which algorithm serves a call, and the launch that runs it.
#pragma once

#include "asyncgemm.h"
#include "plan/gemm_args.h"
#include "plan/split_k.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the algorithm's kernels are built into this library and loaded for the handle's device,
// and, for ALGO_SM100_TCGEN05, its self-check passed there or ASYNCGEMM_SM100=on (decided now if it
// never was, plan/self_check.h).
bool algo_available(const Handle &handle, asyncgemm_algo_t algo);

// Validates, chooses the algorithm (args.algo, or the best available one for AUTO), and launches on
// `stream`.  Throws Error without launching anything when the call cannot be served.
void gemm(const Handle &handle, const GemmArgs &args, void *stream);

// The GPU kernel tests' way to a kernel (not exported; the shipped library reaches kernels through
// gemm alone): `args`, checked as gemm checks it, is served by the family of args.algo with tile
// configuration choice.config, K cut into choice.splits ranges (0: that configuration's heuristic
// split; families that never split ignore it).  NOT_SUPPORTED when the family has no such
// configuration, no kernel of it for the problem's types and majors, or none that runs on the
// handle's device: a forced configuration never falls back to another.
void gemm_with_config(const Handle &handle, const GemmArgs &args, KernelChoice choice, void *stream);

}  // namespace asyncgemm::plan
