// The SIMT family's layout arithmetic (csrc/kernels/simt/simt_traits.h) and the grouped raster:
// padding keeps vectors aligned and transposing writes conflict-free, every element of a tile is
// copied exactly once, the thread tiles cover the block tile, and the kernel table is consistent.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "kernels/common/raster.h"
#include "kernels/simt/simt_traits.h"
#include "plan/simt_kernels.h"
#include "plan/simt_launch.h"

namespace simt = asyncgemm::simt;
using asyncgemm::GemmParams;

namespace {

constexpr int kBankBytes = 4;

int bank(int float_offset) { return float_offset % simt::kSmemBanks; }

}  // namespace

TEST_CASE("simt: padding is the documented rule and keeps every row 16-byte aligned") {
    for (const simt::TileConfig &c : simt::kTileConfigs) {
        CHECK(simt::is_valid(c));
        CHECK(simt::smem_row_pad(c) == 4);  // 32 banks / 8 k per warp instruction
        for (int tile_x : {c.tile_m, c.tile_n}) {
            const int stride_bytes = simt::smem_row_stride(c, tile_x) * 4;
            // 4-, 8- and 16-byte vectors: +1 would break 8 and 16, +2 would break 16.
            for (int vector_bytes : {4, 8, 16}) CHECK(stride_bytes % vector_bytes == 0);
        }
        CHECK(simt::smem_a_floats(c) % simt::kSmemVectorFloats == 0);
        CHECK(simt::smem_stage_floats(c) % simt::kSmemVectorFloats == 0);
    }
}

TEST_CASE("simt: shared memory of the 128x128x32 configuration") {
    const simt::TileConfig &c = simt::kTileConfigs[0];
    CHECK(simt::smem_row_stride(c, 128) == 132);
    CHECK(simt::smem_a_floats(c) == 32 * 132);
    CHECK(simt::smem_stage_floats(c) == 2 * 32 * 132);
    CHECK(simt::smem_bytes(c) == 2u * 2u * 32u * 132u * 4u);  // 67584
    for (const simt::KernelInfo &k : simt::kKernels) CHECK(k.dynamic_smem == simt::smem_bytes(simt::kTileConfigs[k.config]));
}

TEST_CASE("simt: K-major copies cover the tile once and each warp instruction hits 32 distinct banks") {
    for (const simt::TileConfig &c : simt::kTileConfigs) {
        for (int tile_x : {c.tile_m, c.tile_n}) {
            const int stride = simt::smem_row_stride(c, tile_x);
            std::vector<int> seen(static_cast<size_t>(tile_x * c.tile_k), 0);
            for (int row = 0; row < simt::k_rows_per_thread(c, tile_x); ++row) {
                for (int group = 0; group < simt::k_groups(c); ++group) {
                    for (int warp = 0; warp < c.threads / simt::kWarpSize; ++warp) {
                        std::set<int> banks;
                        std::set<int> sectors;  // 32-byte global sectors read by the instruction
                        for (int lane = 0; lane < simt::kWarpSize; ++lane) {
                            const int t = warp * simt::kWarpSize + lane;
                            const int x = simt::k_elem_x(c, t, row), k = simt::k_elem_k(t, group);
                            REQUIRE(x < tile_x);
                            REQUIRE(k < c.tile_k);
                            ++seen[static_cast<size_t>(x * c.tile_k + k)];
                            banks.insert(bank(k * stride + x));
                            sectors.insert((x * c.tile_k + k) / (32 / kBankBytes));
                        }
                        CHECK(banks.size() == 32);
                        CHECK(sectors.size() == 32 / simt::kCopyLanesK);
                    }
                }
            }
            for (int count : seen) CHECK(count == 1);
        }
    }
}

TEST_CASE("simt: MN-major runs cover the tile once, 16-byte aligned, a warp on consecutive x") {
    for (const simt::TileConfig &c : simt::kTileConfigs) {
        for (int tile_x : {c.tile_m, c.tile_n}) {
            const int stride = simt::smem_row_stride(c, tile_x);
            std::vector<int> seen(static_cast<size_t>(tile_x * c.tile_k), 0);
            for (int run = 0; run < simt::mn_runs_per_thread(c, tile_x); ++run) {
                for (int t = 0; t < c.threads; ++t) {
                    const int x = simt::mn_run_x(tile_x, t), k = simt::mn_run_k(c, tile_x, t, run);
                    REQUIRE(k < c.tile_k);
                    REQUIRE(x + simt::kSmemVectorFloats <= tile_x);
                    CHECK((k * stride + x) % simt::kSmemVectorFloats == 0);
                    for (int e = 0; e < simt::kSmemVectorFloats; ++e) ++seen[static_cast<size_t>(k * tile_x + x + e)];
                    if (t % simt::kWarpSize != 0) {
                        // consecutive lanes, consecutive runs: one contiguous stretch per warp
                        CHECK(x == simt::mn_run_x(tile_x, t - 1) + simt::kSmemVectorFloats);
                        CHECK(k == simt::mn_run_k(c, tile_x, t - 1, run));
                    }
                }
            }
            for (int count : seen) CHECK(count == 1);
        }
    }
}

TEST_CASE("simt: thread tiles cover the block tile once; fragment reads are conflict-free LDS.128") {
    for (const simt::TileConfig &c : simt::kTileConfigs) {
        std::vector<int> seen(static_cast<size_t>(c.tile_m * c.tile_n), 0);
        for (int t = 0; t < c.threads; ++t) {
            CHECK(simt::thread_first_row(c, t) % simt::kFragmentRun == 0);
            CHECK(simt::thread_first_col(c, t) % simt::kFragmentRun == 0);
            for (int i = 0; i < c.thread_m; ++i) {
                for (int j = 0; j < c.thread_n; ++j) {
                    const int row = simt::thread_first_row(c, t) + simt::thread_row_offset(c, i);
                    const int col = simt::thread_first_col(c, t) + simt::thread_col_offset(c, j);
                    REQUIRE(row < c.tile_m);
                    REQUIRE(col < c.tile_n);
                    ++seen[static_cast<size_t>(row * c.tile_n + col)];
                }
            }
        }
        for (int count : seen) CHECK(count == 1);
        // One LDS.128 of a warp: the distinct 16-byte vectors it reads fit in one 128-byte wavefront.
        for (int warp = 0; warp < c.threads / simt::kWarpSize; ++warp) {
            std::set<int> a_vectors, b_vectors;
            for (int lane = 0; lane < simt::kWarpSize; ++lane) {
                a_vectors.insert(simt::thread_first_row(c, warp * simt::kWarpSize + lane));
                b_vectors.insert(simt::thread_first_col(c, warp * simt::kWarpSize + lane));
            }
            for (const std::set<int> *vectors : {&a_vectors, &b_vectors}) {
                CHECK(vectors->size() * 16 <= 128);
                CHECK(*vectors->rbegin() - *vectors->begin() == static_cast<int>(vectors->size() - 1) * simt::kFragmentRun);
            }
        }
    }
}

TEST_CASE("simt: kernel table and kernel_index") {
    std::set<std::string> names;
    for (int i = 0; i < simt::kKernelCount; ++i) {
        const simt::KernelInfo &k = simt::kKernels[i];
        names.insert(k.name);
        CHECK(k.config >= 0);
        CHECK(k.config < simt::kTileConfigCount);
        const bool a = asyncgemm::a_k_major(k.majors), b = asyncgemm::b_k_major(k.majors);
        CHECK(k.majors != asyncgemm::Majors::Any);
        CHECK(simt::kernel_index(k.type_ab, a, b, k.mx) == i);
        const std::string suffix = std::string(k.mx ? "_mx_" : "_") + (a ? "k" : "m") + (b ? "k" : "n");
        CHECK(std::string(k.name).substr(std::string(k.name).size() - suffix.size()) == suffix);
    }
    CHECK(names.size() == static_cast<size_t>(simt::kKernelCount));
    // 4 majors of f32, f16 and bf16 plain, and of the 8-bit kernels (either format) scaled and mx.
    CHECK(simt::kKernelCount == 20);
    // The 8-bit kernels serve both formats.
    for (bool mx : {false, true})
        CHECK(simt::kernel_index(asyncgemm::kE4M3, true, false, mx) ==
              simt::kernel_index(asyncgemm::kE5M2, true, false, mx));
    for (int32_t type : {asyncgemm::kF32, asyncgemm::kF16, asyncgemm::kBF16, asyncgemm::kE4M3, asyncgemm::kE5M2}) {
        const bool eight_bit = asyncgemm::is_eight_bit(type);
        for (bool a : {false, true}) {
            for (bool b : {false, true}) {
                CHECK(simt::kernel_index(type, a, b, false) >= 0);
                CHECK((simt::kernel_index(type, a, b, true) >= 0) == eight_bit);  // MX scales: 8-bit inputs alone
            }
        }
    }
    CHECK(simt::kernel_index(7, true, true, false) == -1);
}

TEST_CASE("simt: vector widths follow pointer, leading dimension and batch stride") {
    using asyncgemm::kF16;
    using asyncgemm::kF32;
    CHECK(simt::vector_width(kF32, false, 0x1000, 4096, 0) == 4);
    CHECK(simt::vector_width(kF32, false, 0x1008, 4096, 0) == 2);   // 8-byte aligned pointer
    CHECK(simt::vector_width(kF32, false, 0x1004, 4096, 0) == 1);
    CHECK(simt::vector_width(kF32, false, 0x1000, 4098, 0) == 2);   // odd pairs of rows
    CHECK(simt::vector_width(kF32, false, 0x1000, 4097, 0) == 1);
    CHECK(simt::vector_width(kF32, false, 0x1000, 4096, 6) == 2);   // batch stride
    CHECK(simt::vector_width(kF16, false, 0x1008, 64, 64) == 4);    // 4 halves: 8 bytes
    CHECK(simt::vector_width(kF16, false, 0x1004, 64, 64) == 2);
    CHECK(simt::vector_width(kF16, false, 0x1002, 64, 64) == 1);
    CHECK(simt::vector_width(asyncgemm::kE4M3, false, 0x1004, 64, 64) == 4);  // 4 bytes of 8-bit floats
    CHECK(simt::vector_width(asyncgemm::kE5M2, false, 0x1002, 64, 64) == 2);
    CHECK(simt::vector_width(asyncgemm::kE4M3, false, 0x1001, 64, 64) == 1);
    CHECK(simt::vector_width(kF32, true, 0x1000, 4096, 0) == 1);    // K-major: element by element
}

TEST_CASE("simt: prepare_launch fills the kernel's fields and the grid") {
    GemmParams p{};
    p.m = 1000, p.n = 129, p.k = 77, p.batch_count = 70000;
    p.a = reinterpret_cast<const void *>(uintptr_t{0x10000});
    p.lda = 77;
    p.b = reinterpret_cast<const void *>(uintptr_t{0x20000});
    p.ldb = 132, p.stride_b = 132 * 77;
    p.type_ab = asyncgemm::kF32, p.type_cd = asyncgemm::kF16;
    p.a_k_major = 1, p.b_k_major = 0;
    const simt::Launch launch = simt::prepare_launch(p, 4);  // batches are never split
    REQUIRE(launch.kernel == simt::kernel_index(asyncgemm::kF32, true, false, false));
    CHECK(std::string(simt::kKernels[launch.kernel].name) == "asyncgemm_simt_gemm_f32_plain_kn");
    CHECK(p.tiles_m == 8);
    CHECK(p.tiles_n == 2);
    CHECK(launch.grid_x == 16);
    CHECK(launch.grid_z == 65535);
    CHECK(launch.block_x == 256);
    CHECK(launch.dynamic_smem == simt::smem_bytes(simt::kTileConfigs[0]));
    CHECK(p.vec_a == 1);
    CHECK(p.vec_b == 4);
    CHECK(p.raster_group == simt::kRasterGroup);
    CHECK(p.splits == 1);
    CHECK(p.slices_per_split == 3);
    CHECK(launch.grid_y == 1);

    GemmParams bad = p;
    bad.type_ab = 9;
    CHECK(simt::prepare_launch(bad, 1).kernel == -1);
    bad = p;
    bad.m = int64_t{1} << 40;
    bad.n = int64_t{1} << 40;
    CHECK(simt::prepare_launch(bad, 1).kernel == -1);  // more tiles than a grid holds
    bad = p;
    bad.k = int64_t{1} << 40;
    CHECK(simt::prepare_launch(bad, 1).kernel == -1);
    bad = p;
    bad.n = 0;
    CHECK(simt::prepare_launch(bad, 1).kernel == -1);
}

TEST_CASE("simt: K is split where the tiles leave SMs idle, into ranges of at least 4 slices") {
    GemmParams p{};
    p.m = 1024, p.n = 1024, p.k = 1024, p.batch_count = 1, p.alpha = 1.f;
    p.type_ab = asyncgemm::kF32, p.type_cd = asyncgemm::kF32;
    p.a_k_major = 0, p.b_k_major = 0;
    p.lda = 1024, p.ldb = 1024;
    // 64 tiles of 128 x 128 for 264 blocks (132 SMs, two each): four ranges of 8 slices.
    CHECK(simt::splits_for(p, 132) == 4);
    const simt::Launch launch = simt::prepare_launch(p, 4);
    CHECK(p.splits == 4);
    CHECK(p.slices_per_split == 8);
    CHECK(launch.grid_y == 4);
    CHECK(launch.grid_x == 64);
    // A wave of tiles or more: unsplit.
    p.m = p.n = 4096;
    CHECK(simt::splits_for(p, 132) == 1);
    // Short K: a range keeps 4 slices (k = 200: 7 slices, one range).
    p.m = p.n = 256, p.k = 200;
    CHECK(simt::splits_for(p, 132) == 1);
    p.k = 32 * 64;  // 64 slices: at most 8 ranges
    CHECK(simt::splits_for(p, 132) == 8);
    // Batches and alpha = 0 are never split, whatever they are given.
    p.batch_count = 2;
    simt::prepare_launch(p, 8);
    CHECK(p.splits == 1);
    p.batch_count = 1, p.alpha = 0.f;
    simt::prepare_launch(p, 8);
    CHECK(p.splits == 1);
}

TEST_CASE("grouped raster visits every tile once, in bands of `group` tile rows") {
    for (int32_t tiles_m : {1, 3, 8, 13, 32}) {
        for (int32_t tiles_n : {1, 2, 7, 32}) {
            for (int32_t group : {-1, 0, 1, 4, 8, 100}) {
                std::vector<int> seen(static_cast<size_t>(tiles_m * tiles_n), 0);
                for (int32_t tile = 0; tile < tiles_m * tiles_n; ++tile) {
                    const asyncgemm::TileCoord c = asyncgemm::grouped_tile(tile, tiles_m, tiles_n, group);
                    REQUIRE(c.m >= 0);
                    REQUIRE(c.m < tiles_m);
                    REQUIRE(c.n >= 0);
                    REQUIRE(c.n < tiles_n);
                    ++seen[static_cast<size_t>(c.m * tiles_n + c.n)];
                }
                for (int count : seen) CHECK(count == 1);
            }
        }
    }
    // 8 bands of 4 rows over 32 x 32 tiles: the first 4 tiles walk down column 0.
    for (int32_t tile = 0; tile < 4; ++tile) {
        const asyncgemm::TileCoord c = asyncgemm::grouped_tile(tile, 32, 32, 4);
        CHECK(c.m == tile);
        CHECK(c.n == 0);
    }
    CHECK(asyncgemm::grouped_tile(4, 32, 32, 4).n == 1);
    CHECK(asyncgemm::grouped_tile(4 * 32, 32, 32, 4).m == 4);
}
