#include "plan/split_scratch.h"

#include "plan/split_k.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {

bool launch_with_split_scratch(const Handle &handle, const GemmParams &params, int64_t tiles, int tile_m, int tile_n,
                               void *stream, const std::function<void(const GemmParams &)> &launch) {
    const WorkspaceNeed need = split_workspace(tiles, params.splits, tile_m, tile_n, 1);
    return handle.workspace().run(static_cast<size_t>(need.counters), static_cast<size_t>(need.partial_bytes),
                                  static_cast<CUstream_st *>(stream), [&](Workspace::Lease lease) {
                                      GemmParams p = params;
                                      p.partials = lease.partials;
                                      p.tile_counters = lease.counters;
                                      launch(p);
                                  });
}

}  // namespace asyncgemm::plan
