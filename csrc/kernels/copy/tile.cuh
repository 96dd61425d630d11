// Which part of src and dst one tile index covers, and how a thread walks its share of a tile.
#pragma once

#include <cuda/std/type_traits>
#include <stdint.h>

#include "kernels/common/params.h"
#include "kernels/copy/copy_tile.h"

namespace asyncgemm::copy {

// A tile's rectangle in a row-major matrix: its first element, and how many of its rows and columns
// lie inside the matrix (the rest of the tile is predicated off).  A ragged rectangle crosses the
// matrix's right edge, so some of its vectors are partly outside.
struct TileRect {
    int64_t row0, col0;
    int rows, cols;
    bool ragged;
};

// The same tile seen in src as stored (128 rows of 128 bytes) and in dst.
struct TileJob {
    TileRect src, dst;
};

__device__ __forceinline__ int64_t tile_count(const CopyParams &p) {
    return static_cast<int64_t>(p.tiles_rows) * p.tiles_cols;
}

// The consecutive tiles one block walks: first, first + 1, ..., count of them.
struct TileRun {
    int64_t first, count;

    __device__ __forceinline__ int64_t operator[](int64_t k) const { return first + k; }
};

// Block b takes tiles b * per_block .. (b + 1) * per_block - 1, the last block what is left.
__device__ __forceinline__ TileRun block_run(const CopyParams &p, int per_block) {
    const int64_t first = static_cast<int64_t>(blockIdx.x) * per_block;
    return {first, min(static_cast<int64_t>(per_block), tile_count(p) - first)};
}

template <int ElemBytes, bool Transpose>
__device__ __forceinline__ TileJob tile_job(const CopyParams &p, int64_t tile) {
    constexpr TileExtent extent = dst_tile_extent(ElemBytes, Transpose);
    TileRect dst;
    dst.row0 = tile / p.tiles_cols * extent.rows;
    dst.col0 = tile % p.tiles_cols * extent.cols;
    dst.rows = static_cast<int>(min(static_cast<int64_t>(extent.rows), p.rows - dst.row0));
    dst.cols = static_cast<int>(min(static_cast<int64_t>(extent.cols), p.cols - dst.col0));
    dst.ragged = dst.cols < extent.cols;
    if constexpr (!Transpose) return {dst, dst};
    return {{dst.col0, dst.row0, dst.cols, dst.rows, dst.rows < extent.rows}, dst};
}

// A row-major matrix in global memory, addressed in bytes (64-bit: a row offset alone can pass 2^31).
template <int ElemBytes, class Byte>
struct Matrix {
    Byte *base;
    int64_t ld_bytes;

    __device__ __forceinline__ Byte *origin(const TileRect &r) const {
        return base + r.row0 * ld_bytes + r.col0 * ElemBytes;
    }
};

template <int ElemBytes>
__device__ __forceinline__ Matrix<ElemBytes, const char> src_matrix(const CopyParams &p) {
    return {static_cast<const char *>(p.src), p.ld_src * ElemBytes};
}

template <int ElemBytes>
__device__ __forceinline__ Matrix<ElemBytes, char> dst_matrix(const CopyParams &p) {
    return {static_cast<char *>(p.dst), p.ld_dst * ElemBytes};
}

// Elements of a vector that lie inside a rectangle `cols` wide when the vector starts at `col`.
template <int Elems>
__device__ __forceinline__ int elems_inside(int cols, int col) {
    return max(0, min(Elems, cols - col));
}

// Loops over a thread's vectors of VecBytes unroll this far: 16 registers of data whatever the width
// (4 vectors of 16 bytes, 16 of 4 bytes or fewer: a tile of unaligned 16-bit rows is 64 two-byte
// loads a thread), which the single-stage kernels' register bound leaves room for.
template <int VecBytes>
inline constexpr int kVecsInFlight = VecBytes >= 4 ? 64 / VecBytes : 16;

// Whether a vector access may cross the matrix's right edge: Whole ones never do; a Ragged one moves
// only its elements inside (see load_vec and store_vec).
using Whole = cuda::std::true_type;
using Ragged = cuda::std::false_type;

// Runs body(i, Whole{}) for i in [0, N), kUnroll iterations deep, or body(i, Ragged{}) one at a time
// when the tile crosses the right edge.  Only one tile column of a matrix is ragged: the rare case
// runs slower code rather than every tile carrying its registers.
template <int N, int kUnroll, class Body>
__device__ __forceinline__ void for_each_vector(bool ragged, Body &&body) {
    if (!ragged) {
#pragma unroll kUnroll
        for (int i = 0; i < N; ++i) body(i, Whole{});
    } else {
#pragma unroll 1
        for (int i = 0; i < N; ++i) body(i, Ragged{});
    }
}

// A thread's share of a tile moved vector by vector along its rows: one column of vectors, every
// kRowStep-th row.  Consecutive lanes take consecutive vectors of a row, so global accesses coalesce
// into whole lines and shared-memory accesses along a row never conflict, in any layout.
template <int VecBytes>
struct RowSlice {
    static constexpr int kVecsPerRow = kTileRowBytes / VecBytes;
    static constexpr int kRowStep = kThreads / kVecsPerRow;
    static constexpr int kCount = kTileRows / kRowStep;
    static_assert(kThreads % kVecsPerRow == 0, "a row's vectors are spread over whole lanes");

    int first_row, col_bytes;

    __device__ __forceinline__ explicit RowSlice(int thread)
        : first_row(thread / kVecsPerRow), col_bytes(thread % kVecsPerRow * VecBytes) {}
    __device__ __forceinline__ int row(int i) const { return first_row + i * kRowStep; }
};

}  // namespace asyncgemm::copy
