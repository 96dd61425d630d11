// TF32 products whose f32 operands are not both K-major, on Hopper: wgmma reads tf32 K-major only,
// so ALGO_AUTO first transposes each MN-major operand into K-major scratch (asyncgemm_copy2d's
// transposing kernel) and runs the Hopper family on the copies, instead of falling back to fp32 FMA
// (on H100, 4096³ row-major A·B: about 0.13x cuBLAS TF32 as SIMT).
#pragma once

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// The problem as the Hopper family then sees it: both operands K-major, each MN-major one replaced by
// its copy at `a_copy` / `b_copy` (leading dimension k rounded up to 16 bytes, one matrix for every
// batch); C, D and the K-major operands untouched.
GemmParams with_k_major_copies(const GemmParams &params, const void *a_copy, const void *b_copy);

// True when AUTO may serve the problem this way: f32 A and B in TF32 math mode, at least one of them
// MN-major, the Hopper family loaded, one batch or MN-major operands broadcast to every batch (one
// copy each), and C and D as TMA needs them.  The operands themselves may have any alignment.
bool tf32_transposable(const Handle &handle, const GemmParams &params);

// Transposes the MN-major operands into the handle's workspace and runs the Hopper family on them,
// unsplit (the workspace holds the copies), all on `stream`.  Returns false, launching nothing,
// while the stream is being captured: the caller then takes another algorithm.
bool launch_sm90_transposed(const Handle &handle, const GemmParams &params, void *stream);

}  // namespace asyncgemm::plan
