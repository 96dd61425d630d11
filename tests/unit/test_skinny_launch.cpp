// The skinny family's planning (csrc/plan/skinny_launch.h): which problems it serves and in which
// orientation, the split it takes on an H100's 132 SMs, and the launch it prepares.
#include <doctest/doctest.h>

#include "canonical_problem.h"
#include "kernels/skinny/skinny_traits.h"
#include "plan/skinny_kernels.h"
#include "plan/skinny_launch.h"

namespace skinny = asyncgemm::skinny;
using asyncgemm::GemmParams;
using asyncgemm::test::canonical_problem;

namespace {

constexpr int kH100Sms = 132;

}  // namespace

TEST_CASE("skinny: every block shape covers its small rows with whole mma tiles and 8 warps") {
    for (int smalls : {8, 16})
        for (bool l_k_major : {true, false}) {
            if (smalls > skinny::max_smalls(l_k_major)) {
                CHECK(skinny::kernel_index(asyncgemm::kBF16, smalls, l_k_major) < 0);
                continue;
            }
            const skinny::Shape s = skinny::shape_for(smalls, l_k_major);
            CHECK(s.row_warps * s.k_warps == skinny::kWarps);
            CHECK(skinny::block_rows(s) >= 2 * smalls);  // X at most half of L's bytes per block
            CHECK(skinny::chunk_k(s) % s.step_k == 0);
            CHECK(s.rows_per_warp == (l_k_major ? 16 : 64));  // one m16n8k16, or four
            CHECK(skinny::kernel_index(asyncgemm::kBF16, smalls, l_k_major) >= 0);
            CHECK(skinny::kernel_index(asyncgemm::kF16, smalls, l_k_major) >= 0);
        }
    // f32, by FMA: 8 small rows of a K-major L alone.
    CHECK(skinny::kernel_index(asyncgemm::kF32, 8, true) >= 0);
    CHECK(skinny::kernel_index(asyncgemm::kF32, 16, true) < 0);
    CHECK(skinny::kernel_index(asyncgemm::kF32, 8, false) < 0);
    CHECK(skinny::smalls_tile(1) == 8);
    CHECK(skinny::smalls_tile(9) == 16);
    CHECK(skinny::smalls_tile(16) == 16);
}

TEST_CASE("skinny: y = x W^T with one token is a small m over W's rows, split in two on an H100") {
    GemmParams p = canonical_problem(1, 4096, 4096, asyncgemm::kBF16, asyncgemm::kBF16, true, true);
    const auto view = skinny::skinny_view(p);
    REQUIRE(view);
    CHECK(view->smalls == 1);
    CHECK(view->rows == 4096);
    CHECK(view->large == p.b);
    CHECK(view->small_vector == 1);
    CHECK(view->d_s == p.ldd);
    CHECK(view->d_r == 1);
    asyncgemm::SkinnyParams s = *view;
    CHECK(skinny::splits_for(s, kH100Sms) == 2);  // 128 row blocks of 32 rows, 264 block slots
    const skinny::Launch launch = skinny::prepare_launch(s, p.type_ab, 2);
    CHECK(launch.kernel == skinny::kernel_index(asyncgemm::kBF16, 8, true));
    CHECK(launch.grid_x == 128);
    CHECK(launch.grid_y == 2);
    CHECK(launch.grid_z == 1);
    CHECK(s.splits == 2);
    CHECK(s.chunks_per_split == 16);  // 32 chunks of 128
    CHECK(launch.workspace.counters == 128);
    CHECK(launch.workspace.partial_bytes == 128 * 2 * 8 * 32 * 4);
}

TEST_CASE("skinny: a small n takes A as the large operand and stores D along its rows") {
    GemmParams p = canonical_problem(3000, 7, 1500, asyncgemm::kF16, asyncgemm::kF32, true, false);
    p.lda = 1504;  // 16-byte rows
    const auto view = skinny::skinny_view(p);
    REQUIRE(view);
    CHECK(view->smalls == 7);
    CHECK(view->rows == 3000);
    CHECK(view->large == p.a);
    CHECK(view->small_k == p.ldb);  // B is N-major: X's elements along K are a row of B apart
    CHECK(view->small_vector == 0);
    CHECK(view->d_s == 1);
    CHECK(view->d_r == p.ldd);
}

TEST_CASE("skinny: what the family does not serve") {
    const auto served = [](const GemmParams &p) { return skinny::skinny_view(p).has_value(); };
    GemmParams p = canonical_problem(16, 4096, 4096, asyncgemm::kBF16, asyncgemm::kBF16, true, true);
    CHECK(served(p));
    GemmParams wide = p;
    wide.m = 17;  // no side of at most 16
    CHECK_FALSE(served(wide));
    GemmParams mn_major = p;
    mn_major.b_k_major = false;  // an MN-major large operand: y = W*x of column-major W
    mn_major.ldb = 4096;
    CHECK_FALSE(served(mn_major));  // 16 small rows over an MN-major L: the SM90 family's
    mn_major.m = 8;
    CHECK(served(mn_major));
    CHECK(skinny::skinny_view(mn_major)->large_k_major == 0);
    GemmParams mn_strided = mn_major;
    mn_strided.a_k_major = false;  // X read an element at a time: K-major L alone
    CHECK_FALSE(served(mn_strided));
    GemmParams unaligned = p;
    unaligned.ldb = 4097;  // rows of the large operand off 16 bytes
    CHECK_FALSE(served(unaligned));
    GemmParams fp32 = p;
    fp32.type_ab = asyncgemm::kF32;
    CHECK_FALSE(served(fp32));  // 16 small rows: the f32 kernel takes 8
    fp32.m = 8;
    CHECK(served(fp32));
    GemmParams fp32_rows = fp32;
    fp32_rows.ldb = 4100;  // 16,400-byte rows: on 16 bytes in f32; 8,200-byte ones in bf16 are not
    CHECK(served(fp32_rows));
    fp32_rows.type_ab = asyncgemm::kBF16;
    CHECK_FALSE(served(fp32_rows));
    fp32_rows.type_ab = asyncgemm::kF32;
    fp32_rows.ldb = 4098;
    CHECK_FALSE(served(fp32_rows));
    GemmParams fp32_mn_major = mn_major;
    fp32_mn_major.type_ab = asyncgemm::kF32;  // 8 small rows over an MN-major L: 16-bit kernels alone
    CHECK_FALSE(served(fp32_mn_major));
    GemmParams no_product = p;
    no_product.alpha = 0.f;
    CHECK_FALSE(served(no_product));
    GemmParams strided_x = canonical_problem(16, 4096, 4096, asyncgemm::kBF16, asyncgemm::kBF16, false, true);
    CHECK_FALSE(served(strided_x));  // 16-row kernels read X as vectors only
    strided_x.m = 8;
    CHECK(served(strided_x));
}

TEST_CASE("skinny: splits fill the GPU where row blocks alone do not, never with batches or short K") {
    const auto splits = [](int64_t m, int64_t n, int64_t k, int64_t batch) {
        GemmParams p = canonical_problem(m, n, k, asyncgemm::kBF16, asyncgemm::kBF16, true, true);
        p.batch_count = batch;
        return skinny::splits_for(*skinny::skinny_view(p), kH100Sms);
    };
    CHECK(splits(1, 57344, 8192, 1) == 1);   // 1792 row blocks
    CHECK(splits(16, 4096, 4096, 1) == 2);   // 128 row blocks of 32 rows
    CHECK(splits(1, 1024, 4096, 1) == 4);    // 32 row blocks: 8 ranges would be 4 chunks each
    CHECK(splits(1, 1024, 4096, 8) == 1);
    CHECK(splits(1, 1024, 256, 1) == 1);     // 2 chunks
}

TEST_CASE("skinny: AUTO keeps f32 in TF32 math for one or two small rows, everything else always") {
    const auto takes = [](int64_t m, int32_t type, bool tf32) {
        const GemmParams p = canonical_problem(m, 4096, 4096, type, type, true, true);
        const std::optional<asyncgemm::SkinnyParams> view = skinny::skinny_view(p);
        REQUIRE(view);
        return skinny::auto_takes(*view, type, tf32);
    };
    CHECK(takes(8, asyncgemm::kF32, false));
    CHECK(takes(2, asyncgemm::kF32, true));
    CHECK_FALSE(takes(3, asyncgemm::kF32, true));
    CHECK_FALSE(takes(8, asyncgemm::kF32, true));
    CHECK(takes(16, asyncgemm::kBF16, true));
}
