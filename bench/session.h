// What every benchmark row needs from the run: where to launch, what to compare with, how to measure.
#pragma once

#include <cstddef>
#include <random>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "cublas_loader.h"
#include "cublaslt_loader.h"
#include "gpu_monitor.h"
#include "progress.h"

namespace bench {

// How a row is timed (bench/README.md): each launch between its own events, host overhead included
// where it exceeds the GPU's work; bursts queued behind a gate, GPU time alone, the contenders
// interleaved (timing.h's time_bursts); or bursts captured into CUDA graphs and replayed, as
// inference engines run their calls (time_graphs).
enum class TimingMode { events, bursts, graphs };

const char *timing_name(TimingMode mode);

struct Session {
    cudaStream_t stream;      // every launch and transfer, asyncgemm's and cuBLAS's alike
    asyncgemm_handle_t handle;
    const Cublas *cublas;     // null: no cuBLAS rows, no ratios, no errors
    const CublasLt *cublaslt;  // the reference of workloads with an epilogue; null: cuBLAS's plain GEMM
    const GpuMonitor *monitor;  // null: no clock, energy or temperature columns
    std::size_t l2_bytes;
    int min_runs;             // timed runs per row (events), or timed rounds of bursts (bursts)
    TimingMode timing;
    std::mt19937_64 &rng;     // every input of the run, in order, from the printed seed
    Progress &progress;
};

}  // namespace bench
