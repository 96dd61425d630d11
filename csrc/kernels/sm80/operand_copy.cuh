// Global -> shared copy of one operand's K-slices into swizzled tiles (sm80_config.h's layout).
//
// The tile is stored as it lies in global memory: rows of 16-byte chunks along the contiguous
// dimension (k for a K-major operand, x for an MN-major one).  A thread copies chunks
// copy_chunks_per_thread apart by threads, which is a whole number of rows (threads is a multiple of
// row_chunks), so all its chunks share one column and one swizzle: per slice, the thread's state is
// one source pointer and how many rows and columns remain inside the matrix.
//
// A thread whose chunks of a slice all lie whole inside the matrix, 16-byte aligned, copies each
// with one cp.async and no checks.  Otherwise it goes chunk by chunk, and tails are zero-filled (a
// product over k past K must add zeros, whatever lies in memory there): a chunk whose source is
// 16-byte aligned is one cp.async; 8- and 4-byte aligned vectors split it into 8- and 4-byte
// cp.async; 16-bit elements aligned to 2 bytes only, and a vector the matrix's row ends inside, load
// element by element and store through registers.  T is f16, bf16 or f32 (tf32 kernels, K-major):
// the layout is the same bytes either way, a chunk holding 8 or 4 elements.
#pragma once

#include <stdint.h>

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_config.h"

namespace asyncgemm::sm80 {

template <typename T, int Config, int TileX>
class OperandCopy {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kChunk = kSwizzleChunkBytes / static_cast<int>(sizeof(T));  // elements per chunk
    static constexpr int kSlice = kC.tile_k * kElementBytes / static_cast<int>(sizeof(T));  // K per slice
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
    static constexpr int kChunksPerThread = copy_chunks_per_thread(kC, TileX);
    // Bytes between a thread's chunks: threads chunks, whole rows a multiple of kSwizzleRows apart
    // (is_valid), so every chunk of the thread has the same swizzle.
    static constexpr int kThreads = threads(kC);
    static constexpr int kDstChunkStep = kThreads * kSwizzleChunkBytes;

public:
    // Operand with `x_extent` rows (m or n) and `k` columns, starting at element `base` of the batch,
    // of which this block's tiles start at x = x0, k = k0 (the first K-slice of its split).
    __device__ __forceinline__ OperandCopy(const T *base, int64_t ld, bool k_major, int64_t x_extent, int64_t k,
                                           int64_t x0, int64_t k0, int vec, int thread)
        : vec_(vec) {
        const OperandLayout layout = operand_layout(TileX, kC.tile_k, k_major);
        const int row = thread / layout.row_chunks;
        const int chunk = thread % layout.row_chunks;
        const int row_step = kThreads / layout.row_chunks;
        // Global (row, column) of the thread's first chunk; rows and columns are the tile's.
        const int64_t first_row = (k_major ? x0 : k0) + row;
        const int64_t first_col = (k_major ? k0 : x0) + static_cast<int64_t>(chunk) * kChunk;
        src_ = base + first_row * ld + first_col;
        fallback_ = base;
        row_stride_ = static_cast<int64_t>(row_step) * ld;
        rows_left_ = (k_major ? x_extent : k) - first_row;
        cols_left_ = (k_major ? k : x_extent) - first_col;
        slice_step_ = k_major ? kSlice : kSlice * ld;
        k_major_ = k_major;
        dst_offset_ = static_cast<uint32_t>(swizzled_offset(row, chunk, layout.row_chunks));
        row_step_ = row_step;
    }

    // Copies the next K-slice into the shared tile `tile` (cp.async: commit and wait before
    // reading), then steps to the slice after it.  Every thread of a block whose chunks all lie
    // whole inside the matrix (all but the edge tiles and the last slice) takes the first branch:
    // one unpredicated 16-byte cp.async and one pointer step per chunk.
    __device__ __forceinline__ void copy(char *tile) {
        const bool whole = vec_ == kChunk && (kChunksPerThread - 1) * row_step_ < rows_left_ && cols_left_ >= kChunk;
        if (whole) {
            copy_whole_slice(smem_addr(tile) + dst_offset_);
        } else {
            switch (vec_ * static_cast<int>(sizeof(T))) {  // the vector's bytes
            case 16: copy_slice<kChunk>(tile); break;
            case 8: copy_slice<8 / sizeof(T)>(tile); break;
            case 4: copy_slice<4 / sizeof(T)>(tile); break;
            default: copy_slice<1>(tile); break;
            }
        }
        src_ += slice_step_;
        if (k_major_) {
            cols_left_ -= kSlice;
        } else {
            rows_left_ -= kSlice;
        }
    }

private:
    __device__ __forceinline__ void copy_whole_slice(uint32_t dst) const {
        const T *src = src_;
#pragma unroll
        for (int i = 0; i < kChunksPerThread; ++i) {
            cp_async_16(dst + i * kDstChunkStep, src);
            src += row_stride_;
        }
    }

    // The checked path serves edge tiles and misaligned operands only: a rolled loop, so that its
    // four vector widths in each of the four major combinations stay small code (unrolled, they
    // tripled the family's compile time for no measurable gain).
    template <int Vec>
    __device__ __forceinline__ void copy_slice(char *tile) {
#pragma unroll 1
        for (int i = 0; i < kChunksPerThread; ++i) {
            copy_chunk<Vec>(tile + dst_offset_ + i * kDstChunkStep, src_ + i * row_stride_, i * row_step_ < rows_left_);
        }
    }

    // One 16-byte chunk to shared dst from global src: elements past cols_left_ (or the whole chunk
    // outside the rows) are zero.  A chunk wholly inside is Vec-element cp.async pieces, one wholly
    // outside is zero-filled without reading, and one the matrix's row ends inside goes through
    // registers (a partial cp.async would be reported by compute-sanitizer as reading the whole
    // vector past the allocation).
    template <int Vec>
    __device__ __forceinline__ void copy_chunk(char *dst, const T *src, bool row_inside) {
        const int64_t cols = row_inside ? cols_left_ : 0;
        if constexpr (Vec * sizeof(T) >= 4) {
            constexpr int kBytes = Vec * static_cast<int>(sizeof(T));
            if (cols >= kChunk || cols <= 0) {
#pragma unroll
                for (int piece = 0; piece < kChunk / Vec; ++piece)
                    cp_async_or_zero<kBytes>(smem_addr(dst + piece * kBytes), cols > 0 ? src + piece * Vec : fallback_,
                                             cols <= 0);
                return;
            }
        }
        Bits elements[kChunk];
#pragma unroll
        for (int e = 0; e < kChunk; ++e) elements[e] = e < cols ? reinterpret_cast<const Bits *>(src)[e] : Bits{0};
        *reinterpret_cast<Vector<Bits, kChunk> *>(dst) = *reinterpret_cast<const Vector<Bits, kChunk> *>(elements);
    }

    const T *src_;         // the thread's first chunk of the next slice
    const T *fallback_;    // a readable address for copies that read nothing
    int64_t row_stride_;   // elements between the thread's chunks
    int64_t rows_left_;    // rows of the matrix from the first chunk's row on
    int64_t cols_left_;    // columns of the matrix from the chunk's first column on
    int64_t slice_step_;   // elements from one slice's source to the next
    uint32_t dst_offset_;  // bytes from the tile to the thread's first chunk
    int row_step_;           // rows between the thread's chunks
    int vec_;
    bool k_major_;
};

}  // namespace asyncgemm::sm80
