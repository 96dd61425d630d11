// Autotuning of the PIPELINED and SM90_TMA_WGMMA tile configurations (ASYNCGEMM_AUTOTUNE=1,
// asyncgemm_set_autotune): the first call of a shape bucket times every candidate kernel of the
// family on scratch buffers, and the winner serves every later call of the bucket, in this process
// and, through the disk cache (plan/autotune_cache.h, one file per family), in later ones.
#pragma once

#include "kernels/common/params.h"
#include "plan/split_k.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// The configuration (an index into sm80::kTileConfigs) and split for a PIPELINED launch of the
// canonical problem `params` on `stream`:
//  - the heuristic's (sm80::choose_config) when the handle does not autotune, k is 0, or one
//    configuration is the only candidate (every PIPELINED kernel the device can run is one, with
//    its heuristic split, sm80::splits_for);
//  - else the bucket's remembered winner;
//  - else, when `stream` is not being captured into a graph, the fastest candidate timed now (and
//    remembered); while it is, the heuristic's, remembered nowhere.
// Timing allocates its own buffers and never touches the caller's.  Nothing here fails the call: any
// error while tuning gives the heuristic's choice and leaves the bucket untuned.
KernelChoice pipelined_config(const Handle &handle, const GemmParams &params, void *stream);

// The same for an SM90_TMA_WGMMA launch, over the family's configurations (sm90::kTileConfigs, each
// with its heuristic split, sm90::split_count); f32 (tf32) problems take the heuristic's.
KernelChoice sm90_tuned_config(const Handle &handle, const GemmParams &params, void *stream);

}  // namespace asyncgemm::plan
