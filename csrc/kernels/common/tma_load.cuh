// TMA loads of the families that stage operands with the 128-byte swizzle (smem_descriptor.h): one
// box, and an operand's stage of a tile; a plain bulk copy; and the prefetch of a tensor map, for
// loads and stores alike.
#pragma once

#include <cuda.h>
#include <cuda/ptx>
#include <stdint.h>

#include "kernels/common/smem_descriptor.h"

namespace asyncgemm {

// cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes (cuda::ptx): the
// box of the 3-D map at {c0, c1, c2} into `dst`, counted as bytes on `landed`.  A box past the
// tensor's edge is zero-filled and still counts whole.
__device__ __forceinline__ void tma_load_box(void *dst, const CUtensorMap *map, int32_t c0, int32_t c1, int32_t c2,
                                             uint64_t *landed) {
    const int32_t coords[3] = {c0, c1, c2};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_shared, cuda::ptx::space_global, dst, map, coords, landed);
}

// cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes (cuda::ptx): `bytes` (a multiple of
// 16) from `src` (16-byte aligned) into `dst`, counted as bytes on `landed`; no tensor map.
__device__ __forceinline__ void bulk_load(void *dst, const void *src, uint32_t bytes, uint64_t *landed) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_shared, cuda::ptx::space_global, dst, src, bytes, landed);
}

// prefetch.tensormap: fetches the map (a __grid_constant__ parameter) into the descriptor cache, so
// the first TMA copy through it does not wait for it.  Before a grid-dependency wait, it overlaps the
// kernel before.
__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap *map) {
    asm volatile("prefetch.tensormap [%0];" : : "l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// One stage of an operand tile of Rows rows (M or N) from row0 and one 128-byte row of K from k0, of
// batch `batch`.  K-major, the map's boxes are {K per row, Rows}: one load.  MN-major (16-bit and
// f32 alike store a 128-byte row of M or N per K; 8-bit operands are K-major only), boxes of one such
// row by the K of a stage, laid side by side mn_block_bytes apart, as the MN-major descriptors read
// them.
template <int Rows, uint32_t ElementBytes>
__device__ __forceinline__ void tma_load_operand(char *dst, const CUtensorMap *map, bool k_major, int32_t row0,
                                                 int32_t k0, int32_t batch, uint64_t *landed) {
    if constexpr (ElementBytes == 1) {
        tma_load_box(dst, map, k0, row0, batch, landed);
    } else {
        if (k_major) {
            tma_load_box(dst, map, k0, row0, batch, landed);
            return;
        }
        constexpr int kRow = row_elements(ElementBytes);
        static_assert(Rows % kRow == 0, "an MN-major tile is whole 128-byte rows");
#pragma unroll
        for (int box = 0; box < Rows / kRow; ++box)
            tma_load_box(dst + box * mn_block_bytes(ElementBytes), map, row0 + box * kRow, k0, batch, landed);
    }
}

}  // namespace asyncgemm
