// The MX scales of 8-bit inputs (ASYNCGEMM_SCALE_MX_32, the OCP microscaling format's MXFP8; the
// header documents them for the caller): one UE8M0 byte, a power of two 2^(e - 127), per row of an
// operand (of B, column) and 32 elements of K, stored as cuBLASLt's VEC32_UE8M0 and PyTorch's
// blocked scales are: tiles of 128 rows by 4 K blocks (512 bytes), row tiles outermost, the K tiles
// of a row tile one after another, and inside a tile the byte of row r and K block j at
// (r % 32) * 16 + (r / 32) * 4 + j.  A tile is exactly what tcgen05.cp .32x128b.warpx4 copies into
// the 32 lanes x 4 columns of tensor memory that tcgen05.mma .kind::mxf8f6f4.block_scale reads the
// scales of a 128-row operand tile and 128 of K from.  Extents past the matrix are padded to whole
// tiles: the padding's values scale no element of D, but the tensor core sums the products of a whole
// tile's K blocks, so a 0xFF (NaN) byte in the K blocks past K of the last tile would reach D (the
// header asks the caller for none there).  A batch's scales follow the batch
// before it, where the operand itself is batched (its stride non-zero).
//
// Plain C++17: the planner, the kernels that apply them and the host tests share these numbers.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

inline constexpr int kMxBlockK = 32;                                          // elements of K per scale
inline constexpr int kMxTileRows = 128;                                       // rows (of B, columns) per tile
inline constexpr int kMxTileBlocks = 4;                                       // K blocks per tile
inline constexpr int kMxTileK = kMxBlockK * kMxTileBlocks;                    // 128 of K per tile
inline constexpr int kMxTileBytes = kMxTileRows * kMxTileBlocks;              // 512
inline constexpr int kMxScaleAlignment = 16;                                  // bytes: cp.async.bulk's

// Tiles of K of an operand with k elements of K.
ASYNCGEMM_HOST_DEVICE constexpr int64_t mx_k_tiles(int64_t k) { return (k + kMxTileK - 1) / kMxTileK; }

// Bytes of one problem's scales of an operand of `extent` rows (columns of B).
ASYNCGEMM_HOST_DEVICE constexpr int64_t mx_scale_bytes(int64_t extent, int64_t k) {
    return (extent + kMxTileRows - 1) / kMxTileRows * mx_k_tiles(k) * kMxTileBytes;
}

// The byte of the tile (row tile `row_tile`, K tile `k_tile`), within one problem's scales.
ASYNCGEMM_HOST_DEVICE constexpr int64_t mx_tile_offset(int64_t row_tile, int64_t k_tile, int64_t k) {
    return (row_tile * mx_k_tiles(k) + k_tile) * kMxTileBytes;
}

// The byte of row x and K block kb inside their tile (0 <= x < 128, 0 <= kb < 4): (x % 32) * 16 +
// (x / 32) * 4 + kb, in bit operations (the SIMT kernels compute it beside their accumulators).
ASYNCGEMM_HOST_DEVICE constexpr uint32_t mx_offset_in_tile(uint32_t x, uint32_t kb) {
    return ((x & 31u) << 4) | ((x >> 3) & 12u) | kb;
}

// The byte of the scale of row x (column of B) and K block kb (elements 32 kb .. 32 kb + 31 of K).
ASYNCGEMM_HOST_DEVICE constexpr int64_t mx_scale_offset(int64_t x, int64_t kb, int64_t k) {
    return mx_tile_offset(x / kMxTileRows, kb / kMxTileBlocks, k) +
           mx_offset_in_tile(static_cast<uint32_t>(x % kMxTileRows), static_cast<uint32_t>(kb % kMxTileBlocks));
}

// The fp32 bits of the UE8M0 scale e: 2^(e - 127), NaN for 0xFF (OCP MX v1.0, "E8M0").  The exponent
// field is e itself but for its two ends, which the top mantissa bit completes: e = 0 into 2^-127, an
// fp32 subnormal, and e = 0xFF into the quiet NaN.
ASYNCGEMM_HOST_DEVICE constexpr uint32_t ue8m0_float_bits(uint32_t e) {
    return (e << 23) | (e == 0u || e == 0xFFu ? 0x00400000u : 0u);
}

}  // namespace asyncgemm
