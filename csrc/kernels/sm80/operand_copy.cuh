// Global -> shared copy of one operand's K-slices into swizzled tiles (sm80_traits.h's layout).
//
// The tile is stored as it lies in global memory: rows of 16-byte chunks along the contiguous
// dimension (k for a K-major operand, x for an MN-major one).  A thread copies chunks
// copy_chunks_per_thread apart by threads, which is a whole number of rows (threads is a multiple of
// row_chunks), so all its chunks share one column and one swizzle.
//
// A slice that lies whole inside the matrix across the block's tile, 16-byte aligned, is copied
// with one cp.async per chunk and no checks: all slices but the last of a split, in all but the
// edge tiles.  For those a thread keeps a source pointer and a destination offset in registers
// (the caller counts the whole slices, the same in every thread of the block).  Chunk i is read
// from the pointer plus i row steps (the row stride is the kernel parameter's), and the pointer
// moves once per slice, not once per chunk: that takes the paired kernel's instructions down 7%.
// The other slices are copied chunk by chunk from a position derived afresh from the kernel
// parameters (OperandSource), and tails are zero-filled (a product over k past K must add zeros,
// whatever lies in memory there): a chunk whose source is 16-byte aligned is one cp.async; 8- and
// 4-byte aligned vectors split it into 8- and 4-byte cp.async, as does a row's end inside the chunk
// (the pieces past it zero-filled); 16-bit elements aligned to 2 bytes only, and a 4-byte piece the
// matrix's row ends inside, load element by element and store through registers.  T is f16, bf16 or
// f32 (tf32 kernels, K-major): the layout is the same bytes either way, a chunk holding 8 or 4
// elements.
#pragma once

#include <stdint.h>

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/gemm_launch.h"
#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_traits.h"

namespace asyncgemm::sm80 {

// Where one operand lies: the matrix (`x_extent` rows, m or n, by `k`, leading dimension `ld`,
// starting at element `base` of the batch, copies of `vec` elements aligned) and the block's tiles
// in it (from x = x0, k = k0, the split's first K-slice).
template <typename T>
struct OperandSource {
    const T *base;
    int64_t ld;
    int64_t x_extent, k, x0, k0;
    int vec;
};

template <typename T, int Config, int TileX, bool KMajor>
class OperandCopy {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kChunk = kSwizzleChunkBytes / static_cast<int>(sizeof(T));  // elements per chunk
    static constexpr int kSlice = kC.tile_k * kElementBytes / static_cast<int>(sizeof(T));  // K per slice
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
    static constexpr int kChunksPerThread = copy_chunks_per_thread(kC, TileX);
    static constexpr OperandLayout kLayout = operand_layout(TileX, kC.tile_k, KMajor);
    // A thread's chunks lie kRowStep rows apart, a multiple of kSwizzleRows (is_valid), so all of
    // them have the same swizzle; in shared memory they lie kDstChunkStep bytes apart.
    static constexpr int kThreads = threads(kC);
    static constexpr int kRowStep = kThreads / kLayout.row_chunks;
    static constexpr int kDstChunkStep = kThreads * kSwizzleChunkBytes;

    // The thread's first chunk of slice `slice` and how much of the matrix lies from it on.
    struct Position {
        const T *src;
        int64_t rows_left, cols_left;
    };
    __device__ __forceinline__ static Position position(const OperandSource<T> &s, int thread, int slice) {
        const int64_t k_first = s.k0 + static_cast<int64_t>(slice) * kSlice;
        const int64_t row = (KMajor ? s.x0 : k_first) + thread / kLayout.row_chunks;
        const int64_t col = (KMajor ? k_first : s.x0) + static_cast<int64_t>(thread % kLayout.row_chunks) * kChunk;
        return {s.base + row * s.ld + col, (KMajor ? s.x_extent : s.k) - row, (KMajor ? s.k : s.x_extent) - col};
    }

public:
    __device__ __forceinline__ OperandCopy(const OperandSource<T> &s, int thread)
        : dst_offset_(static_cast<uint32_t>(
              swizzled_offset(thread / kLayout.row_chunks, thread % kLayout.row_chunks, kLayout.row_chunks))) {
        src_ = position(s, thread, 0).src;
    }

    // How many leading slices of the split lie whole inside the matrix across the block's tile,
    // 16-byte aligned, so that every thread copies them unchecked: none where the tile crosses the
    // matrix's x edge or the vectors are narrower, else all but a last slice that K ends inside.
    // The same in every thread of the block.
    __device__ __forceinline__ static int whole_slices(const OperandSource<T> &s) {
        if (s.vec != kChunk || s.x0 + TileX > s.x_extent) return 0;
        return static_cast<int>(min((s.k - s.k0) / kSlice, kMaxSlices));
    }

    // Part `part` of `parts` of K-slice `slice` (counted from the split's first) into the shared
    // tile `tile` (cp.async: commit and wait before reading).  Slices are copied in order, each part
    // once; a `whole` slice (one of the leading whole_slices) is spread over the parts, any other
    // is copied with checks at part 0.  source() gives the operand's OperandSource, read from the
    // kernel parameters.
    template <typename Source>
    __device__ __forceinline__ void copy(char *tile, int slice, int part, int parts, bool whole, const Source &source) {
        if (whole) {
            const int64_t ld = source().ld;
            const uint32_t dst = smem_addr(tile) + dst_offset_;
#pragma unroll
            for (int i = part * kChunksPerThread / parts; i < (part + 1) * kChunksPerThread / parts; ++i)
                cp_async_16(dst + i * kDstChunkStep, src_ + i * kRowStep * ld);
            if (part == parts - 1) src_ += KMajor ? int64_t{kSlice} : kSlice * ld;
        } else if (part == 0) {
            const OperandSource<T> s = source();
            const Position at = position(s, static_cast<int>(threadIdx.x), slice);
            switch (s.vec * static_cast<int>(sizeof(T))) {  // the vector's bytes
            case 16: copy_checked<kChunk>(tile, s, at); break;
            case 8: copy_checked<8 / sizeof(T)>(tile, s, at); break;
            case 4: copy_checked<4 / sizeof(T)>(tile, s, at); break;
            default: copy_checked<1>(tile, s, at); break;
            }
        }
    }

private:
    // The checked path serves edge tiles, last slices and misaligned operands only: a rolled loop,
    // so that its four vector widths in each of the four major combinations stay small code
    // (unrolled, they tripled the family's compile time for no measurable gain).  16-bit elements
    // aligned to 2 bytes go through registers, kLoadBatch chunks' loads issued before their stores,
    // so a thread waits one global latency per batch, not per chunk.
    template <int Vec>
    __device__ __forceinline__ void copy_checked(char *tile, const OperandSource<T> &s, const Position &at) const {
        if constexpr (Vec * sizeof(T) < 4) {
            constexpr int kLoadBatch = kChunksPerThread % 2 == 0 ? 2 : 1;
#pragma unroll 1
            for (int i = 0; i < kChunksPerThread; i += kLoadBatch) {
                Bits elements[kLoadBatch][kChunk];
#pragma unroll
                for (int b = 0; b < kLoadBatch; ++b)
                    load_elements(elements[b], at.src + (i + b) * kRowStep * s.ld, chunk_cols(at, i + b));
#pragma unroll
                for (int b = 0; b < kLoadBatch; ++b)
                    store_elements(tile + dst_offset_ + (i + b) * kDstChunkStep, elements[b]);
            }
        } else {
#pragma unroll 1
            for (int i = 0; i < kChunksPerThread; ++i)
                copy_chunk<Vec>(tile + dst_offset_ + i * kDstChunkStep, at.src + i * kRowStep * s.ld, s.base,
                                chunk_cols(at, i));
        }
    }

    // How many elements of the thread's chunk i lie inside the matrix's row (0 or less: none).
    __device__ __forceinline__ static int64_t chunk_cols(const Position &at, int i) {
        return i * kRowStep < at.rows_left ? at.cols_left : 0;
    }

    // One 16-byte chunk to shared dst from global src, Vec-element aligned (4 bytes or more):
    // elements past `cols` are zero.  The chunk is cp.async pieces of Vec elements, or of half or a
    // quarter of that where the matrix's row ends between those (down to 4 bytes): a piece inside is
    // copied, one outside zero-filled without reading (from `readable`, an address inside the matrix,
    // as compute-sanitizer checks even copies that read nothing).  A 16-bit chunk whose row ends inside
    // a 4-byte piece goes through registers (a partial cp.async would be reported by compute-sanitizer
    // as reading the whole vector past the allocation); those loads hold the thread until they land,
    // a global latency per chunk in the rolled loop, which is why a row ending on a piece's edge (100
    // f16 elements) must not take them.
    template <int Vec>
    __device__ __forceinline__ static void copy_chunk(char *dst, const T *src, const T *readable, int64_t cols) {
        constexpr int kBytes = Vec * static_cast<int>(sizeof(T));
        static_assert(kBytes >= 4, "2-byte vectors go through registers (copy_checked)");
        if (cols >= kChunk || cols <= 0 || cols % Vec == 0) {
#pragma unroll
            for (int piece = 0; piece < kChunk / Vec; ++piece) {
                const bool inside = piece * Vec < cols;
                cp_async_or_zero<kBytes>(smem_addr(dst + piece * kBytes), inside ? src + piece * Vec : readable,
                                         !inside);
            }
        } else if constexpr (kBytes > 4) {
            copy_chunk<Vec / 2>(dst, src, readable, cols);  // aligned for the narrower pieces too
        } else if constexpr (sizeof(T) == 2) {
            Bits elements[kChunk];
            load_elements(elements, src, cols);
            store_elements(dst, elements);
        }
    }

    // The chunk's elements from src, those from `cols` on zero (and not read).
    __device__ __forceinline__ static void load_elements(Bits (&elements)[kChunk], const T *src, int64_t cols) {
#pragma unroll
        for (int e = 0; e < kChunk; ++e) elements[e] = e < cols ? reinterpret_cast<const Bits *>(src)[e] : Bits{0};
    }

    __device__ __forceinline__ static void store_elements(char *dst, const Bits (&elements)[kChunk]) {
        *reinterpret_cast<Vector<Bits, kChunk> *>(dst) = *reinterpret_cast<const Vector<Bits, kChunk> *>(elements);
    }

    const T *src_;               // the thread's next chunk to copy of the whole slices
    const uint32_t dst_offset_;  // bytes from the tile to the thread's first chunk
};

}  // namespace asyncgemm::sm80
