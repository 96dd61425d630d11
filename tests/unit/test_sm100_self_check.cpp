// The problems of the Blackwell family's self-check without a GPU: each is a valid call the family
// serves, and between them they reach every path the check exists to exercise.
#include <doctest/doctest.h>

#include <set>
#include <utility>

#include "plan/gemm_args.h"
#include "plan/matrix_extent.h"
#include "plan/sm100_plan.h"
#include "plan/sm100_self_check.h"

using namespace asyncgemm;
using namespace asyncgemm::plan;

namespace {

// The problem's call on fake addresses, 256-byte aligned like cuMemAlloc's: planning never
// dereferences them.
GemmArgs on_fake_buffers(const SelfCheckProblem &problem) {
    GemmArgs args = self_check_args(problem);
    args.a = reinterpret_cast<const void *>(uintptr_t{0x1000000});
    args.b = reinterpret_cast<const void *>(uintptr_t{0x2000000});
    args.c = problem.beta != 0.0f ? reinterpret_cast<const void *>(uintptr_t{0x3000000}) : nullptr;
    args.d = reinterpret_cast<void *>(uintptr_t{0x4000000});
    if (problem.bias != ASYNCGEMM_BIAS_NONE) {
        args.bias_mode = problem.bias;
        args.bias = reinterpret_cast<const void *>(uintptr_t{0x7000000});
        args.type_bias = args.type_d;
        args.stride_bias = problem.bias == ASYNCGEMM_BIAS_PER_ROW ? problem.m : problem.n;
    }
    args.activation = problem.activation;
    return args;
}

// Leading dimension `ld` of a matrix whose stored rows (or columns) hold `contiguous` elements.
void check_pitch(int64_t ld, int64_t contiguous) {
    CHECK(ld % 8 == 0);
    CHECK(ld > contiguous);
}

}  // namespace

TEST_CASE("every self-check problem is a valid call that the Blackwell family serves") {
    for (const Sm100Check check : {Sm100Check::Family, Sm100Check::MxScales}) {
        REQUIRE(!sm100_self_check_problems(check).empty());
        for (const SelfCheckProblem &problem : sm100_self_check_problems(check)) {
            // The MX check's problems alone are MX-scaled, and all of them are.
            CHECK(problem.mx == (check == Sm100Check::MxScales));
            GemmArgs args = on_fake_buffers(problem);
            if (problem.mx) {
                args.scale_mode_a = args.scale_mode_b = ASYNCGEMM_SCALE_MX_32;
                args.scale_a = reinterpret_cast<const void *>(uintptr_t{0x5000000});
                args.scale_b = reinterpret_cast<const void *>(uintptr_t{0x6000000});
            }
            CAPTURE(problem.m);
            CAPTURE(problem.n);
            CAPTURE(problem.k);
            CHECK_NOTHROW(validate(args));
            CHECK_FALSE(is_empty(args));
            const auto contiguous = [&](asyncgemm_op_t op, int64_t rows, int64_t cols) {
                return storage_extent(args.order, op, rows, cols, 1).contiguous;
            };
            check_pitch(args.lda, contiguous(args.op_a, args.m, args.k));
            check_pitch(args.ldb, contiguous(args.op_b, args.k, args.n));
            check_pitch(args.ldd, contiguous(ASYNCGEMM_OP_N, args.m, args.n));
            const GemmParams params = canonicalize(args);
            // f32 inputs mean tf32 to this family, whatever the handle's math mode.
            CHECK(sm100_supports(params, ASYNCGEMM_MATH_TF32));
            CHECK(sm100_tma_obstacle(params) == "");
            CHECK(has_mx_scales(params) == problem.mx);
        }
    }
}

TEST_CASE("the self-check problems cover every operand major, both ways of adding C, batches, outputs and "
          "the fused epilogue") {
    std::set<std::pair<int, int>> sixteen_bit_majors, tf32_majors;
    bool seeded_as_is = false, seeded_scaled = false, c_in_epilogue = false, batched = false;
    // The fused epilogue's: a bias along canonical rows and columns, after C seeded and after C
    // applied in the epilogue, over a batch with a bias each.
    bool bias_per_row = false, bias_per_column = false, fused_after_seed = false, fused_after_c = false,
         fused_batch = false;
    std::set<int32_t> output_types;
    for (const SelfCheckProblem &problem : sm100_self_check_problems(Sm100Check::Family)) {
        const GemmParams params = canonicalize(on_fake_buffers(problem));
        const std::pair<int, int> majors{params.a_k_major, params.b_k_major};
        (problem.type_ab == ASYNCGEMM_R_32F ? tf32_majors : sixteen_bit_majors).insert(majors);
        if (sm100_seeds_c(params)) {
            seeded_as_is = seeded_as_is || params.beta == params.alpha;
            seeded_scaled = seeded_scaled || params.beta != params.alpha;
        } else if (params.beta != 0.0f) {
            c_in_epilogue = true;
        }
        batched = batched || params.batch_count > 1;
        output_types.insert(params.type_cd);
        if (params.bias != nullptr) {
            CHECK(params.activation != 0);
            (params.bias_per_row ? bias_per_row : bias_per_column) = true;
            if (sm100_seeds_c(params))
                fused_after_seed = true;
            else if (params.beta != 0.0f)
                fused_after_c = true;
            fused_batch = fused_batch || (params.batch_count > 1 && params.stride_bias > 0);
        }
    }
    CHECK(sixteen_bit_majors.size() == 4);
    CHECK(tf32_majors.size() >= 2);
    // D = A·B + C through tcgen05.cp: C seeded unscaled and scaled by beta / alpha.
    CHECK(seeded_as_is);
    CHECK(seeded_scaled);
    CHECK(c_in_epilogue);
    CHECK(batched);
    CHECK(output_types == std::set<int32_t>{kF32, kF16, kBF16});
    CHECK(bias_per_row);
    CHECK(bias_per_column);
    CHECK(fused_after_seed);
    CHECK(fused_after_c);
    CHECK(fused_batch);
}
