// How the benchmark measures one row: CUDA events around every launch, the median of many.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <cuda_runtime_api.h>

#include "gpu_monitor.h"

namespace bench {

// One row's measure, with what the GPU did during its timed runs where a monitor was given.
struct Timing {
    double median_ms = 0.0;
    std::optional<double> sm_mhz;             // mean SM clock, sampled every 10 ms once all are launched
    std::optional<double> mj_per_run;         // energy drawn from their first launch to the last event, per run
    std::optional<double> temperature_c;      // at their end, °C
};

// Median time in milliseconds of one launch.  launch(run) enqueues run number `run` on stream; runs
// are numbered 0, 1, 2, ... through warm-up and timed runs alike, so a caller can rotate its inputs by
// the number.  Warm-up lasts at least 5 runs and 1 s; then at least min_runs runs, and at least 1 s
// of them (up to 10,000 runs), are timed one by one.
// With a monitor, the GPU is also sampled while the timed runs run.
Timing time_runs(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch,
                 const GpuMonitor *monitor);
double median_ms(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch);

// The GPU time of one call of each contender, host overhead hidden, the contenders interleaved so
// that each sees the same clocks and power state.  A burst is timed at a time: the stream is held by
// a gate (a host function that waits) while a burst of one contender's calls is queued behind it,
// then released, so the calls run back to back and the events around the burst time the GPU alone;
// per call is the burst's time over its calls.  Warm-up lasts at least 0.5 s of all contenders'
// calls in turn; then rounds of one burst each are timed, at least min_bursts rounds and 0.5 s.
// Bursts hold up to 64 calls and 2 ms of work.  launches[i](run) enqueues contender i's run number
// `run`, counted per contender as in time_runs.  With a monitor, the mean SM clock over the timed
// rounds and the temperature at their end go to every contender's Timing (no energy: the
// contenders share the counter).
std::vector<Timing> time_bursts(cudaStream_t stream, int min_bursts,
                                const std::vector<std::function<void(int64_t run)>> &launches,
                                const GpuMonitor *monitor);

// The same with each contender's burst captured once into a CUDA graph (the runs numbered as its
// first burst's) and the graph replayed instead of the calls queued: per call is a replay's time
// over the calls it holds.  The libraries must capture cleanly (asyncgemm with a workspace of the
// caller's, to split as it does eagerly).
std::vector<Timing> time_graphs(cudaStream_t stream, int min_bursts,
                                const std::vector<std::function<void(int64_t run)>> &launches,
                                const GpuMonitor *monitor);

}  // namespace bench
