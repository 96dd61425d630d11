// The tile every copy kernel moves and the shared-memory layouts it is stored in.  Host planning
// (shared-memory sizes, tile counts) and device code (addresses) both read this file, so they agree.
//
// A tile is 128 source rows of 128 bytes: 128 x 32 f32 or 128 x 64 f16/bf16 elements.  128-byte rows
// are one cache line each and the widest box TMA's 128-byte swizzle takes.  For OP_N the tile covers
// the same 128 rows of dst; for OP_T its 128 source rows are 128 dst columns.
#pragma once

#include <stdint.h>

#include "asyncgemm.h"
#include "kernels/common/host_device.h"

namespace asyncgemm::copy {

inline constexpr int kTileRows = 128;
inline constexpr int kTileRowBytes = 128;
inline constexpr int kTileBytes = kTileRows * kTileRowBytes;
inline constexpr int kThreads = 128;  // every copy kernel runs 128-thread blocks

// Shared memory serves 32 four-byte banks; a warp's access is split into phases of at most this many
// bytes, and two lanes of one phase that touch different addresses in one bank conflict.
inline constexpr int kBankSpanBytes = 128;

ASYNCGEMM_HOST_DEVICE constexpr int log2_of(int power_of_two) {
    int log = 0;
    while ((1 << log) < power_of_two) ++log;
    return log;
}

// The part of dst one tile covers.
struct TileExtent {
    int rows, cols;
};

ASYNCGEMM_HOST_DEVICE constexpr TileExtent dst_tile_extent(int elem_bytes, bool transpose) {
    const int row_elems = kTileRowBytes / elem_bytes;
    return transpose ? TileExtent{row_elems, kTileRows} : TileExtent{kTileRows, row_elems};
}

// Where byte `col` of tile row `row` lives, relative to its stage.  Layouts are described in units:
// the granule a bank conflict is decided on (the vector, but at least one 4-byte bank), and groups:
// the rows one thread's transpose block spans (elements per vector).  Reading a transpose, the lanes
// of a phase take the same unit of consecutive groups, so in a PLAIN tile (128-byte rows) they all
// hit the same banks; PADDED shifts each group by one unit, SWIZZLED XORs the unit index with the
// group index.  Both keep every vector aligned and whole, and writes along a row stay conflict-free.
struct SmemLayout {
    int32_t unit_shift;    // log2 of the unit in bytes
    int32_t group_shift;   // log2 of the rows in a group
    int32_t pad_bytes;     // padding after each group of rows
    int32_t swizzle_mask;  // unit index ^= group index & swizzle_mask

    ASYNCGEMM_HOST_DEVICE constexpr uint32_t offset(uint32_t row, uint32_t col) const {
        const uint32_t group = row >> group_shift;
        const uint32_t unit = (col >> unit_shift) ^ (group & static_cast<uint32_t>(swizzle_mask));
        const uint32_t in_unit = col & ((1u << unit_shift) - 1);
        return row * kTileRowBytes + group * static_cast<uint32_t>(pad_bytes) + (unit << unit_shift) + in_unit;
    }

    // Bytes one tile occupies in this layout.
    ASYNCGEMM_HOST_DEVICE constexpr int bytes() const {
        return kTileBytes + (kTileRows >> group_shift) * pad_bytes;
    }
};

// The layouts of the SYNC, ASYNC and PIPELINED kernels, which fill shared memory vector by vector.
ASYNCGEMM_HOST_DEVICE constexpr SmemLayout staged_layout(int32_t layout, int vector_bytes, int elem_bytes) {
    const int unit = vector_bytes < 4 ? 4 : vector_bytes;
    SmemLayout l{log2_of(unit), log2_of(vector_bytes / elem_bytes), 0, 0};
    if (layout == ASYNCGEMM_SMEM_PADDED) l.pad_bytes = unit;
    if (layout == ASYNCGEMM_SMEM_SWIZZLED) l.swizzle_mask = kBankSpanBytes / unit - 1;
    return l;
}

// The layouts TMA writes: a dense box, or CU_TENSOR_MAP_SWIZZLE_128B, which XORs the 16-byte chunk
// index with the row index modulo 8 (the stage must be 1024-byte aligned for that to hold).
ASYNCGEMM_HOST_DEVICE constexpr SmemLayout tma_layout(int32_t layout) {
    return layout == ASYNCGEMM_SMEM_SWIZZLED ? SmemLayout{4, 0, 0, 7} : SmemLayout{4, 0, 0, 0};
}

// The transpose block a thread drains (see stage_drain.cuh): blocks are v x v elements, group g
// being stage rows g*v.. and unit u the stage's u-th vector column.  `lanes_down` consecutive block
// indices walk down the stage (consecutive groups at one unit) before the next ones step across.
struct TransposeBlock {
    int group, unit;
};

ASYNCGEMM_HOST_DEVICE constexpr TransposeBlock transpose_block(int index, int lanes_down, int units) {
    return {index / (lanes_down * units) * lanes_down + index % lanes_down, index / lanes_down % units};
}

// The staged kernels send every lane down: all groups of a unit first.
ASYNCGEMM_HOST_DEVICE constexpr int staged_lanes_down(int elem_bytes, int vector_bytes) {
    return kTileRows * elem_bytes / vector_bytes;
}

// TMA moves 16-byte aligned rows, so its kernel reads and writes stages in 16-byte vectors.  The
// 128-byte swizzle spreads only the 8 rows of its period over the banks, so 8 / v lanes go down and
// the rest of a phase across.
inline constexpr int kTmaVecBytes = 16;
ASYNCGEMM_HOST_DEVICE constexpr int tma_lanes_down(int elem_bytes) {
    return 8 * elem_bytes / kTmaVecBytes;
}

// A staged kernel's stage fits every staged layout: the largest pads a 4-byte unit after every row.
inline constexpr int kStageBytes = kTileBytes + kTileRows * 4;

// The ring kernels (PIPELINED, TMA): stages per block, and tiles per block.  Measured on an H100
// (16384^2 f32, both ops): runs of 2 tiles per block beat runs of 4 to 32 and a persistent grid by
// 2-10% (the hardware balances many short blocks across the SMs), and four stages beat two or three.
// With runs this short a block has all its tiles in flight from the start.
inline constexpr int kPipelineStages = 4;
inline constexpr int kTmaStages = 4;
inline constexpr int kRingTilesPerBlock = 2;
inline constexpr int kTmaStageAlign = 1024;  // the 128-byte swizzle repeats every 8 rows of 128 bytes

// The row copy (copy_rows.cuh) has no value of asyncgemm_copy_algo_t: AUTO alone chooses it, for OP_N
// copies of 2-byte aligned rows.  Its value inside the library follows the public ones.
inline constexpr asyncgemm_copy_algo_t kCopyRows = static_cast<asyncgemm_copy_algo_t>(ASYNCGEMM_COPY_TMA + 1);
inline constexpr int kRowsBlocksPerSm = 16;  // launch bounds: 32 registers a thread (2048 threads an SM where it has them)
inline constexpr int kRowLaneElems = 8;      // a lane's loads in flight
inline constexpr int kRowPieceElems = 32 * kRowLaneElems;  // of a row, a warp's
inline constexpr int64_t kRowsMaxBlocks = int64_t(1) << 20;
// The widening copy (copy_widen.cuh: 8-bit floats into f16 for the families without 8-bit kernels)
// is no copy of the API either: the GEMM planner alone launches it, as the row copy's pieces.
inline constexpr asyncgemm_copy_algo_t kCopyWiden = static_cast<asyncgemm_copy_algo_t>(ASYNCGEMM_COPY_TMA + 2);
// The warps' pieces of each row of `cols` elements (the last one ragged).
ASYNCGEMM_HOST_DEVICE constexpr int64_t row_pieces(int64_t cols) { return (cols + kRowPieceElems - 1) / kRowPieceElems; }
// Blocks of a launch of the row copy or the widening copy: a warp per piece, the kernel striding over
// what kRowsMaxBlocks blocks do not cover.
constexpr uint32_t row_piece_blocks(int64_t pieces) {
    const int64_t warps = kThreads / 32;
    const int64_t blocks = (pieces + warps - 1) / warps;
    return static_cast<uint32_t>(blocks < kRowsMaxBlocks ? blocks : kRowsMaxBlocks);
}

// Dynamic shared memory of each kernel.  The TMA kernel needs room to align its first stage, and
// built for an architecture without TMA it runs the PIPELINED body (see copy_tma.cuh).
inline constexpr int kSyncSmemBytes = kStageBytes;
inline constexpr int kAsyncSmemBytes = kStageBytes;
inline constexpr int kPipelinedSmemBytes = kPipelineStages * kStageBytes;
inline constexpr int kTmaRingBytes = kTmaStages * kTileBytes + kTmaStageAlign;
inline constexpr int kTmaSmemBytes = kTmaRingBytes > kPipelinedSmemBytes ? kTmaRingBytes : kPipelinedSmemBytes;

// Dynamic shared memory of the kernels of an algorithm (SYNC, ASYNC, PIPELINED, TMA, the row copy or
// the widening copy).
constexpr uint32_t smem_bytes(asyncgemm_copy_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_COPY_SYNC: return kSyncSmemBytes;
    case ASYNCGEMM_COPY_ASYNC: return kAsyncSmemBytes;
    case ASYNCGEMM_COPY_PIPELINED: return kPipelinedSmemBytes;
    default: return algo == kCopyRows || algo == kCopyWiden ? 0 : kTmaSmemBytes;
    }
}

}  // namespace asyncgemm::copy

// The words of copy_kernels.def (kernels/common/kernel_list.h says what a kernel list is).
#define ASYNCGEMM_COPY_ALGO_sync ASYNCGEMM_COPY_SYNC
#define ASYNCGEMM_COPY_ALGO_async ASYNCGEMM_COPY_ASYNC
#define ASYNCGEMM_COPY_ALGO_pipelined ASYNCGEMM_COPY_PIPELINED
#define ASYNCGEMM_COPY_ALGO_tma ASYNCGEMM_COPY_TMA
#define ASYNCGEMM_COPY_ALGO_rows asyncgemm::copy::kCopyRows
#define ASYNCGEMM_COPY_ALGO_widen asyncgemm::copy::kCopyWiden
#define ASYNCGEMM_COPY_TRANSPOSE_n false
#define ASYNCGEMM_COPY_TRANSPOSE_t true
#define ASYNCGEMM_COPY_BYTES_b8 1
#define ASYNCGEMM_COPY_BYTES_b16 2
#define ASYNCGEMM_COPY_BYTES_b32 4
