// A warp's share of the block tile: mma.sync m16n8k16 accumulators in fp32 and the ldmatrix loads
// that feed them from the swizzled shared tiles.
//
// One ldmatrix.x4 fetches a 16 (x) x 16 (k) block of an operand as four 8x8 matrices into four
// consecutive registers, in the order mma.sync wants them.  For A, matrix q lies at x + 8 (q % 2),
// k + 8 (q / 2): the m16k16 fragment itself.  For B, matrix q lies at x + 8 (q / 2), k + 8 (q % 2):
// registers 0-1 are the k16 x n8 fragment of one n8 tile and 2-3 that of the next, each an aligned
// register pair as the instruction takes it (the other order would cost two moves per MMA).  Lane
// 8q + r points at row r of matrix q: in a K-major tile row x + r, chunk k / 8; in an MN-major tile
// (read with .trans) row k + r, chunk x / 8.  Those rows are r mod 8, so the swizzle of every load is
// the lane's fixed XOR with r.
#pragma once

#include <stdint.h>

#include "kernels/common/mma_sm80.cuh"
#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_traits.h"

namespace asyncgemm::sm80 {

// Where one lane's ldmatrix rows lie in one operand's tile of TileX rows (m or n) by tile_k, stored
// K-major or MN-major (then read with .trans).
//
// The lane's row and chunk of block (0, 0) are fixed; the warp's other blocks lie whole blocks of
// 16 rows further (a constant, the ldmatrix's immediate) or 2 logical chunks further along the row.
// Two chunks further never carry into the lane's own chunk bits (bit 0, the matrix's k / 8 or
// x / 8; bit 3 and up, the warp's first x, a multiple of its 16-wide blocks, whose count is a power
// of two up to 4) and stay inside the lane's 128-byte span, so after the swizzle they are an XOR of
// address bits 5 and 6 with a constant (WarpFragments checks the counts).  With tiles 128-byte
// aligned the XOR applies to the whole address: one LOP3 per step or block, or none.
template <int Config, int TileX, bool KMajor>
class FragmentAddress {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kRowBytes = operand_layout(TileX, kC.tile_k, KMajor).row_chunks * kSwizzleChunkBytes;

public:
    // warp_x: the warp tile's first x in the block tile.  k_first: the four matrices step along k
    // first (B's order above), else along x (A's).
    __device__ __forceinline__ FragmentAddress(int warp_x, bool k_first, int lane) {
        const int q = lane / 8;
        const int r = lane % 8;
        const int x8 = k_first ? q / 2 : q % 2;  // the matrix's x / 8 and k / 8 in the 16 x 16 block
        const int k8 = k_first ? q % 2 : q / 2;
        const int row = KMajor ? warp_x + x8 * 8 + r : k8 * 8 + r;
        const int chunk = KMajor ? k8 : warp_x / kChunkElements + x8;
        lane_offset_ = static_cast<uint32_t>(swizzled_offset(row, chunk, kRowBytes / kSwizzleChunkBytes));
    }

    // ldmatrix.x4 of the 16 x 16 block at x = 16 * x_block (from the warp's first x), k = 16 * k_step
    // of the tile at shared-window address `tile` (128-byte aligned).
    __device__ __forceinline__ void load(uint32_t (&r)[4], uint32_t tile, int x_block, int k_step) const {
        const int along_rows = KMajor ? x_block : k_step;
        const int along_row = KMajor ? k_step : x_block;
        const uint32_t address = ((tile + lane_offset_) ^ static_cast<uint32_t>(along_row * 2 * kSwizzleChunkBytes)) +
                                 static_cast<uint32_t>(along_rows * 16 * kRowBytes);
        if constexpr (KMajor) {
            ldmatrix_x4(r, address);
        } else {
            ldmatrix_x4_trans(r, address);
        }
    }

private:
    uint32_t lane_offset_;  // bytes from the tile to the lane's row of block (0, 0), swizzled
};

// One k16 step's operands of a warp: a[i] the A fragment of m16 tile i, b[j / 2] the B fragments of
// n8 tiles j (registers 0-1) and j + 1 (2-3).
template <int Config>
struct Fragments {
    uint32_t a[mma_tiles_m(kTileConfigs[Config])][4];
    uint32_t b[mma_tiles_n(kTileConfigs[Config]) / 2][4];
};

// The warp at (warp / warps_n, warp % warps_n) of the warp grid owns rows warp_m0 .. + warp_tile_m and
// columns warp_n0 .. + warp_tile_n of the block tile: its fp32 accumulators, and mma() adds one k16
// step's product to them.  T: __half, __nv_bfloat16, or float (tf32).
template <typename T, int Config>
class WarpTile {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kTilesM = mma_tiles_m(kC);
    static constexpr int kTilesN = mma_tiles_n(kC);

public:
    __device__ __forceinline__ explicit WarpTile(int warp)
        : warp_m0(warp / kC.warps_n * warp_tile_m(kC)), warp_n0(warp % kC.warps_n * warp_tile_n(kC)) {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
            }
        }
    }

    // acc += one step's product.
    __device__ __forceinline__ void mma(const Fragments<Config> &f) {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                const uint32_t(&pair)[4] = f.b[j / 2];
                mma_k32_bytes<T>(acc[i][j], f.a[i], pair[2 * (j % 2)], pair[2 * (j % 2) + 1]);
            }
        }
    }

    // The accumulators as one array, mma tile (i, j)'s four at 4 (i kTilesN + j): the split-K
    // reduction's view (kernels/common/split_k.cuh).
    __device__ __forceinline__ float (&values())[kTilesM * kTilesN * 4] {
        return reinterpret_cast<float(&)[kTilesM * kTilesN * 4]>(acc);
    }

    const int warp_m0, warp_n0;
    float acc[kTilesM][kTilesN][4];  // mma tile (i, j): rows warp_m0 + 16 i, columns warp_n0 + 8 j
};

// The ldmatrix loads of a warp's fragments from the shared tiles, for operands of the given majors
// (ldmatrix or ldmatrix.trans, chosen once per launch).  A slice of tile_k is kSteps steps of 32
// bytes of K (k16, or k8 of tf32).
template <int Config, bool AKMajor, bool BKMajor>
class WarpFragments {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kBlocksA = mma_tiles_m(kC);      // 16 x 16 blocks of A per step
    static constexpr int kBlocksB = mma_tiles_n(kC) / 2;  // and of B
    static_assert(kBlocksA <= 4 && kBlocksB <= 4 && (kBlocksA & (kBlocksA - 1)) == 0 &&
                      (kBlocksB & (kBlocksB - 1)) == 0 && kC.tile_k / kMmaK <= 4,
                  "FragmentAddress: a warp's blocks and steps must stay inside the lane's 128-byte span");

public:
    static constexpr int kSteps = kC.tile_k / kMmaK;

    __device__ __forceinline__ WarpFragments(int warp_m0, int warp_n0, int lane)
        : a_(warp_m0, false, lane), b_(warp_n0, true, lane) {}

    // The fragments of step `step` of the slice held in the shared tiles at a_tile, b_tile.
    __device__ __forceinline__ void load(Fragments<Config> &f, uint32_t a_tile, uint32_t b_tile, int step) const {
#pragma unroll
        for (int i = 0; i < kBlocksA; ++i) a_.load(f.a[i], a_tile, i, step);
#pragma unroll
        for (int j = 0; j < kBlocksB; ++j) b_.load(f.b[j], b_tile, j, step);
    }

private:
    FragmentAddress<Config, kC.tile_m, AKMajor> a_;
    FragmentAddress<Config, kC.tile_n, BKMajor> b_;
};

}  // namespace asyncgemm::sm80
