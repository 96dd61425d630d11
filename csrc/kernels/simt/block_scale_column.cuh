// The scales an operand's k-slice is loaded with (tile_loader.cuh): a slice lies in one K block of
// the fp32 block scales (kernels/common/block_scale.h) and is one K block of the MX scales
// (kernels/common/mx_scale.h), so its scales are one column of the operand's, indexed by an
// element's x within the tile.  Each is small, as the loads run beside the accumulators.
#pragma once

#include <stdint.h>

#include "kernels/common/block_scale.h"
#include "kernels/common/mx_scale.h"

namespace asyncgemm::simt {

// The kinds of scales of a kernel (simt_kernels.def's scales word): none (16- and 32-bit inputs);
// 8-bit inputs with none, tensor or fp32 block scales; 8-bit inputs with MX scales.
enum class Scales { plain, scaled, mx };

template <typename T>
constexpr bool scales_fit(Scales scales) {
    return (scales == Scales::plain) == (sizeof(T) > 1);
}

// Inputs without block scales (every type but the 8-bit floats): scale 1, which folds away.
struct Unscaled {
    __device__ __forceinline__ float operator()(int) const { return 1.f; }
};

// The block scales of K block `kb` (128 of K) of one operand (rows of A or columns of B, from x0 of
// the tile on, a multiple of 128) in one batch; 1 where the operand has none.  Rows past the extent
// read the last row's scale: they are loaded as zeros, and their sums are never stored.  A pointer,
// the last row and a shift.
class BlockScaleColumn {
public:
    // scales: the operand's block scales (null: none); rows: the rows one covers (1 or 128); batched:
    // the operand's batch stride is non-zero, so each batch has scales of its own.
    __device__ __forceinline__ BlockScaleColumn(const float *scales, int32_t rows, int64_t extent, int64_t k,
                                                int64_t x0, int64_t batch, bool batched, int64_t kb)
        : last_(static_cast<int32_t>(min(extent - 1 - x0, static_cast<int64_t>(INT32_MAX)))), shift_(__ffs(rows) - 1) {
        if (scales != nullptr)
            column_ = scales + (batched ? batch * block_scale_count(extent, k, rows) : 0) +
                      block_scale_offset(x0, kb, extent, rows);
    }

    __device__ __forceinline__ float operator()(int x) const {
        return column_ != nullptr ? __ldg(column_ + (min(x, last_) >> shift_)) : 1.f;
    }

private:
    const float *column_ = nullptr;
    int32_t last_;   // the extent's last x, from x0
    int32_t shift_;  // log2 of the rows one scale covers (1 or 128)
};

// The MX scales of K block `kb` (32 of K) of one operand, from x0 of the tile on (one row tile of the
// scales), in one batch.  Rows past the extent read the tile's padding: they are loaded as zeros, and
// their sums are never stored.  A pointer.
class MxScaleColumn {
public:
    __device__ __forceinline__ MxScaleColumn(const uint8_t *scales, int64_t extent, int64_t k, int64_t x0,
                                             int64_t batch, bool batched, int64_t kb)
        : column_(scales + (batched ? batch * mx_scale_bytes(extent, k) : 0) +
                  mx_tile_offset(x0 / kMxTileRows, kb / kMxTileBlocks, k) + kb % kMxTileBlocks) {}

    __device__ __forceinline__ float operator()(int x) const {
        return __uint_as_float(ue8m0_float_bits(__ldg(column_ + mx_offset_in_tile(static_cast<uint32_t>(x), 0))));
    }

private:
    const uint8_t *column_;
};

}  // namespace asyncgemm::simt
