// wgmma's shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format" of the asynchronous
// warpgroup MMA), for the one layout this family stores operands in: TMA tiles with the 128-byte
// swizzle, whose rows are 128 bytes (64 16-bit elements) and whose swizzle atoms are 8 rows (1024
// bytes), aligned to 1024 bytes so the base-offset field stays 0.
//
// Plain C++ (host and device): tests/unit/test_sm90_encoding.cpp pins every field.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm::sm90 {

// Bits: 0-13 start address >> 4; 16-29 leading-dimension byte offset >> 4; 32-45 stride-dimension
// byte offset >> 4; 49-51 base offset (0: atoms 1024-byte aligned); 62-63 swizzle mode
// (0 interleave, 1 128-byte, 2 64-byte, 3 32-byte).
inline constexpr uint64_t kSwizzle128B = 1;

ASYNCGEMM_HOST_DEVICE constexpr uint64_t smem_descriptor(uint32_t smem_address, uint32_t leading_bytes,
                                                         uint32_t stride_bytes) {
    return (static_cast<uint64_t>((smem_address >> 4) & 0x3FFF)) |
           (static_cast<uint64_t>((leading_bytes >> 4) & 0x3FFF) << 16) |
           (static_cast<uint64_t>((stride_bytes >> 4) & 0x3FFF) << 32) | (kSwizzle128B << 62);
}

inline constexpr uint32_t kRowBytes = 128;                 // one swizzled row: 64 16-bit elements
inline constexpr uint32_t kAtomBytes = 8 * kRowBytes;      // a swizzle atom: 8 rows
inline constexpr int kBlockK = 64;        // K per stage of 16-bit operands: one 128-byte row of K
inline constexpr uint32_t kMmaKBytes = 32;  // K per wgmma: k16 of 16-bit elements, k8 of tf32
inline constexpr int kMmaSteps = static_cast<int>(kRowBytes / kMmaKBytes);  // wgmmas per stage

// A K-major operand tile: `rows` (M or N) rows of one 128-byte row of K each (64 16-bit or 32 fp32
// elements).  The descriptor of K step `step` for the rows from `row0` on: 8-row groups are
// kAtomBytes apart (stride offset; the leading offset is unused with a swizzle), and a K step moves
// 32 bytes inside the row (the swizzle is applied by the hardware to the address bits, so the start
// may sit inside an atom).
ASYNCGEMM_HOST_DEVICE constexpr uint64_t k_major_descriptor(uint32_t tile_address, int row0, int step) {
    return smem_descriptor(tile_address + static_cast<uint32_t>(row0) * kRowBytes +
                               static_cast<uint32_t>(step) * kMmaKBytes,
                           16, kAtomBytes);
}

// An MN-major operand tile (16-bit only: wgmma cannot transpose tf32): column blocks of 64 M (or N)
// elements, each kBlockK rows of K of 128 bytes (one TMA box), kBlockK * 128 bytes apart.  For the columns from `block0` on: the leading
// offset steps from one 64-wide block to the next, the stride offset from one group of 8 K rows to
// the next, and a K step of 16 rows moves two atoms.
inline constexpr uint32_t kMnBlockBytes = kBlockK * kRowBytes;
ASYNCGEMM_HOST_DEVICE constexpr uint64_t mn_major_descriptor(uint32_t tile_address, int block0, int step) {
    return smem_descriptor(tile_address + static_cast<uint32_t>(block0) * kMnBlockBytes +
                               static_cast<uint32_t>(step) * 2 * kAtomBytes,
                           kMnBlockBytes, kAtomBytes);
}

}  // namespace asyncgemm::sm90
