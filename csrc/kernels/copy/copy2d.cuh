// The copy family's entry points: ASYNCGEMM_COPY_KERNEL turns each line of copy_kernels.def into an
// extern "C" kernel of its algorithm, op and element size.  This header is a translation unit's
// whole content but for its kernel lines (the build writes one unit per algorithm).
//
// Launch bounds: the single-stage kernels hide latency with resident blocks, so they keep registers
// low enough for kSingleStageBlocks per SM; the ring kernels are bounded by shared memory (a few
// blocks per SM) and may use what that leaves; the row copy, all threads and no shared memory, keeps
// kRowsBlocksPerSm blocks an SM, and so does the widening copy.
#pragma once

#include "kernels/copy/copy_async.cuh"
#include "kernels/copy/copy_pipelined.cuh"
#include "kernels/copy/copy_rows.cuh"
#include "kernels/copy/copy_sync.cuh"
#include "kernels/copy/copy_tma.cuh"
#include "kernels/copy/copy_widen.cuh"

namespace asyncgemm::copy {
inline constexpr int kSingleStageBlocks = 6;
inline constexpr int kRingBlocks = 3;
}  // namespace asyncgemm::copy

// What the algorithm word of a kernel line means to the kernel (copy_tile.h gives the others).
#define ASYNCGEMM_COPY_PARAMS_sync const asyncgemm::CopyParams
#define ASYNCGEMM_COPY_PARAMS_async const asyncgemm::CopyParams
#define ASYNCGEMM_COPY_PARAMS_pipelined const asyncgemm::CopyParams
#define ASYNCGEMM_COPY_PARAMS_tma const __grid_constant__ asyncgemm::CopyTmaParams
#define ASYNCGEMM_COPY_PARAMS_rows const asyncgemm::CopyParams
#define ASYNCGEMM_COPY_PARAMS_widen const asyncgemm::WidenParams
#define ASYNCGEMM_COPY_BLOCKS_sync asyncgemm::copy::kSingleStageBlocks
#define ASYNCGEMM_COPY_BLOCKS_async asyncgemm::copy::kSingleStageBlocks
#define ASYNCGEMM_COPY_BLOCKS_pipelined asyncgemm::copy::kRingBlocks
#define ASYNCGEMM_COPY_BLOCKS_tma asyncgemm::copy::kRingBlocks
#define ASYNCGEMM_COPY_BLOCKS_rows asyncgemm::copy::kRowsBlocksPerSm
#define ASYNCGEMM_COPY_BLOCKS_widen asyncgemm::copy::kRowsBlocksPerSm

#define ASYNCGEMM_COPY_KERNEL(ALGO, OP, BITS)                                                                  \
    extern "C" __global__ void __launch_bounds__(asyncgemm::copy::kThreads, ASYNCGEMM_COPY_BLOCKS_##ALGO)      \
        asyncgemm_copy2d_##ALGO##_##OP##_##BITS(ASYNCGEMM_COPY_PARAMS_##ALGO p) {                              \
        asyncgemm::copy::copy2d_##ALGO<ASYNCGEMM_COPY_BYTES_##BITS, ASYNCGEMM_COPY_TRANSPOSE_##OP>(p);         \
    }
