// The MX scales (ASYNCGEMM_SCALE_MX_32): the tile layout shared with cuBLASLt's VEC32_UE8M0 and
// PyTorch's blocked scales, and the UE8M0 decoding of the OCP Microscaling Formats specification
// v1.0 ("E8M0": 2^(e - 127), 0xFF NaN, no zero, no sign).  Every expected value is worked out by hand.
#include <doctest/doctest.h>

#include <set>

#include "kernels/common/mx_scale.h"

using namespace asyncgemm;

TEST_CASE("MX scale tiles: 128 rows x 4 K blocks of 32 in 512 bytes, row r at (r % 32) * 16 + (r / 32) * 4") {
    CHECK(mx_scale_offset(0, 0, 128) == 0);
    CHECK(mx_scale_offset(0, 1, 128) == 1);     // K blocks are a row group's 4 bytes
    CHECK(mx_scale_offset(1, 0, 128) == 16);    // rows r and r + 1: 16 bytes apart
    CHECK(mx_scale_offset(31, 0, 128) == 496);
    CHECK(mx_scale_offset(32, 0, 128) == 4);    // rows 32 apart share a 16-byte line
    CHECK(mx_scale_offset(96, 2, 128) == 14);
    CHECK(mx_scale_offset(127, 3, 128) == 511);
    // The K tiles of a row tile follow one another, then the next row tile's.
    CHECK(mx_scale_offset(0, 4, 256) == 512);
    CHECK(mx_scale_offset(5, 7, 256) == 512 + 5 * 16 + 3);
    CHECK(mx_scale_offset(128, 0, 256) == 1024);
    CHECK(mx_scale_offset(128, 0, 100) == 512);  // one K tile (K padded to 128)
    CHECK(mx_scale_offset(300, 9, 520) == (2 * 5 + 2) * 512 + 12 * 16 + 1 * 4 + 1);
    // A tile's 512 bytes are each one (row, K block) pair.
    std::set<uint32_t> bytes;
    for (uint32_t x = 0; x < 128; ++x)
        for (uint32_t kb = 0; kb < 4; ++kb) bytes.insert(mx_offset_in_tile(x, kb));
    CHECK(bytes.size() == 512);
    CHECK(*bytes.rbegin() == 511);
}

TEST_CASE("MX scale bytes: whole tiles, rows padded to 128 and K to 128") {
    CHECK(mx_k_tiles(1) == 1);
    CHECK(mx_k_tiles(128) == 1);
    CHECK(mx_k_tiles(129) == 2);
    CHECK(mx_scale_bytes(1, 1) == 512);
    CHECK(mx_scale_bytes(128, 128) == 512);
    CHECK(mx_scale_bytes(200, 520) == 2 * 5 * 512);
    CHECK(mx_scale_bytes(4096, 4096) == 4096 * 4096 / 32);  // one byte per 32 elements when nothing pads
    CHECK(mx_tile_offset(3, 2, 520) == (3 * 5 + 2) * 512);
}

TEST_CASE("UE8M0 scales: 2^(e - 127); 0 is 2^-127, 0xFF NaN") {
    CHECK(ue8m0_float_bits(127) == 0x3F800000u);  // 1
    CHECK(ue8m0_float_bits(128) == 0x40000000u);  // 2
    CHECK(ue8m0_float_bits(124) == 0x3E000000u);  // 1/8
    CHECK(ue8m0_float_bits(254) == 0x7F000000u);  // 2^127, the largest
    CHECK(ue8m0_float_bits(1) == 0x00800000u);    // 2^-126, the smallest normal fp32
    CHECK(ue8m0_float_bits(0) == 0x00400000u);    // 2^-127, an fp32 subnormal
    CHECK(ue8m0_float_bits(255) == 0x7FC00000u);  // NaN
}
