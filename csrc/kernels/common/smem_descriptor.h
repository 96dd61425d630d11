// The shared-memory matrix descriptor that wgmma (sm_90a) and tcgen05.mma / tcgen05.cp (sm_100a)
// read their operands through, for the one layout the TMA families store operands in: tiles loaded
// with the 128-byte swizzle, whose rows are 128 bytes (64 16-bit or 32 32-bit elements) and whose
// swizzle atoms are 8 rows (1024 bytes), aligned to 1024 bytes so the base-offset field stays 0.
//
// PTX ISA, "Matrix Descriptor Format" (asynchronous warpgroup MMA) and "Shared Memory Descriptor"
// (tcgen05): bits 0-13 start address >> 4; 16-29 leading-dimension byte offset >> 4; 32-45
// stride-dimension byte offset >> 4; 49-51 base offset.  wgmma: bits 62-63 swizzle mode (1: 128-byte).
// tcgen05: bits 46-48 the fixed version 0b001, bit 52 leading-offset mode (0: relative), bits 61-63
// swizzle mode (2: 128-byte) -- the same bit 62 as wgmma's 128-byte mode.
//
// Plain C++ (host and device): tests/unit/test_sm90_encoding.cpp and test_sm100_encoding.cpp pin
// every field.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"
#include "kernels/common/params.h"

namespace asyncgemm {

// Which instruction reads the descriptor: the two generations differ in the fixed bits alone.
enum class MmaUnit { Wgmma, Tcgen05 };

inline constexpr uint64_t kWgmmaSwizzle128B = uint64_t{1} << 62;     // mode 1 in bits 62-63
inline constexpr uint64_t kTcgen05Swizzle128B = uint64_t{2} << 61;   // mode 2 in bits 61-63
inline constexpr uint64_t kTcgen05Version = uint64_t{1} << 46;       // 0b001 in bits 46-48

// The address and offset fields, common to both generations and every swizzle mode.
ASYNCGEMM_HOST_DEVICE constexpr uint64_t descriptor_fields(uint32_t smem_address, uint32_t leading_bytes,
                                                           uint32_t stride_bytes) {
    return (static_cast<uint64_t>((smem_address >> 4) & 0x3FFF)) |
           (static_cast<uint64_t>((leading_bytes >> 4) & 0x3FFF) << 16) |
           (static_cast<uint64_t>((stride_bytes >> 4) & 0x3FFF) << 32);
}

ASYNCGEMM_HOST_DEVICE constexpr uint64_t smem_descriptor(MmaUnit unit, uint32_t smem_address, uint32_t leading_bytes,
                                                         uint32_t stride_bytes) {
    const uint64_t fixed = unit == MmaUnit::Wgmma ? kWgmmaSwizzle128B : kTcgen05Swizzle128B | kTcgen05Version;
    return descriptor_fields(smem_address, leading_bytes, stride_bytes) | fixed;
}

// A tcgen05 descriptor of an unswizzled matrix (swizzle mode 0): rows of 16 bytes, 8-row groups
// (128 bytes) `stride_bytes` apart.  tcgen05.cp reads the MX scale tiles through it.
ASYNCGEMM_HOST_DEVICE constexpr uint64_t tcgen05_plain_descriptor(uint32_t smem_address, uint32_t leading_bytes,
                                                                  uint32_t stride_bytes) {
    return descriptor_fields(smem_address, leading_bytes, stride_bytes) | kTcgen05Version;
}

inline constexpr uint32_t kRowBytes = 128;              // one swizzled row
inline constexpr uint32_t kAtomBytes = 8 * kRowBytes;   // a swizzle atom: 8 rows
inline constexpr uint32_t kMmaKBytes = 32;              // K per MMA: k16 of 16-bit elements, k8 of tf32, k32 of 8-bit
inline constexpr int kMmaSteps = static_cast<int>(kRowBytes / kMmaKBytes);  // MMAs per 128-byte row of K

// Elements in one 128-byte row.
ASYNCGEMM_HOST_DEVICE constexpr int row_elements(uint32_t element_bytes) {
    return static_cast<int>(kRowBytes / element_bytes);
}

// K per stage of the TMA families: one 128-byte row, 64 elements of f16/bf16, 32 of f32 (tf32) or
// 128 of the 8-bit floats.
ASYNCGEMM_HOST_DEVICE constexpr int block_k(int32_t type_ab) {
    return row_elements(static_cast<uint32_t>(input_element_bytes(type_ab)));
}
constexpr int64_t k_block_count(int64_t k, int32_t type_ab) { return (k + block_k(type_ab) - 1) / block_k(type_ab); }

// A K-major operand tile: rows (M or N) of one 128-byte row of K each.  The descriptor of K step
// `step` for the rows from `row0` on: 8-row groups are kAtomBytes apart (stride offset; the leading
// offset is unused with a swizzle), and a K step moves 32 bytes inside the row (the hardware applies
// the swizzle to the address bits, so the start may sit inside an atom).  tcgen05.cp reads a
// 128-row x 256-bit slice of a tile of 32-bit elements through the same descriptor.
ASYNCGEMM_HOST_DEVICE constexpr uint32_t k_major_step_bytes() { return kMmaKBytes; }
ASYNCGEMM_HOST_DEVICE constexpr uint64_t k_major_descriptor(MmaUnit unit, uint32_t tile_address, int row0, int step) {
    return smem_descriptor(unit,
                           tile_address + static_cast<uint32_t>(row0) * kRowBytes +
                               static_cast<uint32_t>(step) * k_major_step_bytes(),
                           16, kAtomBytes);
}

// An MN-major operand tile: blocks of one 128-byte row of M (or N) elements, each a TMA box of one
// stage's K rows (row_elements of them) of 128 bytes.  For the blocks from `block0` on: the leading
// offset steps from one block to the next, the stride offset from one group of 8 K rows to the next,
// and a K step (32 bytes of K: 16 or 8 rows) moves that many rows.
ASYNCGEMM_HOST_DEVICE constexpr uint32_t mn_block_bytes(uint32_t element_bytes) {
    return static_cast<uint32_t>(row_elements(element_bytes)) * kRowBytes;
}
ASYNCGEMM_HOST_DEVICE constexpr uint32_t mn_major_step_bytes(uint32_t element_bytes) {
    return kMmaKBytes / element_bytes * kRowBytes;
}
ASYNCGEMM_HOST_DEVICE constexpr uint64_t mn_major_descriptor(MmaUnit unit, uint32_t tile_address, int block0, int step,
                                                             uint32_t element_bytes) {
    return smem_descriptor(unit,
                           tile_address + static_cast<uint32_t>(block0) * mn_block_bytes(element_bytes) +
                               static_cast<uint32_t>(step) * mn_major_step_bytes(element_bytes),
                           mn_block_bytes(element_bytes), kAtomBytes);
}

// The descriptor of the matrix `bytes` further on.  The start address is the low 14 bits, in 16-byte
// units, and shared-memory addresses stay below 2^18, so the sum never carries out of its field: one
// add in the K loop instead of rebuilding every field.
ASYNCGEMM_HOST_DEVICE constexpr uint64_t advance_descriptor(uint64_t descriptor, uint32_t bytes) {
    return descriptor + (bytes >> 4);
}

}  // namespace asyncgemm
