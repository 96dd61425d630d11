// The sm80 family's layout arithmetic (csrc/kernels/sm80/sm80_config.h, kernels/common/swizzle.h):
// the swizzle is a bijection that keeps ldmatrix reads and cp.async writes conflict-free, each
// chunk of a tile is copied exactly once, the heuristic and vector widths, and prepare_launch.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_config.h"

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

TEST_CASE("sm80: shared memory fits every SM of sm_80 and later (99 KB opt-in on sm_86/89/120)") {
    for (const sm80::KernelInfo &k : sm80::kKernels) CHECK(k.dynamic_smem <= 99u * 1024u);
    CHECK(sm80::smem_bytes(sm80::kTileConfigs[sm80::kConfigPipelinedLarge]) == 3u * 32768u);
    CHECK(sm80::smem_bytes(sm80::kTileConfigs[sm80::kConfigAsyncCopy]) == 32768u);
}

TEST_CASE("sm80: kernel table") {
    std::set<std::string> names;
    for (const sm80::KernelInfo &k : sm80::kKernels) names.insert(k.name);
    CHECK(static_cast<int>(names.size()) == sm80::kKernelCount);
    CHECK(sm80::kKernelCount <= 24);
    for (int type : {asyncgemm::kF16, asyncgemm::kBF16}) {
        for (int config = 0; config < sm80::kTileConfigCount; ++config) CHECK(sm80::kernel_index(type, config) >= 0);
    }
    CHECK(sm80::kernel_index(asyncgemm::kF32, 0) == -1);
}

TEST_CASE("sm80: heuristic") {
    CHECK(sm80::choose_config(false, 4096, 4096, 1, 132) == sm80::kConfigAsyncCopy);
    CHECK(sm80::choose_config(true, 4096, 4096, 1, 132) == sm80::kConfigPipelinedLarge);
    CHECK(sm80::choose_config(true, 1024, 1024, 1, 132) == sm80::kConfigPipelinedSmall);  // 64 tiles
    CHECK(sm80::choose_config(true, 1024, 1024, 4, 132) == sm80::kConfigPipelinedLarge);  // 256 tiles
    CHECK(sm80::choose_config(true, 1536, 1408, 1, 132) == sm80::kConfigPipelinedLarge);  // 132 tiles
}

TEST_CASE("sm80: vector width") {
    CHECK(sm80::vector_width(0x1000, 4096, 0) == 8);
    CHECK(sm80::vector_width(0x1008, 4096, 0) == 4);
    CHECK(sm80::vector_width(0x1004, 4096, 0) == 2);
    CHECK(sm80::vector_width(0x1002, 4096, 0) == 1);
    CHECK(sm80::vector_width(0x1000, 4100, 0) == 4);
    CHECK(sm80::vector_width(0x1000, 4097, 0) == 1);
    CHECK(sm80::vector_width(0x1000, 4096, 4096 * 4096 + 2) == 2);
}

TEST_CASE("sm80: prepare_launch") {
    GemmParams p{};
    p.m = 4096;
    p.n = 4000;
    p.k = 4096;
    p.batch_count = 70000;
    p.type_ab = asyncgemm::kBF16;
    p.type_cd = asyncgemm::kF32;
    p.a = reinterpret_cast<const void *>(uintptr_t{0x10000});
    p.lda = 4096;
    p.b = reinterpret_cast<const void *>(uintptr_t{0x20002});
    p.ldb = 4000;
    p.a_k_major = 1;
    const sm80::Launch launch = sm80::prepare_launch(p, true, 132);
    CHECK(launch.kernel == sm80::kernel_index(asyncgemm::kBF16, sm80::kConfigPipelinedLarge));
    CHECK(launch.grid_x == 32u * 32u);
    CHECK(launch.grid_z == 65535u);
    CHECK(launch.block_x == 256u);
    CHECK(launch.dynamic_smem == 98304u);
    CHECK(p.tiles_m == 32);
    CHECK(p.tiles_n == 32);
    CHECK(p.vec_a == 8);
    CHECK(p.vec_b == 1);
    CHECK(p.raster_group == sm80::kRasterGroup);

    GemmParams f32 = p;
    f32.type_ab = asyncgemm::kF32;
    CHECK(sm80::prepare_launch(f32, true, 132).kernel == -1);
    GemmParams async_copy = p;
    CHECK(sm80::prepare_launch(async_copy, false, 132).kernel == sm80::kernel_index(asyncgemm::kBF16, sm80::kConfigAsyncCopy));
}
