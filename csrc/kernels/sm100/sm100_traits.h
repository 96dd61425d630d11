// The Blackwell GEMM family (ASYNCGEMM_ALGO_SM100_TCGEN05): the tile, the warp roles, the shared and
// tensor memory plan, and the tcgen05 encodings the host computes.
//
// Plain C++17, no CUDA headers: the kernels and the planner (csrc/plan/sm100_*) share these numbers,
// and tests/unit/test_sm100_encoding.cpp checks every encoding against the PTX ISA's tables.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"
#include "kernels/common/kernel_list.h"
#include "kernels/common/mx_scale.h"
#include "kernels/common/params.h"
#include "kernels/common/smem_descriptor.h"

namespace asyncgemm::sm100 {

// ---- the tile --------------------------------------------------------------------------------

// One 128 x 128 output tile per tcgen05.mma (cta_group::1, M = 128: row i of the accumulator is
// tensor-memory lane i, column j is column j), K walked in one 128-byte row of K per stage.
inline constexpr int kTileM = 128;
inline constexpr int kTileN = 128;
inline constexpr int kStages = 4;

// ---- warp roles ------------------------------------------------------------------------------

// Warp 0 loads operands (and C) with TMA; warp 1 allocates tensor memory and one of its threads
// issues every tcgen05.cp and tcgen05.mma; warp 2 scales C in shared memory when it enters the
// accumulator scaled; warps 3-6 are the epilogue warpgroup.  A warp may read only its quarter of
// the tensor-memory lanes (warp index % 4), so the four epilogue warps cover all 128 rows.
inline constexpr int kProducerWarp = 0;
inline constexpr int kMmaWarp = 1;
inline constexpr int kSeedWarp = 2;
inline constexpr int kFirstEpilogueWarp = 3;
inline constexpr int kEpilogueWarps = 4;
inline constexpr int kEpilogueThreads = kEpilogueWarps * 32;
inline constexpr int kThreads = (kFirstEpilogueWarp + kEpilogueWarps) * 32;

// ---- tensor memory ---------------------------------------------------------------------------

// Two fp32 accumulators of kTileN columns, so the epilogue drains one while the MMAs fill the other.
inline constexpr int kAccumulators = 2;
inline constexpr uint32_t kTmemColumns = kAccumulators * kTileN;
static_assert(kTmemColumns >= 32 && kTmemColumns <= 512 && (kTmemColumns & (kTmemColumns - 1)) == 0,
              "tcgen05.alloc takes a power of two from 32 to 512 columns");

// With MX scales (kind::mxf8f6f4.block_scale) a block allocates all 512 columns: the accumulators'
// 256, then each stage's scales, A's and B's.  tcgen05.cp .32x128b.warpx4 fills 4 columns of all 128
// lanes from a 512-byte tile (kernels/common/mx_scale.h); the tiles are placed 32 columns apart, as in
// the one MXFP8 kernel known to run on hardware (ThunderKittens'), since the columns are free and the
// ISA's alignment rule for a scale's address could not be tested here.
inline constexpr uint32_t kMxTmemColumns = 512;
inline constexpr uint32_t kMxScaleColumnStride = 32;
ASYNCGEMM_HOST_DEVICE constexpr uint32_t tmem_columns(bool mx_scales) { return mx_scales ? kMxTmemColumns : kTmemColumns; }
// The first column of stage `stage`'s scales of operand `operand` (0: A, 1: B).
ASYNCGEMM_HOST_DEVICE constexpr uint32_t mx_scale_column(int stage, int operand) {
    return kTmemColumns + static_cast<uint32_t>(2 * stage + operand) * kMxScaleColumnStride;
}
static_assert(mx_scale_column(kStages - 1, 1) + kMxScaleColumnStride <= kMxTmemColumns,
              "every stage's MX scales fit the tensor memory a block allocates with them");
static_assert(kTileM == kMxTileRows && kTileN == kMxTileRows && kMxTileK == 128,
              "a stage's MX scales are one 512-byte tile of A's and one of B's");

// A tensor-memory address: lane in bits 16-31, column in bits 0-15.
ASYNCGEMM_HOST_DEVICE constexpr uint32_t tmem_address(uint32_t base, uint32_t lane, uint32_t column) {
    return base + (lane << 16) + column;
}

// ---- shared memory ---------------------------------------------------------------------------

// Every buffer starts on a 1024-byte boundary (the 128-byte swizzle's atom).
inline constexpr uint32_t kSmemAlign = 1024;
inline constexpr uint32_t kAStageBytes = kTileM * kRowBytes;
inline constexpr uint32_t kBStageBytes = kTileN * kRowBytes;
inline constexpr uint32_t kStageBytes = kAStageBytes + kBStageBytes;

// The fp32 C tile that enters the accumulator: boxes of 128 rows x 32 columns (one 128-byte swizzled
// row each), side by side.  tcgen05.cp copies it 128 rows x 256 bits (8 columns) at a time: of its
// shapes (128x256b, 4x256b, 128x128b, 64x128b, 32x128b) the one that covers all 128 lanes with the
// most columns per instruction.
struct SeedCopy {
    int rows;             // lanes per tcgen05.cp
    int bits;             // bits of each row per tcgen05.cp
    int columns;          // fp32 accumulator columns per tcgen05.cp
    int copies_per_box;
    int boxes;
};
inline constexpr int kSeedBoxColumns = row_elements(4);
inline constexpr SeedCopy kSeedCopy{kTileM, 256, 256 / 32, kSeedBoxColumns / (256 / 32), kTileN / kSeedBoxColumns};
inline constexpr uint32_t kSeedBoxBytes = kTileM * kRowBytes;
inline constexpr uint32_t kSeedBytes = kSeedCopy.boxes * kSeedBoxBytes;

// Each stage's MX scales: A's tile, then B's (cp.async.bulk, 16-byte aligned; read by tcgen05.cp).
inline constexpr uint32_t kMxStageBytes = 2 * kMxTileBytes;

// Dynamic shared memory at launch: the ring, the C tile, the MX scales, and slack to align the start.
inline constexpr uint32_t kSmemBytes = kStages * kStageBytes + kSeedBytes + kStages * kMxStageBytes + kSmemAlign;

// ---- the instruction descriptor --------------------------------------------------------------

// tcgen05.mma's 32-bit instruction descriptor for .kind::f16, .kind::tf32 and .kind::f8f6f4 (PTX ISA,
// "Instruction descriptor format for .kind::f16, .kind::tf32, .kind::f8f6f4, ..."): bits 4-5 D format
// (1: f32); 7-9 A format and 10-12 B format (kind::f16: 0 f16, 1 bf16; kind::tf32: 2 tf32;
// kind::f8f6f4: 0 E4M3, 1 E5M2); 13, 14 negate A, B (0); 15, 16 A, B major (0: K-major, 1: MN-major);
// 17-22 N >> 3; 24-28 M >> 4; dense, no saturation, no shift.  The kind itself is the instruction's.
ASYNCGEMM_HOST_DEVICE constexpr uint32_t operand_format(int32_t type_ab) {
    switch (type_ab) {
    case kF16:
    case kE4M3: return 0u;
    case kBF16:
    case kE5M2: return 1u;
    default: return 2u;
    }
}
ASYNCGEMM_HOST_DEVICE constexpr uint32_t instruction_descriptor(int32_t type_ab, bool a_k_major, bool b_k_major,
                                                                int m, int n) {
    return (1u << 4) | (operand_format(type_ab) << 7) | (operand_format(type_ab) << 10) |
           (static_cast<uint32_t>(!a_k_major) << 15) | (static_cast<uint32_t>(!b_k_major) << 16) |
           (static_cast<uint32_t>(n >> 3) << 17) | (static_cast<uint32_t>(m >> 4) << 24);
}

// The instruction descriptor of .kind::mxf8f6f4 (PTX ISA, "Instruction descriptor format for
// .kind::mxf8f6f4"): bits 4-5 the scale-factor B ID, 7-9 A format and 10-12 B format (0 E4M3,
// 1 E5M2), 15, 16 A, B major, 17-22 N >> 3, 23 the scale type (1: UE8M0), 27-28 M >> 7, 29-30 the
// scale-factor A ID; D is always f32.  The IDs pick the byte of each 32-bit scale column: K step s of a
// stage (32 of K) reads byte s, its K block's scales (mx_scale.h's tiles hold K block j in byte j).
// Both operands K-major (major bits 0): the family stages 8-bit operands K-major alone, and the route
// gives it no other (plan/eight_bit_route.h).
ASYNCGEMM_HOST_DEVICE constexpr uint32_t mx_instruction_descriptor(int32_t type_ab, int m, int n) {
    return (operand_format(type_ab) << 7) | (operand_format(type_ab) << 10) | (static_cast<uint32_t>(n >> 3) << 17) |
           (1u << 23) | (static_cast<uint32_t>(m >> 7) << 27);
}
ASYNCGEMM_HOST_DEVICE constexpr uint32_t with_scale_ids(uint32_t mx_descriptor, int step) {
    return mx_descriptor | (static_cast<uint32_t>(step) << 4) | (static_cast<uint32_t>(step) << 29);
}

// tcgen05.cp's source descriptor of an MX scale tile: 32 rows of 16 bytes, unswizzled, 8-row groups
// 128 bytes apart (the leading offset spans the one 16-byte column and is set to the same).
inline constexpr uint32_t kMxCopyGroupBytes = 128;
ASYNCGEMM_HOST_DEVICE constexpr uint64_t mx_scale_copy_descriptor(uint32_t smem_address) {
    return tcgen05_plain_descriptor(smem_address, kMxCopyGroupBytes, kMxCopyGroupBytes);
}

// Whether a kernel list's shape word names the family's tile: tile_m x tile_n, stages
// (sm100_kernels.def).
constexpr bool shape_named(const char *shape) { return names_numbers(shape, {kTileM, kTileN, kStages}); }

// f16 and bf16 A and B, or f32 ones as tf32 where the caller allows it, in any majors (the
// instruction descriptor's major bits), or e4m3 and e5m2 ones K-major (plan/gemm_plan.cpp: the 8-bit
// operand tiles are staged K-major only); any C and D type.
constexpr bool supports_types(int32_t type_ab, int32_t type_cd, bool tf32) {
    const bool cd = type_cd == kF32 || type_cd == kF16 || type_cd == kBF16;
    return cd && (type_ab == kF16 || type_ab == kBF16 || (type_ab == kF32 && tf32) || is_eight_bit(type_ab));
}

}  // namespace asyncgemm::sm100
