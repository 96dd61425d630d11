// Programmatic dependent launch (sm_90 and later): a kernel launched with programmatic stream
// serialization (runtime/handle.cpp, for the families family_overlaps_prior_grids names) may start
// while the kernel before it in the stream is still running, once that one allows it.  The new
// kernel's blocks then do their set-up (barriers, tensor-map prefetches) on SMs the old one has left,
// and wait before their first access of global memory; back-to-back GEMMs lose one launch's ramp
// instead of paying it every call.
#pragma once

namespace asyncgemm {

// griddepcontrol.wait (cudaGridDependencySynchronize): blocks until the grids this one depends on in
// the stream have completed and their writes are visible to it; returns at once where there are none
// or the launch was ordinary.
__device__ __forceinline__ void wait_for_prior_grids() { cudaGridDependencySynchronize(); }

// griddepcontrol.launch_dependents (cudaTriggerProgrammaticLaunchCompletion): lets the next kernel in
// the stream, if launched to overlap, be scheduled before this grid ends.  It still waits for this
// grid's completion before touching memory (wait_for_prior_grids), so this may come at any point.
__device__ __forceinline__ void allow_dependent_grids() { cudaTriggerProgrammaticLaunchCompletion(); }

}  // namespace asyncgemm
