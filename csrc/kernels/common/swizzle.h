// XOR swizzle of 16-byte chunks in shared-memory tiles whose rows are a multiple of 128 bytes.
//
// Shared memory has 32 banks of 4 bytes: a 128-byte span touches each once.  ldmatrix reads eight
// 16-byte rows (one per lane of an octet) at the same logical chunk of eight consecutive tile rows;
// unswizzled, rows a multiple of 128 bytes apart put all eight in the same four banks (8-way
// conflict).  Storing chunk c of row r at chunk c ^ (r mod 8) of that row sends the eight reads to
// eight distinct 16-byte bank groups, and keeps every 16-byte cp.async destination whole.  The XOR
// changes only the low three bits of c, so a chunk stays inside its 128-byte span of the row.
#pragma once

#include "kernels/common/host_device.h"

namespace asyncgemm {

inline constexpr int kSwizzleChunkBytes = 16;
inline constexpr int kSwizzleRows = 8;  // rows in one swizzle period: 8 x 16 bytes cover the 32 banks

// Physical chunk in its row of logical chunk `chunk` of row `row`.
ASYNCGEMM_HOST_DEVICE constexpr int swizzled_chunk(int row, int chunk) { return chunk ^ (row % kSwizzleRows); }

// Byte offset in a tile of rows `row_chunks` chunks long (a multiple of 8) of logical chunk `chunk`
// of row `row`.
ASYNCGEMM_HOST_DEVICE constexpr int swizzled_offset(int row, int chunk, int row_chunks) {
    return (row * row_chunks + swizzled_chunk(row, chunk)) * kSwizzleChunkBytes;
}

}  // namespace asyncgemm
