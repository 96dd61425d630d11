// Where 8-bit inputs run (plan/eight_bit_route.h), on Blackwell, Hopper, Ampere and a GPU with SIMT
// alone: the 8-bit kernels for K-major operands that TMA describes, f16 copies otherwise, SIMT's
// own kernels where it is named or nothing else runs.
#include <doctest/doctest.h>

#include <initializer_list>
#include <utility>

#include "canonical_problem.h"
#include "plan/eight_bit_route.h"

using namespace asyncgemm;
using namespace asyncgemm::plan;
using asyncgemm::test::canonical_problem;

namespace {

constexpr EightBitFamilies kBlackwell{true, false, true};
constexpr EightBitFamilies kHopper{false, true, true};
constexpr EightBitFamilies kAmpere{false, false, true};
constexpr EightBitFamilies kSimtOnly{false, false, false};

// A row-major e4m3 problem with bf16 D whose every matrix TMA can describe; A and B K-major or not.
GemmParams problem(bool a_k_major, bool b_k_major) {
    return canonical_problem(256, 192, 512, kE4M3, kBF16, a_k_major, b_k_major);
}

void check_route(const EightBitRoute &route, asyncgemm_algo_t family, bool widened) {
    CHECK(route.family == family);
    CHECK(route.widened == widened);
}

}  // namespace

TEST_CASE("8-bit route: K-major operands TMA describes run on the 8-bit kernels of the newest family") {
    const GemmParams p = problem(true, true);
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_SM100_TCGEN05, p), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
    // Without tensor-core 8-bit kernels: f16 copies for PIPELINED, or SIMT's own.
    check_route(eight_bit_route(kAmpere, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_PIPELINED, true);
    check_route(eight_bit_route(kSimtOnly, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
}

TEST_CASE("8-bit route: an MN-major operand runs on f16 copies, also where k = 0 or alpha = 0") {
    for (const auto &[a, b] : {std::pair{false, true}, std::pair{true, false}, std::pair{false, false}}) {
        GemmParams p = problem(a, b);
        for (int no_product = 0; no_product < 3; ++no_product) {
            if (no_product == 1) p.k = 0;
            if (no_product == 2) p.k = 512, p.alpha = 0.f;
            CAPTURE(no_product);
            check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, true);
            check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, true);
            check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_PIPELINED, true);
        }
    }
}

TEST_CASE("8-bit route: rows TMA cannot describe, fused epilogues and named families") {
    GemmParams unaligned_a = problem(true, true);
    unaligned_a.lda = 520;  // 8-byte rows: no TMA map of A, whose copy is aligned
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, unaligned_a), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, true);
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, unaligned_a), ASYNCGEMM_ALGO_PIPELINED, true);
    GemmParams unaligned_d = problem(true, true);
    unaligned_d.ldd = 193;  // D's rows off 16 bytes: the Hopper family stores through TMA
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, unaligned_d), ASYNCGEMM_ALGO_PIPELINED, true);
    // Blackwell's epilogue stores by threads.
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, unaligned_d), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
    // Every family fuses a bias and an activation.
    GemmParams fused = problem(true, true);
    fused.activation = 1;
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, fused), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, fused), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
    // A named family takes the route it names: SIMT its own kernels, the sm80 ones f16 copies.
    const GemmParams p = problem(true, true);
    for (const EightBitFamilies &gpu : {kBlackwell, kHopper, kAmpere, kSimtOnly})
        check_route(eight_bit_route(gpu, ASYNCGEMM_ALGO_SIMT, p), ASYNCGEMM_ALGO_SIMT, false);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_PIPELINED, p), ASYNCGEMM_ALGO_PIPELINED, true);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_ASYNC_COPY, p), ASYNCGEMM_ALGO_ASYNC_COPY, true);
}

TEST_CASE("8-bit route: block scales run on Hopper's 8-bit kernels where B's are per 128 columns, else SIMT") {
    static const float kScales[1] = {};
    GemmParams p = problem(true, true);
    p.block_scale_a = kScales, p.block_rows_a = 1;
    p.block_scale_b = kScales, p.block_cols_b = 128;
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
    // Blackwell's 8-bit kernels apply none; f16 copies cannot hold scaled inputs.
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    check_route(eight_bit_route(kAmpere, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    p.block_cols_b = 1;  // per column of B
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    p.block_cols_b = 128, p.b_k_major = 0;  // MN-major B
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    p.b_k_major = 1, p.ldb = 520;  // rows TMA cannot describe
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SIMT, p), ASYNCGEMM_ALGO_SIMT, false);
}

TEST_CASE("8-bit route: MX scales run on tcgen05's block-scaled MMAs where they can, else on SIMT") {
    static const uint8_t scales[1] = {127};
    GemmParams p = problem(true, true);
    p.mx_scale_a = p.mx_scale_b = scales;
    constexpr EightBitFamilies kBlackwellMx{true, false, true, true};
    check_route(eight_bit_route(kBlackwellMx, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
    check_route(eight_bit_route(kBlackwellMx, ASYNCGEMM_ALGO_SM100_TCGEN05, p), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
    // The family passed its check but not that of its MX-scaled products: SIMT (named, the family
    // is refused before the route: plan/gemm_plan.cpp's check_eight_bit).
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    // The self-checks run only where the family would take the call.
    CHECK(sm100_takes(ASYNCGEMM_ALGO_AUTO, p));
    CHECK(sm100_takes(ASYNCGEMM_ALGO_SM100_TCGEN05, p));
    CHECK_FALSE(sm100_takes(ASYNCGEMM_ALGO_SIMT, p));
    CHECK_FALSE(sm100_takes(ASYNCGEMM_ALGO_AUTO, problem(false, true)));
    // wgmma and the f16 copies scale no 32-element blocks.
    check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    check_route(eight_bit_route(kAmpere, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    check_route(eight_bit_route(kSimtOnly, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
    check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_SIMT, p), ASYNCGEMM_ALGO_SIMT, false);
    // Blackwell without the tcgen05 route: an MN-major operand; with it, a fused epilogue.
    GemmParams mn = problem(true, false);
    mn.mx_scale_a = mn.mx_scale_b = scales;
    check_route(eight_bit_route(kBlackwellMx, ASYNCGEMM_ALGO_AUTO, mn), ASYNCGEMM_ALGO_SIMT, false);
    p.activation = 1;
    check_route(eight_bit_route(kBlackwellMx, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM100_TCGEN05, false);
}

TEST_CASE("8-bit route: e4m3 by e5m2 runs on wgmma's and SIMT's kernels, or on f16 copies, never on tcgen05's") {
    for (const auto &[a, b] : {std::pair{kE4M3, kE5M2}, std::pair{kE5M2, kE4M3}}) {
        GemmParams p = problem(true, true);
        p.type_ab = a, p.type_b = b;
        CAPTURE(a);
        CHECK_FALSE(sm100_takes(ASYNCGEMM_ALGO_AUTO, p));
        check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_PIPELINED, true);
        check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
        check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, p), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
        check_route(eight_bit_route(kAmpere, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_PIPELINED, true);
        check_route(eight_bit_route(kSimtOnly, ASYNCGEMM_ALGO_AUTO, p), ASYNCGEMM_ALGO_SIMT, false);
        check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SIMT, p), ASYNCGEMM_ALGO_SIMT, false);
        // An MN-major operand: f16 copies, as for one format.
        GemmParams mn = p;
        mn.b_k_major = 0;
        check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, mn), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, true);
        // Block scales: wgmma's kernels, as for one format; on Blackwell SIMT's (tcgen05's read one
        // format and no fp32 block scales).
        static const float block_scales[1] = {1.f};
        GemmParams block = p;
        block.block_scale_a = block_scales, block.block_rows_a = 1;
        block.block_scale_b = block_scales, block.block_cols_b = 128;
        check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_AUTO, block), ASYNCGEMM_ALGO_SM90_TMA_WGMMA, false);
        check_route(eight_bit_route(kHopper, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, block), ASYNCGEMM_ALGO_SM90_TMA_WGMMA,
                    false);
        check_route(eight_bit_route(kBlackwell, ASYNCGEMM_ALGO_AUTO, block), ASYNCGEMM_ALGO_SIMT, false);
        // MX scales: SIMT's (tcgen05's block-scaled MMAs read one format).
        static const uint8_t mx_scales[1] = {127};
        GemmParams mx = p;
        mx.mx_scale_a = mx.mx_scale_b = mx_scales;
        CHECK_FALSE(sm100_takes(ASYNCGEMM_ALGO_AUTO, mx));
        check_route(eight_bit_route(EightBitFamilies{true, false, true, true}, ASYNCGEMM_ALGO_AUTO, mx),
                    ASYNCGEMM_ALGO_SIMT, false);
    }
}
