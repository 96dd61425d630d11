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
#include "kernels/sm80/sm80_config.h"

namespace asyncgemm::sm80 {

// Where one lane's ldmatrix rows lie in one operand's tile; x blocks and k steps are whole 16 x 16
// blocks, which move along rows or chunks depending on the major (a uniform run-time choice).
class FragmentAddress {
public:
    // warp_x: the warp tile's first x in the block tile.  k_first: matrices step along k first (B's
    // order above), else along x (A's).
    __device__ __forceinline__ FragmentAddress(int tile_x, int tile_k, bool k_major, int warp_x, bool k_first,
                                               int lane)
        : swizzle_(lane % kSwizzleRows) {
        const int q = lane / 8;
        const int r = lane % 8;
        const int x8 = k_first ? q / 2 : q % 2;  // the matrix's x / 8 and k / 8 in the 16 x 16 block
        const int k8 = k_first ? q % 2 : q / 2;
        const int row_bytes = operand_layout(tile_x, tile_k, k_major).row_chunks * kSwizzleChunkBytes;
        const int lane_row = k_major ? warp_x + x8 * 8 + r : k8 * 8 + r;
        lane_chunk_ = k_major ? k8 : warp_x / kChunkElements + x8;
        lane_offset_ = static_cast<uint32_t>(lane_row * row_bytes);
        block_row_bytes_ = static_cast<uint32_t>(16 * row_bytes);
    }

    // ldmatrix.x4 of the 16 x 16 block at x = 16 * x_block (from the warp's first x), k = 16 * k_step.
    // KMajor must be the major the address was built for (the caller branches once per slice).
    template <bool KMajor>
    __device__ __forceinline__ void load(uint32_t (&r)[4], uint32_t tile, int x_block, int k_step) const {
        const int row_block = KMajor ? x_block : k_step;
        const int chunk = lane_chunk_ + 2 * (KMajor ? k_step : x_block);
        const uint32_t address = tile + lane_offset_ + row_block * block_row_bytes_ +
                                 static_cast<uint32_t>((chunk ^ swizzle_) * kSwizzleChunkBytes);
        if constexpr (KMajor) {
            ldmatrix_x4(r, address);
        } else {
            ldmatrix_x4_trans(r, address);
        }
    }

private:
    int swizzle_;
    int lane_chunk_;
    uint32_t lane_offset_;
    uint32_t block_row_bytes_;
};

// T: __half, __nv_bfloat16, or float (tf32, K-major operands only).  The warp at (warp / warps_n, warp % warps_n) of the warp grid owns
// rows warp_m0 .. + warp_tile_m and columns warp_n0 .. + warp_tile_n of the block tile.  A slice of
// tile_k is kSteps steps of 32 bytes of K (k16, or k8 of tf32): load() fetches one step's fragments,
// mma() multiplies them in.  The
// majors are template parameters (ldmatrix or ldmatrix.trans): the caller picks them once per launch.
template <typename T, int Config>
class WarpTile {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kTilesM = mma_tiles_m(kC);
    static constexpr int kTilesN = mma_tiles_n(kC);

public:
    static constexpr int kSteps = kC.tile_k / kMmaK;

    // One k16 step's operands: a[i] the A fragment of m16 tile i, b[j / 2] the B fragments of n8
    // tiles j (registers 0-1) and j + 1 (2-3).
    struct Fragments {
        uint32_t a[kTilesM][4];
        uint32_t b[kTilesN / 2][4];
    };

    __device__ __forceinline__ WarpTile(bool a_k_major, bool b_k_major, int warp, int lane)
        : warp_m0(warp / kC.warps_n * warp_tile_m(kC)),
          warp_n0(warp % kC.warps_n * warp_tile_n(kC)),
          a_(kC.tile_m, kC.tile_k, a_k_major, warp_m0, false, lane),
          b_(kC.tile_n, kC.tile_k, b_k_major, warp_n0, true, lane) {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
            }
        }
    }

    // The fragments of k16 step `step` of the slice held in the shared tiles at a_tile, b_tile.
    template <bool AKMajor, bool BKMajor>
    __device__ __forceinline__ void load(Fragments &f, uint32_t a_tile, uint32_t b_tile, int step) const {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) a_.template load<AKMajor>(f.a[i], a_tile, i, step);
#pragma unroll
        for (int j = 0; j < kTilesN / 2; ++j) b_.template load<BKMajor>(f.b[j], b_tile, j, step);
    }

    // acc += one step's product.
    __device__ __forceinline__ void mma(const Fragments &f) {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                const uint32_t(&pair)[4] = f.b[j / 2];
                mma_k32_bytes<T>(acc[i][j], f.a[i], pair[2 * (j % 2)], pair[2 * (j % 2) + 1]);
            }
        }
    }

    const int warp_m0, warp_n0;
    float acc[kTilesM][kTilesN][4];  // mma tile (i, j): rows warp_m0 + 16 i, columns warp_n0 + 8 j

private:
    FragmentAddress a_, b_;
};

}  // namespace asyncgemm::sm80
