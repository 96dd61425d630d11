// The copy family: asyncgemm_copy2d_<algorithm>_<op>_<element bits>, one kernel per algorithm,
// transpose or not, and element size (f16 and bf16 share theirs: only alpha != 1 reads the dtype).
// The vector width and the shared-memory layout are run-time parameters (CopyParams::vec, ::layout).
// The order of kernels here is the order of csrc/plan/copy_plan.cpp's table.
//
// Launch bounds: the single-stage kernels hide latency with resident blocks, so they keep registers
// low enough for kSingleStageBlocks per SM; the ring kernels are bounded by shared memory (a few
// blocks per SM) and may use what that leaves.
#include "kernels/copy/copy_async.cuh"
#include "kernels/copy/copy_pipelined.cuh"
#include "kernels/copy/copy_sync.cuh"
#include "kernels/copy/copy_tma.cuh"

using asyncgemm::CopyParams;
using asyncgemm::CopyTmaParams;
using namespace asyncgemm::copy;

namespace {
constexpr int kSingleStageBlocks = 6;
constexpr int kRingBlocks = 3;
}  // namespace

extern "C" {

__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_sync_n_b16(const CopyParams p) {
    copy2d_sync<2, false>(p);
}
__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_sync_n_b32(const CopyParams p) {
    copy2d_sync<4, false>(p);
}
__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_sync_t_b16(const CopyParams p) {
    copy2d_sync<2, true>(p);
}
__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_sync_t_b32(const CopyParams p) {
    copy2d_sync<4, true>(p);
}

__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_async_n_b16(const CopyParams p) {
    copy2d_async<2, false>(p);
}
__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_async_n_b32(const CopyParams p) {
    copy2d_async<4, false>(p);
}
__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_async_t_b16(const CopyParams p) {
    copy2d_async<2, true>(p);
}
__global__ void __launch_bounds__(kThreads, kSingleStageBlocks) asyncgemm_copy2d_async_t_b32(const CopyParams p) {
    copy2d_async<4, true>(p);
}

__global__ void __launch_bounds__(kThreads, kRingBlocks) asyncgemm_copy2d_pipelined_n_b16(const CopyParams p) {
    copy2d_pipelined<2, false>(p);
}
__global__ void __launch_bounds__(kThreads, kRingBlocks) asyncgemm_copy2d_pipelined_n_b32(const CopyParams p) {
    copy2d_pipelined<4, false>(p);
}
__global__ void __launch_bounds__(kThreads, kRingBlocks) asyncgemm_copy2d_pipelined_t_b16(const CopyParams p) {
    copy2d_pipelined<2, true>(p);
}
__global__ void __launch_bounds__(kThreads, kRingBlocks) asyncgemm_copy2d_pipelined_t_b32(const CopyParams p) {
    copy2d_pipelined<4, true>(p);
}

__global__ void __launch_bounds__(kThreads, kRingBlocks)
asyncgemm_copy2d_tma_n_b16(const __grid_constant__ CopyTmaParams p) {
    copy2d_tma<2, false>(p);
}
__global__ void __launch_bounds__(kThreads, kRingBlocks)
asyncgemm_copy2d_tma_n_b32(const __grid_constant__ CopyTmaParams p) {
    copy2d_tma<4, false>(p);
}
__global__ void __launch_bounds__(kThreads, kRingBlocks)
asyncgemm_copy2d_tma_t_b16(const __grid_constant__ CopyTmaParams p) {
    copy2d_tma<2, true>(p);
}
__global__ void __launch_bounds__(kThreads, kRingBlocks)
asyncgemm_copy2d_tma_t_b32(const __grid_constant__ CopyTmaParams p) {
    copy2d_tma<4, true>(p);
}

}  // extern "C"
