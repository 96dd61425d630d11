// The sm80 family's layout arithmetic (csrc/kernels/sm80/sm80_traits.h, kernels/common/swizzle.h):
// the swizzle is a bijection that keeps ldmatrix reads and cp.async writes conflict-free, each
// chunk of a tile is copied exactly once; its kernel table, heuristic, vector widths and
// prepare_launch (csrc/plan/sm80_*.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_traits.h"
#include "plan/sm80_heuristic.h"
#include "plan/sm80_kernels.h"
#include "plan/sm80_launch.h"
#include "plan/split_k.h"

namespace sm80 = asyncgemm::sm80;
using asyncgemm::GemmParams;

namespace {

// The 16-byte bank group (4 banks) a byte offset falls in: 8 of them span the 32 banks.
int bank_group(int offset) { return offset / asyncgemm::kSwizzleChunkBytes % 8; }

}  // namespace

TEST_CASE("sm80: the swizzle is a bijection on each row") {
    for (int row_chunks : {8, 16}) {
        for (int row = 0; row < 64; ++row) {
            std::set<int> seen;
            for (int chunk = 0; chunk < row_chunks; ++chunk) {
                const int offset = asyncgemm::swizzled_offset(row, chunk, row_chunks);
                CHECK(offset / (row_chunks * 16) == row);  // stays in its row
                seen.insert(offset);
            }
            CHECK(static_cast<int>(seen.size()) == row_chunks);
        }
    }
}

TEST_CASE("sm80: ldmatrix phases (8 rows, one logical chunk) hit 8 distinct bank groups") {
    for (int row_chunks : {8, 16}) {
        for (int first_row = 0; first_row < 64; first_row += 8) {
            for (int chunk = 0; chunk < row_chunks; ++chunk) {
                std::set<int> groups;
                for (int r = 0; r < 8; ++r) groups.insert(bank_group(asyncgemm::swizzled_offset(first_row + r, chunk, row_chunks)));
                CHECK(groups.size() == 8);
            }
        }
    }
}

TEST_CASE("sm80: every chunk of every operand tile is copied exactly once, 8 threads per 128 bytes") {
    for (const sm80::TileConfig &c : sm80::kTileConfigs) {
        CHECK(sm80::is_valid(c));
        for (int tile_x : {c.tile_m, c.tile_n}) {
            for (bool k_major : {true, false}) {
                const sm80::OperandLayout layout = sm80::operand_layout(tile_x, c.tile_k, k_major);
                CHECK(layout.rows * layout.row_chunks * 16 == sm80::operand_bytes(c, tile_x));
                std::vector<int> copied(static_cast<size_t>(layout.rows * layout.row_chunks), 0);
                const int threads = sm80::threads(c);
                for (int t = 0; t < threads; ++t) {
                    for (int i = 0; i < sm80::copy_chunks_per_thread(c, tile_x); ++i) {
                        const int index = t + i * threads;  // as operand_copy.cuh walks them
                        const int row = index / layout.row_chunks, chunk = index % layout.row_chunks;
                        // operand_copy.cuh steps the destination by threads chunks: same swizzle.
                        const int first = asyncgemm::swizzled_offset(t / layout.row_chunks, t % layout.row_chunks,
                                                                     layout.row_chunks);
                        CHECK(asyncgemm::swizzled_offset(row, chunk, layout.row_chunks) == first + i * threads * 16);
                        ++copied[static_cast<size_t>(row * layout.row_chunks + chunk)];
                    }
                }
                for (int n : copied) CHECK(n == 1);
                // A warp's 32 writes of one instruction cover whole 128-byte spans: conflict-free.
                for (int w = 0; w < threads; w += 32) {
                    std::vector<int> per_group(8, 0);
                    for (int t = w; t < w + 32; ++t)
                        ++per_group[static_cast<size_t>(bank_group(asyncgemm::swizzled_offset(
                            t / layout.row_chunks, t % layout.row_chunks, layout.row_chunks)))];
                    for (int n : per_group) CHECK(n == 4);
                }
            }
        }
    }
}

TEST_CASE("sm80: ASYNC_COPY and the 3-stage 128 x 128, 128 x 64 and 64 x 128 PIPELINED kernels fit every SM of "
          "sm_80 and later (99 KB opt-in on sm_86/89/120); the rest need sm_80/90/100 (163 KB and more)") {
    const sm80::DeviceLimits small{84, 99 * 1024}, a100{108, 163 * 1024}, h100{132, 227 * 1024};
    for (int config : {sm80::kConfigPipelinedLarge, sm80::kConfigPipelinedSmall, sm80::kConfigAsyncCopy,
                       sm80::kConfigShortM, sm80::kConfigPaired})
        CHECK(sm80::kernel_fits(config, small));
    for (int config : {sm80::kConfigWide, sm80::kConfigLargeDeep}) CHECK_FALSE(sm80::kernel_fits(config, small));
    for (int config = 0; config < sm80::kTileConfigCount; ++config) {
        CHECK(sm80::kernel_fits(config, a100));
        CHECK(sm80::kernel_fits(config, h100));
    }
    CHECK(sm80::smem_bytes(sm80::kTileConfigs[sm80::kConfigPipelinedLarge]) == 3u * 32768u);
    CHECK(sm80::smem_bytes(sm80::kTileConfigs[sm80::kConfigAsyncCopy]) == 32768u);
    CHECK(sm80::smem_bytes(sm80::kTileConfigs[sm80::kConfigWide]) == 3u * 49152u);
    CHECK(sm80::smem_bytes(sm80::kTileConfigs[sm80::kConfigLargeDeep]) == 5u * 32768u);
}

TEST_CASE("sm80: kernel table") {
    std::set<std::string> names;
    for (const sm80::KernelInfo &k : sm80::kKernels) names.insert(k.name);
    CHECK(static_cast<int>(names.size()) == sm80::kKernelCount);
    for (int i = 0; i < sm80::kKernelCount; ++i) {
        const sm80::KernelInfo &k = sm80::kKernels[i];
        CHECK(k.majors != asyncgemm::Majors::Any);
        const bool a = asyncgemm::a_k_major(k.majors), b = asyncgemm::b_k_major(k.majors);
        CHECK(sm80::kernel_index(k.type_ab, k.config, a, b) == i);
    }
    // f16 and bf16: every configuration in all four major combinations.
    for (int type : {asyncgemm::kF16, asyncgemm::kBF16}) {
        for (int config = 0; config < sm80::kTileConfigCount; ++config)
            for (bool a : {false, true})
                for (bool b : {false, true}) CHECK(sm80::kernel_index(type, config, a, b) >= 0);
    }
    // tf32: K-major only, every configuration but those with 64 x 64 warp tiles (they spill), which
    // the heuristic avoids for it.
    for (int config = 0; config < sm80::kTileConfigCount; ++config) {
        const bool warp_64x64 = sm80::warp_tile_m(sm80::kTileConfigs[config]) == 64 &&
                                sm80::warp_tile_n(sm80::kTileConfigs[config]) == 64;
        CHECK((sm80::kernel_index(asyncgemm::kF32, config, true, true) >= 0) == !warp_64x64);
        CHECK(sm80::kernel_index(asyncgemm::kF32, config, true, false) == -1);
        CHECK(sm80::kernel_index(asyncgemm::kF32, config, false, true) == -1);
    }
    CHECK(sm80::kKernelCount == 2 * 4 * sm80::kTileConfigCount + 6);
}

TEST_CASE("sm80: heuristic") {
    constexpr sm80::DeviceLimits h100{132, 227 * 1024};
    constexpr sm80::DeviceLimits a100{108, 163 * 1024};
    constexpr sm80::DeviceLimits rtx{84, 99 * 1024};  // sm_86: 99 KB per block
    const auto choose = [](int64_t m, int64_t n, int64_t k, int64_t batch, const sm80::DeviceLimits &device) {
        const asyncgemm::plan::KernelChoice c = sm80::choose_config(true, {m, n, k, batch}, device);
        return std::pair<int, int>(c.config, c.splits);
    };
    using P = std::pair<int, int>;
    CHECK(sm80::choose_config(false, {4096, 4096, 4096, 1}, h100).config == sm80::kConfigAsyncCopy);
    CHECK(sm80::choose_config(false, {128, 128, 1 << 20, 1}, h100).splits == 1);
    CHECK(sm80::runs_paired(h100));
    CHECK_FALSE(sm80::runs_paired(a100));
    CHECK_FALSE(sm80::runs_paired(rtx));
    // Many tiles: 128 x 256 where 144 KB fit and they fill every SM, else 128 x 128 (paired on H100).
    CHECK(choose(4096, 4096, 4096, 1, h100) == P(sm80::kConfigWide, 1));
    CHECK(choose(2048, 2048, 4096, 1, h100) == P(sm80::kConfigPaired, 1));  // 128 tiles of 128 x 256
    CHECK(choose(4096, 4096, 4096, 1, a100) == P(sm80::kConfigWide, 1));
    CHECK(sm80::choose_config(true, {4096, 4096, 4096, 1, 4}, a100).config == sm80::kConfigPipelinedLarge);  // tf32
    CHECK(sm80::choose_config(true, {4096, 4096, 4096, 1, 4}, h100).config == sm80::kConfigPipelinedLarge);
    CHECK(choose(4096, 4096, 4096, 1, rtx) == P(sm80::kConfigPipelinedLarge, 1));
    CHECK(choose(1024, 1024, 4096, 4, h100) == P(sm80::kConfigPaired, 1));  // 256 tiles
    CHECK(choose(1536, 1408, 4096, 1, rtx) == P(sm80::kConfigPipelinedLarge, 1));  // 132 tiles
    // 1024 x 1024: 64 tiles of 128 x 128.  H100 holds two paired blocks per SM: K in 4 ranges of
    // 56 slices; fewer where K is shorter (each range keeps 8 slices).
    CHECK(choose(1024, 1024, 14336, 1, h100) == P(sm80::kConfigPaired, 4));
    CHECK(choose(1024, 1024, 1024, 1, h100) == P(sm80::kConfigPaired, 2));
    // K too short for 2 ranges: 128 tiles of 128 x 64 fill more SMs than 64 paired ones.
    CHECK(choose(1024, 1024, 960, 1, h100) == P(sm80::kConfigPipelinedSmall, 1));
    // Less than a wave of 128 x 64 tiles, K unsplit: 128 x 64 tiles (measured on an H200).
    CHECK(choose(200, 300, 100, 1, h100) == P(sm80::kConfigTiny, 1));
    CHECK(choose(300, 200, 500, 1, h100) == P(sm80::kConfigTiny, 1));
    // A100 (108 SMs): 64 tiles of 128 x 128 cannot be split in 2 without a second wave; 128 x 64
    // tiles fill it.  512 x 1024 (32 tiles) splits in 3.
    CHECK(choose(1024, 1024, 14336, 1, a100) == P(sm80::kConfigPipelinedSmall, 1));
    CHECK(choose(512, 1024, 14336, 1, a100) == P(sm80::kConfigPipelinedLarge, 3));
    // One row of tiles, 128 x 4096: 64 tiles of 128 x 64 at two blocks per SM, 4 ranges of 16 slices.
    CHECK(choose(128, 4096, 4096, 1, h100) == P(sm80::kConfigPipelinedSmall, 4));
    // Short m: 64 x 128 tiles (two blocks per SM), split once they leave SMs idle, at most 16 ranges.
    CHECK(choose(16, 8192, 8192, 1, h100) == P(sm80::kConfigShortM, 4));
    CHECK(choose(64, 65536, 64, 1, h100) == P(sm80::kConfigShortM, 1));
    CHECK(choose(1, 128, 1 << 20, 1, h100) == P(sm80::kConfigShortM, 16));
    // Batches never split.
    CHECK(choose(128, 128, 1 << 16, 4, h100) == P(sm80::kConfigPipelinedSmall, 1));
    CHECK(choose(256, 256, 1 << 16, 4, h100) == P(sm80::kConfigPaired, 1));
    CHECK(choose(512, 512, 1 << 16, 8, h100) == P(sm80::kConfigPaired, 1));
}

TEST_CASE("sm80: kernels that do not fit the device, or do not exist for the type, are never chosen") {
    for (int smem : {99 * 1024, 163 * 1024, 227 * 1024}) {
        const sm80::DeviceLimits device{132, smem};
        for (int64_t m : {1, 64, 100, 1024, 8192})
            for (int64_t n : {1, 1000, 8192})
                for (int64_t k : {0, 64, 4096, 1 << 20})
                    for (int bytes : {2, 4}) {
                        const asyncgemm::plan::KernelChoice c = sm80::choose_config(true, {m, n, k, 1, bytes}, device);
                        CHECK(sm80::kernel_fits(c.config, device));
                        CHECK(sm80::kernel_index(bytes == 4 ? asyncgemm::kF32 : asyncgemm::kF16, c.config, true, true) >= 0);
                        CHECK(c.splits >= 1);
                        CHECK(c.splits <= sm80::kSplitRule.max_splits);
                    }
    }
}

TEST_CASE("sm80: vector width") {
    using asyncgemm::kF16;
    using asyncgemm::kF32;
    CHECK(sm80::vector_width(kF16, 0x1000, 4096, 0) == 8);
    CHECK(sm80::vector_width(kF16, 0x1008, 4096, 0) == 4);
    CHECK(sm80::vector_width(kF16, 0x1004, 4096, 0) == 2);
    CHECK(sm80::vector_width(kF16, 0x1002, 4096, 0) == 1);
    CHECK(sm80::vector_width(kF16, 0x1000, 4100, 0) == 4);
    CHECK(sm80::vector_width(kF16, 0x1000, 4097, 0) == 1);
    CHECK(sm80::vector_width(kF16, 0x1000, 4096, 4096 * 4096 + 2) == 2);
    // f32 (tf32): 4 elements fill a 16-byte chunk; 4-byte alignment still allows 4-byte cp.async.
    CHECK(sm80::vector_width(kF32, 0x1000, 4096, 0) == 4);
    CHECK(sm80::vector_width(kF32, 0x1008, 4096, 0) == 2);
    CHECK(sm80::vector_width(kF32, 0x1004, 4096, 0) == 1);
    CHECK(sm80::vector_width(kF32, 0x1000, 4098, 0) == 2);
}

TEST_CASE("sm80: tf32 takes f32 A and B, K-major, in TF32 mode; a slice is the same 128 bytes of K") {
    CHECK(sm80::supports_types(asyncgemm::kF32, asyncgemm::kF16, true, true, true));
    CHECK_FALSE(sm80::supports_types(asyncgemm::kF32, asyncgemm::kF32, false, true, true));  // exact fp32 asked
    CHECK_FALSE(sm80::supports_types(asyncgemm::kF32, asyncgemm::kF32, true, false, true));  // no ldmatrix.trans.b32
    CHECK_FALSE(sm80::supports_types(asyncgemm::kF32, asyncgemm::kF32, true, true, false));
    CHECK(sm80::supports_types(asyncgemm::kBF16, asyncgemm::kF32, false, false, false));
    const sm80::TileConfig &c = sm80::kTileConfigs[sm80::kConfigPipelinedLarge];
    CHECK(sm80::slice_elements(c, asyncgemm::kF16) == 64);
    CHECK(sm80::slice_elements(c, asyncgemm::kF32) == 32);
    // Split counts see the slices of the type: K = 4096 of f32 is 128 slices, as K = 8192 of f16.
    const sm80::Shape f32{1024, 1024, 4096, 1, 4};
    const sm80::Shape f16{1024, 1024, 8192, 1, 2};
    CHECK(sm80::split_count(sm80::kConfigPipelinedLarge, f32, 132) ==
          sm80::split_count(sm80::kConfigPipelinedLarge, f16, 132));
}

TEST_CASE("sm80: prepare_launch_config") {
    GemmParams p{};
    p.m = 4096;
    p.n = 4000;
    p.k = 4096;
    p.batch_count = 70000;
    p.alpha = 1.0f;
    p.type_ab = asyncgemm::kBF16;
    p.type_cd = asyncgemm::kF32;
    p.a = reinterpret_cast<const void *>(uintptr_t{0x10000});
    p.lda = 4096;
    p.b = reinterpret_cast<const void *>(uintptr_t{0x20002});
    p.ldb = 4000;
    p.a_k_major = 1;
    const sm80::Launch launch = sm80::prepare_launch_config(p, sm80::kConfigPipelinedLarge, 4);
    CHECK(launch.kernel == sm80::kernel_index(asyncgemm::kBF16, sm80::kConfigPipelinedLarge, true, false));
    CHECK(launch.grid_x == 32u * 32u);
    CHECK(launch.grid_y == 1u);  // batches never split
    CHECK(launch.grid_z == 65535u);
    CHECK(launch.block_x == 256u);
    CHECK(launch.dynamic_smem == 98304u);
    CHECK(p.tiles_m == 32);
    CHECK(p.tiles_n == 32);
    CHECK(p.vec_a == 8);
    CHECK(p.vec_b == 1);
    CHECK(p.raster_group == sm80::kRasterGroup);
    CHECK(p.splits == 1);
    CHECK(p.slices_per_split == 64);

    GemmParams f32 = p;
    f32.type_ab = asyncgemm::kF32;  // tf32 with B MN-major: no kernel
    CHECK(sm80::prepare_launch_config(f32, sm80::kConfigPipelinedLarge, 1).kernel == -1);
    f32.b_k_major = 1;
    f32.ldb = 4096;
    const sm80::Launch tf32 = sm80::prepare_launch_config(f32, sm80::kConfigPipelinedLarge, 1);
    CHECK(tf32.kernel == sm80::kernel_index(asyncgemm::kF32, sm80::kConfigPipelinedLarge, true, true));
    CHECK(f32.slices_per_split == 128);  // 4096 / 32
    CHECK(f32.vec_a == 4);
    CHECK(sm80::prepare_launch_config(p, sm80::kTileConfigCount, 1).kernel == -1);
}

TEST_CASE("sm80: split ranges cover K exactly, none empty") {
    GemmParams p{};
    p.m = 256;
    p.n = 256;
    p.batch_count = 1;
    p.alpha = 1.0f;
    p.type_ab = asyncgemm::kF16;
    p.type_cd = asyncgemm::kF16;
    p.lda = p.ldb = 1 << 20;
    for (int64_t k : {1, 63, 64, 65, 128, 129, 1000, 14336}) {
        for (int splits : {1, 2, 3, 7, 16}) {
            p.k = k;
            const sm80::Launch launch = sm80::prepare_launch_config(p, sm80::kConfigPipelinedLarge, splits);
            const int slices = static_cast<int>(asyncgemm::ceil_div(k, 64));
            CAPTURE(k);
            CAPTURE(splits);
            CHECK(launch.grid_y == static_cast<uint32_t>(p.splits));
            CHECK(p.splits <= splits);
            CHECK(p.splits >= 1);
            // The kernel's ranges: split s takes min(slices - s * per_split, per_split) slices.
            int covered = 0;
            for (int s = 0; s < p.splits; ++s) {
                const int mine = std::min(slices - s * p.slices_per_split, p.slices_per_split);
                CHECK(mine >= 1);
                covered += mine;
            }
            CHECK(covered == slices);
        }
    }
    p.k = 4096;
    p.alpha = 0.0f;  // no product: nothing to split
    sm80::prepare_launch_config(p, sm80::kConfigPipelinedLarge, 4);
    CHECK(p.splits == 1);
}

TEST_CASE("split-K workspace: a counter per tile and reducing group, an fp32 tile per tile and range") {
    const asyncgemm::plan::WorkspaceNeed need = asyncgemm::plan::split_workspace(64, 2, 128, 128, 1);
    CHECK(need.counters == 64);
    CHECK(need.partial_bytes == 64 * 2 * 128 * 128 * 4);
    CHECK(asyncgemm::plan::split_workspace(10, 3, 128, 256, 2).counters == 20);
}

TEST_CASE("split-K ranges: none empty, covering K exactly") {
    using asyncgemm::plan::split_ranges;
    for (int64_t blocks : {0, 1, 2, 7, 24, 100, 224})
        for (int splits : {1, 2, 3, 4, 16}) {
            const asyncgemm::plan::SplitRanges r = split_ranges(blocks, splits);
            CHECK(r.count >= 1);
            CHECK(r.count <= std::max(splits, 1));
            if (blocks == 0) {
                CHECK(r.count == 1);
                continue;
            }
            CHECK(r.blocks_per_range * (r.count - 1) < blocks);  // the last range is not empty
            CHECK(r.blocks_per_range * r.count >= blocks);       // every block in a range
        }
}

TEST_CASE("sm80: the split-K reduction's load batch divides the accumulator vectors and fits the registers") {
    // In the order of kTileConfigs: 64 x 64 warp tiles (128 accumulators) take 16 of their 32
    // vectors, the two-blocks-per-SM 128 x 128 one-stage tiles (128 registers) 4 of 16.
    constexpr int kExpected[] = {16, 8, 4, 16, 16, 16, 16, 4};
    static_assert(sizeof(kExpected) / sizeof(kExpected[0]) == sm80::kTileConfigCount, "a batch per configuration");
    for (int config = 0; config < sm80::kTileConfigCount; ++config) {
        const sm80::TileConfig &c = sm80::kTileConfigs[config];
        const int vectors = sm80::mma_tiles_m(c) * sm80::mma_tiles_n(c);
        CAPTURE(config);
        CHECK(sm80::split_load_batch(c) == kExpected[config]);
        CHECK(vectors % sm80::split_load_batch(c) == 0);
    }
}
