// How the benchmark measures one row: CUDA events around every launch, the median of many.
#pragma once

#include <cstdint>
#include <functional>

#include <cuda_runtime_api.h>

namespace bench {

// Median time in milliseconds of one launch.  launch(run) enqueues run number `run` on stream; runs
// are numbered 0, 1, 2, ... through warm-up and timed runs alike, so a caller can rotate its inputs by
// the number.  Warm-up lasts at least 5 runs and 1 s; then at least min_runs runs, and at least 1 s
// of them (up to 10,000 runs), are timed one by one.
double median_ms(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch);

}  // namespace bench
