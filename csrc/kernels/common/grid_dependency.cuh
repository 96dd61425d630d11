// Programmatic dependent launch (sm_90 and later): a kernel launched with programmatic stream
// serialization may be scheduled once every block of the kernel ahead of it in the stream has
// exited, before that grid has completed (its memory flushed, the launch retired).  Its blocks do
// what set-up they have meanwhile (the Hopper kernels' barriers and tensor-map prefetches) and wait
// before their first access of global memory, so a kernel queued behind another pays less of the
// launch's ramp.  Every kernel of the families family_overlaps_prior_grids names calls
// wait_for_prior_grids before it touches global memory; the runtime launches a kernel so only where
// its code was compiled for the virtual architecture compute_90 or later (runtime/handle.cpp): for an
// older one the wait is nothing.
//
// The kernels never trigger their dependants early (griddepcontrol.launch_dependents): each block's
// exit is its trigger.  Triggering at the start let the next kernel's blocks sit waiting on SMs a
// short grid leaves idle, and cost split-K launches 8-17% on an H100 (bench/RESULTS.md), where
// waiting alone made them 2-7% faster.
#pragma once

namespace asyncgemm {

// griddepcontrol.wait (cudaGridDependencySynchronize): blocks until the grids this one depends on in
// the stream have completed and their writes are visible to it; returns at once where there are none
// or the launch was ordinary.  Compiled for an architecture before sm_90, nothing.
__device__ __forceinline__ void wait_for_prior_grids() {
#if __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

}  // namespace asyncgemm
