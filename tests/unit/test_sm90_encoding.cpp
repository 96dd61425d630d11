// The Hopper family's encodings and plan: wgmma shared-memory descriptors, TMA map shapes, what TMA
// cannot describe and the configuration table's resource use.  Expected values are worked out by
// hand from the PTX ISA ("Matrix Descriptor Format" of the asynchronous warpgroup MMA, sm_90) and
// the CUDA driver API's cuTensorMapEncodeTiled rules.
#include <doctest/doctest.h>

#include <optional>

#include <utility>
#include <vector>

#include "kernels/common/smem_descriptor.h"
#include "kernels/sm90/sm90_traits.h"
#include "plan/sm90_heuristic.h"
#include "plan/sm90_kernels.h"
#include "plan/split_k.h"
#include "plan/gemm_tma.h"
#include "plan/sm90_plan.h"
#include "plan/sm90_copies.h"
#include "plan/tensor_map.h"
#include "canonical_problem.h"

using namespace asyncgemm;
using namespace asyncgemm::sm90;

namespace {

// The descriptor's fields, read back.
struct Fields {
    uint32_t start, leading, stride, base_offset, swizzle;
};
Fields fields(uint64_t d) {
    return {static_cast<uint32_t>(d & 0x3FFF) << 4, static_cast<uint32_t>((d >> 16) & 0x3FFF) << 4,
            static_cast<uint32_t>((d >> 32) & 0x3FFF) << 4, static_cast<uint32_t>((d >> 49) & 0x7),
            static_cast<uint32_t>(d >> 62)};
}

GemmParams problem(int64_t m, int64_t n, int64_t k, bool a_k_major, bool b_k_major) {
    return test::canonical_problem(m, n, k, kF16, kF16, a_k_major, b_k_major);
}

}  // namespace

TEST_CASE("wgmma descriptor fields: start >> 4 in bits 0-13, offsets >> 4 at 16 and 32, 128B swizzle = 1 at 62") {
    const uint64_t d = smem_descriptor(MmaUnit::Wgmma, 0x1C400, 8192, 1024);
    // 0x1C400 >> 4 = 0x1C40; 8192 >> 4 = 512; 1024 >> 4 = 64; swizzle mode 1 << 62.
    CHECK(d == (0x1C40ull | (512ull << 16) | (64ull << 32) | (1ull << 62)));
    const Fields f = fields(d);
    CHECK(f.start == 0x1C400);
    CHECK(f.leading == 8192);
    CHECK(f.stride == 1024);
    CHECK(f.base_offset == 0);
    CHECK(f.swizzle == 1);
    // Addresses wrap at 2^18 (14 bits of 16-byte units): the whole shared window.
    CHECK(fields(smem_descriptor(MmaUnit::Wgmma, 0x40000 + 0x400, 16, 1024)).start == 0x400);
}

TEST_CASE("K-major operands: 8-row groups 1024 bytes apart, a K step moves 32 bytes inside the row") {
    // Rows 64.. of a tile at 0x2000, K step 3: 0x2000 + 64 * 128 + 3 * 16 * 2 = 0x4060.
    const Fields f = fields(k_major_descriptor(MmaUnit::Wgmma, 0x2000, 64, 3));
    CHECK(f.start == 0x4060);
    CHECK(f.stride == 1024);  // SBO: one swizzle atom of 8 rows
    CHECK(f.swizzle == 1);
}

TEST_CASE("MN-major 16-bit operands: 64-wide blocks 64 * 128 bytes apart, a K step moves two atoms") {
    // Block 2 of a tile at 0x8000, K step 1: 0x8000 + 2 * 8192 + 2048 = 0xC800.
    const Fields f = fields(mn_major_descriptor(MmaUnit::Wgmma, 0x8000, 2, 1, 2));
    CHECK(f.start == 0xC800);
    CHECK(f.leading == 8192);  // LBO: from one 64-element block of M/N to the next
    CHECK(f.stride == 1024);   // SBO: from one group of 8 K rows to the next
}

TEST_CASE("a K step's descriptor is the first step's advanced by the step's bytes (the K loop's add)") {
    // Tiles up to the top of the 227 KB window: the address field never carries into the next field.
    for (const uint32_t tile : {0x0u, 0x2000u, 0x30000u, 227u * 1024 - 16 * 1024}) {
        for (int step = 0; step < kMmaSteps; ++step) {
            CAPTURE(tile);
            CAPTURE(step);
            for (const MmaUnit unit : {MmaUnit::Wgmma, MmaUnit::Tcgen05}) {
                CHECK(advance_descriptor(k_major_descriptor(unit, tile, 64, 0), step * k_major_step_bytes()) ==
                      k_major_descriptor(unit, tile, 64, step));
                CHECK(advance_descriptor(mn_major_descriptor(unit, tile, 1, 0, 2), step * mn_major_step_bytes(2)) ==
                      mn_major_descriptor(unit, tile, 1, step, 2));
            }
        }
    }
}

TEST_CASE("every configuration fits the H100's 227 KB with its barriers, and 64-row warpgroup tiles") {
    for (const TileConfig &c : kTileConfigs) {
        CAPTURE(c.tile_m);
        CAPTURE(c.tile_n);
        CHECK(smem_bytes(c) + 1024 <= 227 * 1024);
        CHECK(consumers(c) >= 1);
        CHECK(consumers(c) <= kConsumers);
        CHECK(epilogue_bytes(c) == static_cast<uint32_t>(consumers(c)) * 2 * 64 * 128);
        CHECK(c.groups_in_flight >= 1);
        CHECK(c.groups_in_flight + 1 < c.stages);  // a stage left for the producer to fill
        CHECK(c.tile_m == 64 * c.consumers_m);
        CHECK((warpgroup_n(c) == 64 || warpgroup_n(c) == 128 || warpgroup_n(c) == 192 ||
               warpgroup_n(c) == 256));  // wgmma_m64k16's
        CHECK(c.tile_n % 64 == 0);
        CHECK(c.tile_n <= 256);  // a K-major B tile is one TMA box: at most 256 rows
    }
    // What ptxas reports for every kernel of the family (-v: "Used 168 registers"); sm90_traits.h
    // static-asserts the setmaxnreg split against it.
    CHECK(kLaunchRegisters == 168);
}

TEST_CASE("the heuristic: the tile of least estimated time, rows of 128 for m > 64 and of 64 below") {
    CHECK(choose_config({4096, 4096, 4096, 1}, 132) == kConfigWide);
    CHECK(choose_config({8192, 8192, 8192, 1}, 132) == kConfigWide);
    CHECK(choose_config({512, 6144, 4096, 1}, 132) == kConfigMedium);     // one wave of 128, not 96 wide
    CHECK(choose_config({2048, 1024, 4096, 1}, 132) == kConfigSquare);    // 64 wide tiles, 128 square
    CHECK(choose_config({1024, 1024, 14336, 1}, 132) == kConfigSquare);   // 64 tiles, split in two
    CHECK(choose_config({256, 4608, 3584, 1}, 132) == kConfigSquare);     // one wave, not two of 128 x 64
    CHECK(choose_config({1024, 10240, 8192, 1}, 132) == kConfigSquare);   // 5 full waves, not 3 partial wide
    CHECK(choose_config({4096, 128, 4096, 32}, 132) == kConfigSquare);    // n = 128: half a wide tile idle
    CHECK(choose_config({1024, 64, 1024, 96}, 132) == kConfigNarrow);     // n = 64
    CHECK(choose_config({128, 4096, 4096, 1}, 132) == kConfigSingle);     // one wave of 64 x 64, unsplit
    CHECK(choose_config({128, 10240, 8192, 1}, 132) == kConfigSquare);    // not three ranges of 128 x 256
    CHECK(choose_config({100, 4096, 512, 1}, 132) == kConfigSingle);      // one wave either way, half the tile
    CHECK(choose_config({1000, 1000, 64, 8}, 132) == kConfigWide);        // batches count as tiles
    CHECK(choose_config({16, 8192, 8192, 1}, 132) == kConfigShortNarrow);  // 64 tiles split in two
    CHECK(choose_config({64, 4096, 4096, 1}, 132) == kConfigSingle);       // 64 tiles split in two
    CHECK(choose_config({64, 6144, 4096, 1}, 132) == kConfigSingle);       // 96 tiles, whole
    CHECK(choose_config({64, 4096, 14336, 1}, 132) == kConfigShortNarrow); // 32 tiles in four ranges
    CHECK(choose_config({16, 16384, 8192, 1}, 132) == kConfigShortM);      // 64 of 64 x 256 split in two
    CHECK(choose_config({1, 8192, 28672, 1}, 132) == kConfigShortM);       // 32 split in four
    CHECK(choose_config({64, 65536, 512, 1}, 132) == kConfigShortM);
    CHECK(choose_config({128, 4096, 0, 1}, 132) >= 0);                     // k = 0: any configuration
}

TEST_CASE("the estimate counts partial waves whole and splits as work") {
    // 256 wide tiles are two full waves on 128 SMs, three on 127.
    CHECK(estimated_time(kConfigWide, {2048, 4096, 4096, 1}, 128) * 3 ==
          doctest::Approx(estimated_time(kConfigWide, {2048, 4096, 4096, 1}, 127) * 2));
    // Split in two, 64 square tiles do half the K blocks each, plus the split's cost.
    const double whole = 64.0 * 128 * 128;
    CHECK(estimated_time(kConfigSquare, {1024, 1024, 8192, 1}, 132) ==
          doctest::Approx(whole / kThroughput[kConfigSquare] + kSplitCost * 128 * 128 * 2));
}

TEST_CASE("a range of batches moves the batched matrices' bases, not the broadcast ones") {
    GemmParams p = problem(64, 32, 16, true, true);
    p.batch_count = 10;
    p.stride_a = 64 * 16;
    p.stride_b = 0;  // broadcast
    p.stride_d = 64 * 32 + 8;
    p.c = nullptr;
    p.stride_c = 64 * 32;
    const GemmParams r = plan::batch_range(p, 3, 4);
    CHECK(r.batch_count == 4);
    CHECK(static_cast<const char *>(r.a) == static_cast<const char *>(p.a) + 3 * 64 * 16 * 2);
    CHECK(r.b == p.b);
    CHECK(r.c == nullptr);
    CHECK(static_cast<char *>(r.d) == static_cast<char *>(p.d) + 3 * (64 * 32 + 8) * 2);
    CHECK(r.m == p.m);
    CHECK(r.stride_a == p.stride_a);
}

TEST_CASE("a range of batches starts its block scales and its bias at its first batch, where they are per batch") {
    static const float kScales[6 * 5 * 300] = {};  // the largest of the arrays below
    static const float kBias[6 * 200] = {};
    GemmParams p = problem(300, 200, 520, true, true);  // e4m3 in the scales' sense: 5 K blocks of 128
    p.type_ab = kE4M3;
    p.batch_count = 6;
    p.stride_a = 300 * 520;
    p.stride_b = 0;  // B broadcast: one set of scales for every batch
    p.block_scale_a = kScales, p.block_rows_a = 1;
    p.block_scale_b = kScales, p.block_cols_b = 128;
    p.bias = kBias, p.stride_bias = 200, p.type_bias = kF32;
    const GemmParams r = plan::batch_range(p, 4, 2);
    CHECK(r.block_scale_a == kScales + 4 * 5 * 300);  // 5 K blocks x 300 rows a batch
    CHECK(r.block_scale_b == kScales);
    CHECK(static_cast<const char *>(r.bias) == reinterpret_cast<const char *>(kBias) + 4 * 200 * 4);
    p.stride_b = 200 * 520, p.block_rows_a = 128;
    const GemmParams s = plan::batch_range(p, 4, 2);
    CHECK(s.block_scale_a == kScales + 4 * 5 * 3);  // 5 K blocks x 3 blocks of 128 rows
    CHECK(s.block_scale_b == kScales + 4 * 5 * 2);  // 5 K blocks x 2 blocks of 128 columns
}

TEST_CASE("a problem of more than 2^31 - 1 work items launches in ranges of batches") {
    GemmParams p = problem(64, 32, 16, true, true);
    p.batch_count = 5;
    p.stride_a = 64 * 16;
    p.stride_b = 32 * 16;
    p.stride_d = 64 * 32;
    std::vector<std::pair<int64_t, const void *>> ranges;  // batch_count, d
    const auto collect = [&](const GemmParams &range) { ranges.emplace_back(range.batch_count, range.d); };
    CHECK_FALSE(plan::launch_in_batch_ranges(p, 1000, collect));  // 5000 work items: one launch
    CHECK(ranges.empty());
    CHECK(plan::launch_in_batch_ranges(p, int64_t{1} << 29, collect));  // three batches a launch at most
    REQUIRE(ranges.size() == 2);
    CHECK(ranges[0].first == 3);
    CHECK(ranges[0].second == p.d);
    CHECK(ranges[1].first == 2);
    CHECK(static_cast<const char *>(ranges[1].second) == static_cast<const char *>(p.d) + 3 * 64 * 32 * 2);
}

TEST_CASE("TMA maps: K-major boxes span a tile's rows, MN-major ones 64 x 64; strides in bytes") {
    GemmParams p = problem(1000, 3000, 520, true, false);
    const plan::TensorMap3d a = plan::sm90_a_map(p, kConfigWide);
    CHECK(a.dims[0] == 520);
    CHECK(a.dims[1] == 1000);
    CHECK(a.dims[2] == 1);
    CHECK(a.strides[0] == 520 * 2);
    CHECK(a.strides[1] == 520 * 2 * 1000);  // one batch: any valid stride
    CHECK(a.box[0] == 64);
    CHECK(a.box[1] == 128);
    const plan::TensorMap3d b = plan::sm90_b_map(p, kConfigWide);
    CHECK(b.dims[0] == 3000);
    CHECK(b.dims[1] == 520);
    CHECK(b.box[0] == 64);
    CHECK(b.box[1] == 64);

    p.batch_count = 4;
    p.stride_a = 520 * 1000;
    p.type_cd = kF32;
    p.stride_d = 3000 * 1000;
    const plan::TensorMap3d a4 = plan::sm90_a_map(p, kConfigWide);
    CHECK(a4.dims[2] == 4);
    CHECK(a4.strides[1] == 520 * 1000 * 2);
    CHECK(plan::sm90_b_map(p, kConfigWide).dims[2] == 1);  // stride_b == 0: broadcast
    const plan::TensorMap3d d = plan::sm90_cd_map(p, p.ldd, p.stride_d);
    CHECK(d.dims[0] == 3000);
    CHECK(d.dims[1] == 1000);
    CHECK(d.dims[2] == 4);
    CHECK(d.strides[0] == 3000 * 4);
    CHECK(d.box[0] == 32);  // 128 bytes of fp32
    CHECK(d.box[1] == 64);
}

TEST_CASE("MN-major B: boxes of 64 columns by a stage's 64 K rows") {
    const plan::TensorMap3d k_major = plan::sm90_b_map(problem(128, 4096, 4096, true, true), kConfigWide);
    CHECK(k_major.box[0] == 64);
    CHECK(k_major.box[1] == 256);
    const plan::TensorMap3d mn_major = plan::sm90_b_map(problem(128, 4096, 4096, true, false), kConfigWide);
    CHECK(mn_major.box[0] == 64);
    CHECK(mn_major.box[1] == 64);
}

TEST_CASE("TMA maps promote 256 bytes into L2 where every row starts on a 128-byte line, else 128") {
    alignas(256) static char buffer[512];
    const cuuint64_t on_lines[2] = {2048, 2048 * 1024};  // rows of 1024 bf16
    const cuuint64_t off_lines[2] = {2000, 2000 * 1000};  // rows of 1000 bf16: 16-byte aligned only
    const cuuint64_t batch_off[2] = {2048, 2048 * 1000 + 16};
    CHECK(plan::l2_promotion(buffer, 3, on_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
    CHECK(plan::l2_promotion(buffer + 128, 3, on_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
    CHECK(plan::l2_promotion(buffer + 16, 3, on_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    CHECK(plan::l2_promotion(buffer, 3, off_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    CHECK(plan::l2_promotion(buffer, 2, off_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    CHECK(plan::l2_promotion(buffer, 3, batch_off) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    CHECK(plan::l2_promotion(buffer, 2, batch_off) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);  // one matrix
    CHECK(plan::l2_promotion(buffer, 1, off_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);  // one row
    CHECK(plan::l2_promotion(buffer + 64, 1, on_lines) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
}

TEST_CASE("sm90 kernel table: a kernel per configuration for 16-bit inputs, K-major tf32 and 8-bit of either format") {
    for (int i = 0; i < kKernelCount; ++i) {
        const KernelInfo &k = kKernels[i];
        CHECK(k.majors == (k.type_ab == kF16 || k.type_ab == kBF16 ? Majors::Any : Majors::KK));
        CHECK(kernel_index(k.type_ab, k.config, true, true) == i);
        CHECK(k.type_ab != kE5M2);  // the 8-bit kernels, listed as kE4M3, read either format
        CHECK(k.dynamic_smem == smem_bytes(kTileConfigs[k.config]));
    }
    for (int config = 0; config < kTileConfigCount; ++config) {
        for (int type : {kF16, kBF16})
            for (bool a : {false, true})
                for (bool b : {false, true}) CHECK(kernel_index(type, config, a, b) >= 0);
        CHECK(kernel_index(kE5M2, config, true, true) == kernel_index(kE4M3, config, true, true));
        for (int type : {kF32, kE4M3, kE5M2}) {
            CHECK(kernel_index(type, config, true, true) >= 0);
            CHECK(kernel_index(type, config, false, true) == -1);
            CHECK(kernel_index(type, config, true, false) == -1);
        }
    }
    CHECK(kKernelCount == kTileConfigCount * 4);  // f16, bf16, tf32, 8-bit
}

TEST_CASE("what TMA cannot describe is named, and only that") {
    GemmParams p = problem(256, 256, 256, true, true);
    CHECK(plan::sm90_tma_obstacle(p).empty());
    GemmParams odd_ld = p;
    odd_ld.lda = 260;  // 520 bytes
    CHECK(plan::sm90_tma_obstacle(odd_ld).find("leading dimension of A") != std::string::npos);
    GemmParams shifted = p;
    shifted.d = static_cast<char *>(p.d) + 8;
    CHECK(plan::sm90_tma_obstacle(shifted).find("D is not 16-byte aligned") != std::string::npos);
    GemmParams c_unused = p;
    c_unused.c = static_cast<const char *>(p.a) + 2;  // beta == 0: C is never read
    CHECK(plan::sm90_tma_obstacle(c_unused).empty());
    c_unused.beta = 1.f;
    CHECK(plan::sm90_tma_obstacle(c_unused).find("C is not") != std::string::npos);
    GemmParams batch = p;
    batch.batch_count = 2;
    batch.stride_b = 256 * 256 + 4;
    CHECK(plan::sm90_tma_obstacle(batch).find("batch stride of B") != std::string::npos);
}

TEST_CASE("split K: only where the tiles fill at most half the SMs, ranges of 24 blocks or more, none empty") {
    const TileConfig &square = kTileConfigs[kConfigSquare];
    CHECK(split_count(square, {1024, 1024, 14336, 1}, 132) == 2);   // 64 tiles
    CHECK(split_count(square, {128, 4096, 4096, 1}, 132) == 2);     // 32 tiles, 64 blocks of K
    CHECK(split_count(square, {128, 4096, 16384, 1}, 132) == 4);    // 32 tiles, 256 blocks of K
    CHECK(split_count(kTileConfigs[kConfigShortNarrow], {16, 8192, 2048, 1}, 132) == 1);  // 32 blocks
    CHECK(split_count(kTileConfigs[kConfigShortM], {16, 8192, 8192, 1}, 132) == 4);
    CHECK(split_count(square, {1024, 1024, 128, 1}, 132) == 1);     // 2 blocks of K: nothing to cut
    CHECK(split_count(square, {1024, 1024, 14336, 2}, 132) == 1);   // batched
    CHECK(split_count(square, {2048, 1024, 14336, 1}, 132) == 1);   // 128 tiles
    CHECK(split_count(square, {128, 128, 1 << 20, 1}, 132) == kSplitRule.max_splits);
    // 9 blocks in 4 ranges: 3 per range, so only 3 ranges remain.
    CHECK(plan::split_ranges(9, 4).blocks_per_range == 3);
    CHECK(plan::split_ranges(9, 4).count == 3);
    CHECK(plan::split_ranges(0, 4).count == 1);
    const plan::WorkspaceNeed need = plan::split_workspace(64, 2, square.tile_m, square.tile_n, consumers(square));
    CHECK(need.counters == 64 * 2);  // a counter per consumer
    CHECK(need.partial_bytes == 64 * 2 * 128 * 128 * 4);
    const TileConfig &single = kTileConfigs[kConfigSingle];
    CHECK(plan::split_workspace(128, 3, single.tile_m, single.tile_n, consumers(single)).counters == 128);
}

TEST_CASE("tf32: f32 inputs only when allowed and both K-major; a stage holds 32 of them per row") {
    CHECK(supports_types(kF16, kF16, false, false, false));
    CHECK(supports_types(kBF16, kF32, false, true, false));
    CHECK_FALSE(supports_types(kF32, kF32, false, true, true));  // DEFAULT math: exact fp32 elsewhere
    CHECK(supports_types(kF32, kF32, true, true, true));
    CHECK(supports_types(kF32, kBF16, true, true, true));
    CHECK_FALSE(supports_types(kF32, kF32, true, false, true));  // wgmma has no transpose for tf32
    CHECK_FALSE(supports_types(kF32, kF32, true, true, false));
    CHECK(block_k(kF16) == 64);
    CHECK(block_k(kF32) == 32);  // 128 bytes either way: the same swizzled rows and descriptors
    CHECK(k_block_count(100, kF32) == 4);
    CHECK(k_block_count(100, kBF16) == 2);
    CHECK(kMmaSteps == 4);  // k16 of 16-bit or k8 of tf32, 32 bytes each

    GemmParams p = problem(256, 256, 100, true, true);
    p.type_ab = kF32;
    p.lda = p.ldb = 100;
    const plan::TensorMap3d a = plan::sm90_a_map(p, kConfigWide);
    CHECK(a.box[0] == 32);
    CHECK(a.strides[0] == 400);
    CHECK(plan::sm90_b_map(p, kConfigWide).box[0] == 32);
    CHECK(plan::sm90_tma_obstacle(p).empty());  // 400-byte rows
    p.lda = 101;
    CHECK(plan::sm90_tma_obstacle(p).find("leading dimension of A") != std::string::npos);
}

TEST_CASE("tf32 with MN-major operands: the Hopper family gets K-major copies with 16-byte rows") {
    GemmParams p = test::canonical_problem(300, 200, 101, kF32, kF32, false, true);
    p.batch_count = 3;
    p.stride_a = 0;  // broadcast: one copy serves every batch
    p.stride_b = 200 * 104;
    p.ldb = 104;
    const std::optional<plan::Sm90Copies> copies = plan::plan_sm90_copies(p, true);
    REQUIRE(copies);
    CHECK(copies->a.transpose);
    CHECK(copies->a.rows == 300);
    CHECK(copies->a.cols == 101);
    CHECK(copies->a.ld == 104);  // 101 rounded up to 4 f32
    CHECK(!copies->b.used());     // already K-major, 16-byte rows: read where it lies
    alignas(256) static char scratch[1 << 20];
    const GemmParams q = plan::on_copies(p, *copies, scratch);
    CHECK(q.a == scratch + copies->a.offset);
    CHECK(q.lda == 104);
    CHECK(q.stride_a == 0);
    CHECK(q.a_k_major == 1);
    CHECK(q.b == p.b);
    CHECK(supports_types(q.type_ab, q.type_cd, true, q.a_k_major != 0, q.b_k_major != 0));
    CHECK(!plan::plan_sm90_copies(p, false));  // f32 without TF32: no Hopper kernel at all
    p.stride_a = 300 * 101;                      // batches of an MN-major operand: no single transpose
    CHECK(!plan::plan_sm90_copies(p, true));
}

TEST_CASE("MN-major 8-bit operands: transposed into K-major 8-bit copies, only where that is all it takes") {
    // e4m3 NN, row-major: A K-major (rows of 528 bytes, which TMA reads), B MN-major (k x n, ldb 200):
    // B copied n x k, its rows of 520 bytes rounded up to 528.
    GemmParams p = test::canonical_problem(300, 200, 520, kE4M3, kBF16, true, false);
    p.lda = 528;
    const std::optional<plan::Sm90Copies> copies = plan::plan_sm90_copies(p, false);
    REQUIRE(copies);
    CHECK(!copies->a.used());
    CHECK(copies->b.transpose);
    CHECK(copies->b.rows == 200);
    CHECK(copies->b.cols == 520);
    CHECK(copies->b.ld == 528);  // 520 bytes rounded up to 16
    CHECK(!copies->c.used());
    CHECK(!copies->d.used());
    alignas(256) static char scratch[1 << 20];
    const GemmParams q = plan::on_copies(p, *copies, scratch);
    CHECK(q.b_k_major == 1);
    CHECK(supports_types(q.type_ab, q.type_cd, false, q.a_k_major != 0, q.b_k_major != 0));
    CHECK(plan::tma_obstacle(q, false, true).empty());
    // Rows of B 2 bytes off a 4-byte multiple: the byte transpose moves at least 4 bytes at a time.
    GemmParams odd = p;
    odd.ldb = 202;
    CHECK(!plan::plan_sm90_copies(odd, false));
    // A K-major operand TMA cannot describe would be a plain 8-bit copy, which the planner has not:
    // the f16 copies serve it.
    GemmParams unaligned = test::canonical_problem(300, 200, 520, kE4M3, kBF16, true, true);
    unaligned.lda = 523;
    CHECK(!plan::plan_sm90_copies(unaligned, false));
    // Nor is D copied back for 8-bit inputs.
    GemmParams odd_d = p;
    odd_d.ldd = 201;
    CHECK(!plan::plan_sm90_copies(odd_d, false));
}

TEST_CASE("unaligned 16-bit matrices: copies with 16-byte rows, D copied back, none where TMA reads them") {
    // 4095 x 4097 x 4093 f16, row-major A.B: A K-major (lda 4093), B MN-major (ldb 4097), D ldd 4097.
    GemmParams p = test::canonical_problem(4095, 4097, 4093, kF16, kF16, true, false);
    const std::optional<plan::Sm90Copies> copies = plan::plan_sm90_copies(p, false);
    REQUIRE(copies);
    CHECK(copies->a.rows == 4095);
    CHECK(copies->a.cols == 4093);
    CHECK(copies->a.ld == 4096);
    CHECK(copies->b.rows == 4093);  // stored k x n
    CHECK(copies->b.cols == 4097);
    CHECK(copies->b.ld == 4104);
    CHECK(!copies->c.used());  // beta = 0
    CHECK(copies->d.ld == 4104);
    CHECK(copies->d.ld_src == 4097);
    CHECK(copies->a.offset == 0);
    CHECK(copies->b.offset % 256 == 0);
    CHECK(copies->scratch_bytes == copies->d.offset + copies->d.bytes);
    CHECK(copies->d.bytes >= size_t{4095} * 4104 * 2);
    CHECK(plan::sm90_copies_pay(p, *copies, false));

    // Aligned: nothing to copy.
    CHECK(!plan::plan_sm90_copies(test::canonical_problem(4096, 4096, 4096, kF16, kF16, true, false), false));
    // Small: the copies' launches cost more than PIPELINED's product.
    GemmParams small = test::canonical_problem(100, 100, 101, kF16, kF16, true, true);
    const std::optional<plan::Sm90Copies> small_copies = plan::plan_sm90_copies(small, false);
    REQUIRE(small_copies);
    CHECK(!plan::sm90_copies_pay(small, *small_copies, false));
    CHECK(plan::sm90_copies_pay(small, *small_copies, true));  // against SIMT they always pay
    // No product: D = beta * C needs no operand.
    GemmParams no_product = p;
    no_product.alpha = 0.f;
    CHECK(!plan::plan_sm90_copies(no_product, false));
}

TEST_CASE("unaligned batches: one copy of every row where batches are whole rows apart") {
    GemmParams p = test::canonical_problem(64, 128, 77, kBF16, kBF16, true, true);
    p.batch_count = 4;
    p.stride_a = 64 * 77;   // tight: batch_rows 64
    p.stride_b = 0;          // broadcast, unaligned rows: one copy
    p.stride_d = 64 * 128;   // aligned D
    const std::optional<plan::Sm90Copies> copies = plan::plan_sm90_copies(p, false);
    REQUIRE(copies);
    CHECK(copies->a.batch_rows == 64);
    CHECK(copies->a.ld == 80);
    CHECK(copies->a.bytes == size_t{4 * 64 * 80 * 2});
    CHECK(copies->b.batch_rows == 0);
    CHECK(!copies->d.used());
    alignas(256) static char scratch[1 << 20];
    const GemmParams q = plan::on_copies(p, *copies, scratch);
    CHECK(q.stride_a == 64 * 80);
    CHECK(q.stride_b == 0);
    CHECK(plan::tma_obstacle(q, false, true).empty());
    p.stride_a = 64 * 77 + 3;  // not whole rows apart
    CHECK(!plan::plan_sm90_copies(p, false));
    // D with rows between its batches: its copy could not go back row for row.
    p.stride_a = 64 * 77;
    p.ldd = 129;
    p.stride_d = 64 * 129 + 129;
    CHECK(!plan::plan_sm90_copies(p, false));
    p.stride_d = 64 * 129;
    const std::optional<plan::Sm90Copies> with_d = plan::plan_sm90_copies(p, false);
    REQUIRE(with_d);
    CHECK(with_d->d.batch_rows == 64);
    CHECK(with_d->d.ld == 128);  // n, already whole 16-byte chunks
    CHECK(with_d->d.ld_src == 129);
}
