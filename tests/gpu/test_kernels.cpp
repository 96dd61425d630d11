// Every kernel of the table, launched on purpose and checked to be the one that ran.  The GEMM
// kernels go through the planner's test entry (plan::gemm_with_config: a family, a configuration,
// a split), the copy kernels through asyncgemm_copy2d with their algorithm named; a LaunchTrace
// (runtime/launch_trace.h) records what was launched.  Each GEMM kernel computes tails of every
// tile dimension, in-place C, alpha = 0 over NaN operands, a batch, and K split three ways where
// its family splits, against the fp64 reference.  This binary links the library's objects rather
// than libasyncgemm.so, to reach those internals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capi/handle.h"
#include "common/error.h"
#include "copy_problem.h"
#include "gemm_problem.h"
#include "kernels/skinny/skinny_traits.h"
#include "plan/copy_kernels.h"
#include "plan/copy_plan.h"
#include "plan/gemm_plan.h"
#include "plan/kernel_table.h"
#include "plan/matmul_desc.h"
#include "plan/simt_kernels.h"
#include "plan/skinny_kernels.h"
#include "plan/skinny_plan.h"
#include "plan/sm100_kernels.h"
#include "plan/sm80_kernels.h"
#include "plan/sm90_kernels.h"
#include "runtime/launch_trace.h"
#include "test_env.h"

using namespace agtest;
namespace ag = asyncgemm;

namespace {

ag::Handle &handle() { return *test_env().handle->impl; }

// One kernel of the table as the test forces it.
struct Forced {
    const char *name;
    asyncgemm_algo_t algo;
    int config;
    asyncgemm_dtype_t type_ab;  // f32 for tf32 kernels (run in TF32 math mode) and SIMT's f32 ones
    bool tf32;
    bool a_k_major, b_k_major;
    bool splits;  // the family splits K
    size_t table_index;
    bool mx = false;  // a SIMT kernel of 8-bit inputs with MX scales
};

asyncgemm_dtype_t public_dtype(int32_t dtype) { return static_cast<asyncgemm_dtype_t>(dtype); }

// The pairs of operand majors (A K-major, B K-major) the test runs a kernel with: its own, or all four
// where it reads them from the launch.
std::vector<std::pair<bool, bool>> majors_run(ag::Majors majors) {
    if (majors == ag::Majors::Any) return {{true, true}, {true, false}, {false, true}, {false, false}};
    return {{ag::a_k_major(majors), ag::b_k_major(majors)}};
}

std::vector<Forced> gemm_kernels() {
    std::vector<Forced> kernels;
    const size_t simt = ag::plan::family_base(ag::Family::Simt);
    for (int i = 0; i < ag::simt::kKernelCount; ++i) {
        const auto &k = ag::simt::kKernels[i];
        for (const auto &[a, b] : majors_run(k.majors))
            kernels.push_back(
                {k.name, ASYNCGEMM_ALGO_SIMT, k.config, public_dtype(k.type_ab), false, a, b, true, simt + i, k.mx});
    }
    const size_t sm80 = ag::plan::family_base(ag::Family::Sm80);
    for (int i = 0; i < ag::sm80::kKernelCount; ++i) {
        const auto &k = ag::sm80::kKernels[i];
        const bool async_copy = ag::sm80::kTileConfigs[k.config].stages == 1;
        for (const auto &[a, b] : majors_run(k.majors))
            kernels.push_back({k.name, async_copy ? ASYNCGEMM_ALGO_ASYNC_COPY : ASYNCGEMM_ALGO_PIPELINED, k.config,
                               public_dtype(k.type_ab), k.type_ab == ag::kF32, a, b, true, sm80 + i});
    }
    const size_t sm90 = ag::plan::family_base(ag::Family::Sm90);
    for (int i = 0; i < ag::sm90::kKernelCount; ++i) {
        const auto &k = ag::sm90::kKernels[i];
        for (const auto &[a, b] : majors_run(k.majors))
            kernels.push_back({k.name, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, k.config, public_dtype(k.type_ab),
                               k.type_ab == ag::kF32, a, b, true, sm90 + i});
    }
    const size_t sm100 = ag::plan::family_base(ag::Family::Sm100);
    for (int i = 0; i < ag::sm100::kKernelCount; ++i) {
        const auto &k = ag::sm100::kKernels[i];
        // Any majors (they are bits of the instruction descriptor): the test takes two pairs.
        for (bool a : {true, false})
            kernels.push_back({k.name, ASYNCGEMM_ALGO_SM100_TCGEN05, 0, public_dtype(k.type_ab),
                               k.type_ab == ag::kF32, a, !a, false, sm100 + i});
    }
    return kernels;
}

// The problems each GEMM kernel computes: row-major, so op N makes A K-major and op T makes B
// K-major.  Leading dimensions 16-byte aligned (the TMA families need them).
std::vector<GemmCase> cases_for(const Forced &k, Rng &rng) {
    GemmCase base;
    base.algo = k.algo;
    base.type_ab = k.type_ab;
    base.order = ASYNCGEMM_ORDER_ROW;
    base.op_a = k.a_k_major ? ASYNCGEMM_OP_N : ASYNCGEMM_OP_T;
    base.op_b = k.b_k_major ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
    base.aligned16 = true;
    std::vector<GemmCase> cases;
    const asyncgemm_dtype_t outputs[] = {ASYNCGEMM_R_32F, ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF};
    // Tails of every tile dimension, C added, each output type.
    for (int i = 0; i < 3; ++i) {
        GemmCase c = base;
        c.type_cd = outputs[i];
        c.m = uniform(rng, 1, 300);
        c.n = uniform(rng, 1, 300);
        c.k = uniform(rng, 1, 700);
        c.c_source = i == 1 ? CSource::SameAsD : CSource::Buffer;
        c.alpha = 1.25f;
        c.beta = -0.5f;
        cases.push_back(c);
    }
    // alpha = 0: A and B are never read (their padding is NaN, and so is every element here: see
    // GemmProblem), D = beta * C.
    GemmCase no_product = base;
    no_product.type_cd = ASYNCGEMM_R_32F;
    no_product.m = 65, no_product.n = 130, no_product.k = 200;
    no_product.alpha = 0.0f;
    no_product.beta = 2.0f;
    no_product.c_source = CSource::Buffer;
    cases.push_back(no_product);
    // The fused bias and activation (asyncgemm_matmul).
    GemmCase fused = base;
    fused.type_cd = ASYNCGEMM_R_16BF;
    fused.m = uniform(rng, 1, 300), fused.n = uniform(rng, 1, 300), fused.k = uniform(rng, 1, 700);
    fused.c_source = CSource::Buffer;
    fused.beta = 0.5f;
    fused.bias_mode = ASYNCGEMM_BIAS_PER_COL;
    fused.activation = ASYNCGEMM_ACT_GELU_ERF;
    cases.push_back(fused);
    // Without C (applied to the accumulators on SM90), alpha folded in, an f32 bias per row.
    fused.type_cd = ASYNCGEMM_R_16F;
    fused.m = uniform(rng, 1, 300), fused.n = uniform(rng, 1, 300), fused.k = uniform(rng, 1, 700);
    fused.c_source = CSource::Null;
    fused.alpha = -0.75f, fused.beta = 0.0f;
    fused.bias_mode = ASYNCGEMM_BIAS_PER_ROW, fused.bias_f32 = true;
    fused.activation = ASYNCGEMM_ACT_GELU_TANH;
    cases.push_back(fused);
    // Without C, alpha 1, a bias per column of D's type (staged per tile on SM90) and GELU (erf).
    fused.m = uniform(rng, 1, 300), fused.n = uniform(rng, 1, 300), fused.k = uniform(rng, 1, 700);
    fused.alpha = 1.0f;
    fused.bias_mode = ASYNCGEMM_BIAS_PER_COL, fused.bias_f32 = false;
    fused.activation = ASYNCGEMM_ACT_GELU_ERF;
    cases.push_back(fused);
    // The same over more tiles than the GPU has SMs (40 batches, a bias each), so that a persistent
    // block stores several tiles and stages each one's column bias where the last one's stores read.
    GemmCase many = fused;
    many.m = 200, many.n = 300, many.k = uniform(rng, 1, 40);
    many.batch_count = 40;
    many.batched_api = true;
    cases.push_back(many);
    // A batch, B broadcast.
    GemmCase batch = base;
    batch.type_cd = ASYNCGEMM_R_16BF;
    batch.m = 70, batch.n = 90, batch.k = 130, batch.batch_count = 3;
    batch.batched_api = true;
    batch.broadcast_b = true;
    cases.push_back(batch);
    // Block scales, where the kernel applies them: SIMT's 8-bit kernels any, the Hopper ones B's per
    // 128 columns (applies_block_scales configurations): per row of A and per 128 columns of B with C
    // and a fused epilogue, per 128 rows of both over batches with their own scales (B broadcast: one
    // set) and the other way round, and per column of B on SIMT.
    const bool eight_bit = k.type_ab == ASYNCGEMM_R_8F_E4M3 || k.type_ab == ASYNCGEMM_R_8F_E5M2;
    const bool simt = k.algo == ASYNCGEMM_ALGO_SIMT;
    if (eight_bit && (simt || (k.algo == ASYNCGEMM_ALGO_SM90_TMA_WGMMA &&
                               ag::sm90::applies_block_scales(ag::sm90::kTileConfigs[k.config])))) {
        GemmCase scaled = base;
        scaled.type_cd = ASYNCGEMM_R_16BF;
        scaled.m = uniform(rng, 1, 300), scaled.n = uniform(rng, 1, 300), scaled.k = uniform(rng, 129, 700);
        scaled.c_source = CSource::Buffer;
        scaled.beta = 0.5f;
        scaled.block_a = ASYNCGEMM_SCALE_BLOCK_1x128, scaled.block_b = ASYNCGEMM_SCALE_BLOCK_128x128;
        cases.push_back(scaled);
        scaled.bias_mode = ASYNCGEMM_BIAS_PER_COL, scaled.activation = ASYNCGEMM_ACT_SILU;
        scaled.type_cd = ASYNCGEMM_R_32F;
        cases.push_back(scaled);
        scaled.c_source = CSource::Null, scaled.beta = 0.0f;  // the fused pass without C
        scaled.activation = ASYNCGEMM_ACT_RELU;
        cases.push_back(scaled);
        scaled.activation = ASYNCGEMM_ACT_GELU_ERF;  // staged beside block scales on Hopper
        cases.push_back(scaled);
        scaled.c_source = CSource::Buffer, scaled.beta = 0.5f, scaled.activation = ASYNCGEMM_ACT_SILU;
        GemmCase scaled_batch = batch;
        scaled_batch.m = 200, scaled_batch.n = 260, scaled_batch.k = 300;
        scaled_batch.block_a = ASYNCGEMM_SCALE_BLOCK_128x128, scaled_batch.block_b = ASYNCGEMM_SCALE_BLOCK_128x128;
        cases.push_back(scaled_batch);
        scaled_batch.broadcast_b = false, scaled_batch.broadcast_a = true;  // B's scales per batch, A's one set
        scaled_batch.block_a = ASYNCGEMM_SCALE_BLOCK_1x128;
        cases.push_back(scaled_batch);
        if (simt) {
            scaled.block_b = ASYNCGEMM_SCALE_BLOCK_1x128, scaled.scale_a = 0.5f, scaled.block_a = ASYNCGEMM_SCALE_NONE;
            cases.push_back(scaled);
        }
    }
    // The MX kernels take MX-scaled products alone: every case with a product, MX-scaled.
    if (k.mx) {
        cases.erase(std::remove_if(cases.begin(), cases.end(), [](const GemmCase &c) { return c.alpha == 0.0f; }),
                    cases.end());
        for (GemmCase &c : cases) {
            c.block_a = c.block_b = ASYNCGEMM_SCALE_MX_32;
            c.scale_a = c.scale_b = 0.0f;
        }
    }
    // The 8-bit kernels of SIMT and SM90_TMA_WGMMA read each operand's format at run time: their cases
    // take e4m3, e5m2 and one of each, in turn.
    if (eight_bit && (simt || k.algo == ASYNCGEMM_ALGO_SM90_TMA_WGMMA)) {
        constexpr std::pair<asyncgemm_dtype_t, asyncgemm_dtype_t> kFormats[] = {
            {ASYNCGEMM_R_8F_E4M3, ASYNCGEMM_R_8F_E4M3},
            {ASYNCGEMM_R_8F_E5M2, ASYNCGEMM_R_8F_E5M2},
            {ASYNCGEMM_R_8F_E4M3, ASYNCGEMM_R_8F_E5M2},
            {ASYNCGEMM_R_8F_E5M2, ASYNCGEMM_R_8F_E4M3}};
        for (size_t i = 0; i < cases.size(); ++i) {
            const auto &[type_a, type_b] = kFormats[i % std::size(kFormats)];
            cases[i].type_ab = type_a;
            cases[i].type_b = type_b == type_a ? std::nullopt : std::optional<asyncgemm_dtype_t>(type_b);
        }
    }
    return cases;
}

// The call's arguments as the planner takes them, through the library's own reading of a descriptor.
ag::plan::GemmArgs args_of(const GemmCall &x) {
    const asyncgemm_matmul_desc_t desc = matmul_desc(x);
    return ag::plan::matmul_args(&desc);
}

// Runs `c` with fresh inputs through `enter` (a way into the library's internals, throwing ag::Error
// where the API would return a status) and records the kernels it launched in `launched`: "" when
// the library did what it must (run_gemm_with), else what went wrong.
std::string run_traced(const std::function<void(const GemmCall &)> &enter, const GemmCase &c, Rng &rng,
                       cudaStream_t stream, asyncgemm_math_t math, bool *refused, std::vector<std::string> &launched) {
    const auto launch = [&](const GemmCall &call) {
        ag::LaunchTrace trace;
        try {
            enter(call);
        } catch (const ag::Error &e) {
            return e.status();
        }
        launched = trace.kernels();
        return ASYNCGEMM_STATUS_SUCCESS;
    };
    return run_gemm_with(launch, c, rng, stream, math, refused);
}

// Runs `c` through AUTO (plan::gemm), checks D, and returns the kernels it launched.
std::vector<std::string> run_auto(const GemmCase &c, Rng &rng, cudaStream_t stream) {
    std::vector<std::string> launched;
    const auto enter = [&](const GemmCall &call) { ag::plan::gemm(handle(), args_of(call), stream); };
    bool refused = false;
    const std::string failure = run_traced(enter, c, rng, stream, ASYNCGEMM_MATH_DEFAULT, &refused, launched);
    CHECK_MESSAGE(failure == "", failure);
    CHECK_FALSE(refused);
    return launched;
}

// The verdict on a forced run of `c`: D right, nothing refused, and kernel `name` alone launched.
void check_ran_alone(const char *name, const GemmCase &c, int splits, const std::string &failure, bool refused,
                     const std::vector<std::string> &launched) {
    CAPTURE(c.describe());
    CAPTURE(splits);
    CHECK_MESSAGE(failure == "", failure);
    CHECK_FALSE(refused);
    REQUIRE(!launched.empty());
    for (const std::string &ran : launched) CHECK(ran == name);
}

// Runs `c` through kernel `k` forced with `splits` and checks D and that k alone ran.
void check_forced(const Forced &k, const GemmCase &c, int splits, Rng &rng, cudaStream_t stream) {
    std::vector<std::string> launched;
    const auto enter = [&](const GemmCall &call) {
        ag::plan::gemm_with_config(handle(), args_of(call), {k.config, splits}, stream);
    };
    bool refused = false;
    const asyncgemm_math_t math = k.tf32 ? ASYNCGEMM_MATH_TF32 : ASYNCGEMM_MATH_DEFAULT;
    handle().set_math_mode(math);
    const std::string failure = run_traced(enter, c, rng, stream, math, &refused, launched);
    handle().set_math_mode(ASYNCGEMM_MATH_DEFAULT);
    check_ran_alone(k.name, c, splits, failure, refused, launched);
}

// The skinny family's problems for a kernel of `smalls` small rows and its major of the large
// operand: a side of (smalls / 2, smalls] columns, as m (D's rows; the large operand B) and as n (the
// large operand A), X read as vectors and, where the kernel reads them so, element by element; tails
// of every dimension, K not a multiple of 8, in-place C, each output type, a batch with the large
// operand broadcast.
std::vector<GemmCase> skinny_cases(const ag::skinny::KernelInfo &k, Rng &rng) {
    const bool strided = ag::skinny::shape_for(k.smalls, k.l_k_major).strided;
    const asyncgemm_dtype_t outputs[] = {ASYNCGEMM_R_32F, ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF};
    std::vector<GemmCase> cases;
    for (int i = 0; i < 6; ++i) {
        const bool small_m = i % 2 == 0;
        const bool x_vectors = i < 4 || !strided;
        GemmCase c;
        c.type_ab = public_dtype(k.type_ab);
        c.type_cd = outputs[i % 3];
        c.order = ASYNCGEMM_ORDER_ROW;
        c.aligned16 = true;  // the large operand's rows 16-byte aligned, as the family needs
        const int64_t small = uniform(rng, k.smalls / 2 + 1, k.smalls), large = uniform(rng, 40, 700);
        c.m = small_m ? small : large;
        c.n = small_m ? large : small;
        c.k = uniform(rng, 1, 1100);
        // The large operand of the kernel's major (row-major B K-major with op T, A K-major with op
        // N); X (A for small m, B for small n) K-major where it is read as vectors, else MN-major
        // (read an element at a time, K strided).
        const bool x_k_major = x_vectors;
        if (small_m) {
            c.op_a = x_k_major ? ASYNCGEMM_OP_N : ASYNCGEMM_OP_T;
            c.op_b = k.l_k_major ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
        } else {
            c.op_a = k.l_k_major ? ASYNCGEMM_OP_N : ASYNCGEMM_OP_T;
            c.op_b = x_k_major ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
        }
        c.c_source = i == 1 ? CSource::SameAsD : CSource::Buffer;
        c.alpha = 0.75f;
        c.beta = i == 2 ? 0.0f : -1.5f;
        if (i == 2) c.c_source = CSource::NanBuffer;
        cases.push_back(c);
    }
    GemmCase batch = cases.front();
    batch.m = k.smalls, batch.n = 333, batch.k = 520, batch.batch_count = 3;
    batch.batched_api = true;
    batch.broadcast_b = true;
    batch.c_source = CSource::Buffer;
    cases.push_back(batch);
    // The fused bias (along the small side, and along the large one) and activation.
    GemmCase fused = cases.front();
    fused.bias_mode = ASYNCGEMM_BIAS_PER_ROW, fused.activation = ASYNCGEMM_ACT_GELU_TANH;
    cases.push_back(fused);
    fused = cases.at(1);
    fused.bias_mode = ASYNCGEMM_BIAS_PER_ROW, fused.bias_f32 = true, fused.activation = ASYNCGEMM_ACT_RELU;
    cases.push_back(fused);
    return cases;
}

// Runs `c` through the skinny family with at most `splits` K ranges and checks D and that kernel k
// alone ran.
void check_skinny(const ag::skinny::KernelInfo &k, const GemmCase &c, int splits, Rng &rng, cudaStream_t stream) {
    std::vector<std::string> launched;
    const auto enter = [&](const GemmCall &call) {
        const ag::plan::GemmArgs args = args_of(call);
        ag::plan::validate(args);
        const ag::GemmParams params = ag::plan::canonicalize(args);
        const std::optional<ag::SkinnyParams> view = ag::plan::skinny_plan(handle(), params);
        if (!view) ag::fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "the skinny family does not serve " + c.describe());
        ag::plan::launch_skinny(handle(), *view, params.type_ab, splits, stream);
    };
    bool refused = false;
    const std::string failure = run_traced(enter, c, rng, stream, ASYNCGEMM_MATH_DEFAULT, &refused, launched);
    check_ran_alone(k.name, c, splits, failure, refused, launched);
}

}  // namespace

TEST_SUITE("kernels") {

TEST_CASE("every GEMM kernel, forced, computes its problems and is the one that ran") {
    Rng rng = rng_for("forced kernels");
    Stream stream;
    int ran = 0, not_here = 0;
    for (const Forced &k : gemm_kernels()) {
        CAPTURE(k.name);
        CAPTURE(k.a_k_major);
        CAPTURE(k.b_k_major);
        if (!handle().kernel_available(k.table_index)) {
            ++not_here;
            continue;
        }
        for (const GemmCase &c : cases_for(k, rng)) check_forced(k, c, 1, rng, stream.get());
        if (k.splits) {
            // K of 48 blocks and more in three ranges, on few tiles, with the fused epilogue (it
            // follows the ranges' sum).
            GemmCase split = cases_for(k, rng).front();
            split.m = 100, split.n = 70, split.k = 3100;
            split.bias_mode = ASYNCGEMM_BIAS_PER_ROW;
            split.bias_f32 = true;
            split.activation = ASYNCGEMM_ACT_SILU;
            check_forced(k, split, 3, rng, stream.get());
            // Two ranges: the last to finish adds the other's partial to its own.
            check_forced(k, split, 2, rng, stream.get());
            // Without C, a bias per column: applied to the sum in registers on Hopper.
            split.c_source = CSource::Null, split.beta = 0.0f;
            split.bias_mode = ASYNCGEMM_BIAS_PER_COL;
            split.activation = ASYNCGEMM_ACT_GELU_ERF;
            check_forced(k, split, 3, rng, stream.get());
        }
        ++ran;
    }
    MESSAGE(ran << " GEMM kernels forced and checked; " << not_here << " cannot run on this device");
    CHECK(ran > 0);
}

TEST_CASE("every skinny kernel computes its problems, split or not, and is the one that ran") {
    Rng rng = rng_for("skinny kernels");
    Stream stream;
    const size_t base = ag::plan::family_base(ag::Family::Skinny);
    for (int i = 0; i < ag::skinny::kKernelCount; ++i) {
        const ag::skinny::KernelInfo &k = ag::skinny::kKernels[i];
        CAPTURE(k.name);
        REQUIRE(handle().kernel_available(base + static_cast<size_t>(i)));
        for (const GemmCase &c : skinny_cases(k, rng)) {
            check_skinny(k, c, 1, rng, stream.get());
            if (c.batch_count == 1) check_skinny(k, c, 3, rng, stream.get());
        }
        // K of thousands in many ranges, tails in every dimension.
        GemmCase split = skinny_cases(k, rng).front();
        split.n = 1000, split.k = 5000 + 8 * i + 3;
        check_skinny(k, split, 7, rng, stream.get());
    }
}

TEST_CASE("AUTO gives a GEMM with a side of at most 16 to the skinny family") {
    Rng rng = rng_for("auto skinny");
    Stream stream;
    GemmCase decode;  // y = x W^T, bf16, one token
    decode.type_ab = decode.type_cd = ASYNCGEMM_R_16BF;
    decode.op_b = ASYNCGEMM_OP_T;
    decode.m = 1, decode.n = 4096, decode.k = 4096;
    decode.aligned16 = true;
    GemmCase solve = decode;  // column-major D = W^T X, 12 right-hand sides
    solve.order = ASYNCGEMM_ORDER_COL;
    solve.op_a = ASYNCGEMM_OP_T, solve.op_b = ASYNCGEMM_OP_N;
    solve.type_cd = ASYNCGEMM_R_32F;
    solve.m = 3000, solve.n = 12, solve.k = 1500;
    GemmCase dense = decode;  // column-major y = W*x, W stored out x in (MN-major in the product)
    dense.order = ASYNCGEMM_ORDER_COL;
    dense.op_a = dense.op_b = ASYNCGEMM_OP_N;
    dense.m = 2000, dense.n = 4, dense.k = 1000;
    GemmCase fp32 = decode;  // y = x W^T in f32, four tokens: the FMA kernel
    fp32.type_ab = fp32.type_cd = ASYNCGEMM_R_32F;
    fp32.m = 4;
    for (const GemmCase &c : {decode, solve, dense, fp32}) {
        CAPTURE(c.describe());
        const std::vector<std::string> launched = run_auto(c, rng, stream.get());
        REQUIRE(launched.size() == 1);
        CHECK(launched.front().rfind("asyncgemm_skinny_gemm", 0) == 0);
    }
}

TEST_CASE("a forced configuration that has no kernel for the problem is refused, never replaced") {
    Stream stream;
    GemmCase c;
    c.algo = ASYNCGEMM_ALGO_PIPELINED;
    c.type_ab = ASYNCGEMM_R_32F;  // tf32 has no 128 x 256 kernel
    c.type_cd = ASYNCGEMM_R_32F;
    c.op_b = ASYNCGEMM_OP_T;
    c.m = c.n = c.k = 64;
    handle().set_math_mode(ASYNCGEMM_MATH_TF32);
    GemmProblem problem(c);
    Rng rng = rng_for("forced refusal");
    problem.fill(rng, stream.get());
    ag::LaunchTrace trace;
    CHECK_THROWS_AS(ag::plan::gemm_with_config(handle(), args_of(problem.call()), {ag::sm80::kConfigWide, 1},
                                               stream.get()),
                    ag::Error);
    handle().set_math_mode(ASYNCGEMM_MATH_DEFAULT);
    CHECK(trace.kernels().empty());
    CHECK(problem.verify_untouched(stream.get()) == "");
}

TEST_CASE("AUTO on Hopper serves matrices TMA cannot describe with the Hopper family on copies") {
    if (!handle().family_available(ag::Family::Sm90)) return;
    Rng rng = rng_for("sm90 on copies");
    Stream stream;
    std::vector<GemmCase> cases;
    GemmCase padded;  // A, B and D with rows off 16 bytes
    padded.type_ab = padded.type_cd = ASYNCGEMM_R_16F;
    padded.m = 1200, padded.n = 1400, padded.k = 1040;  // large enough for the copies to pay
    padded.lda_pad = 1, padded.ldb_pad = 3, padded.ldd_pad = 1;
    cases.push_back(padded);
    GemmCase in_place = padded;  // C is D, both off 16 bytes; A off by one element; B K-major
    in_place.type_ab = in_place.type_cd = ASYNCGEMM_R_16BF;
    in_place.op_b = ASYNCGEMM_OP_T;
    in_place.offset_a = true;
    in_place.lda_pad = in_place.ldb_pad = 0;
    in_place.ldd_pad = in_place.ldc_pad = 3;
    in_place.c_source = CSource::SameAsD;
    in_place.beta = 0.5f;
    cases.push_back(in_place);
    GemmCase batches;  // four batches of an A with 333-element rows, one right after another
    batches.type_ab = ASYNCGEMM_R_16F;
    batches.type_cd = ASYNCGEMM_R_32F;
    batches.m = batches.n = 1024, batches.k = 333, batches.batch_count = 4;
    batches.batched_api = true;
    cases.push_back(batches);
    for (const GemmCase &c : cases) {
        CAPTURE(c.describe());
        const std::vector<std::string> launched = run_auto(c, rng, stream.get());
        int hopper = 0, copies = 0;
        for (const std::string &name : launched) {
            hopper += name.rfind("asyncgemm_sm90_gemm", 0) == 0;
            copies += name.rfind("asyncgemm_copy", 0) == 0;
        }
        CHECK(hopper == 1);
        CHECK(copies >= 1);
        CHECK(hopper + copies == static_cast<int>(launched.size()));
    }
}

TEST_CASE("8-bit inputs: AUTO runs the 8-bit kernel where it reads them (on Hopper on an MN-major operand's K-major "
          "copy), else widening copies and a 16-bit kernel") {
    Rng rng = rng_for("fp8 widened");
    Stream stream;
    const bool hopper = handle().family_available(ag::Family::Sm90);
    GemmCase k_major;  // the 8-bit kernels' form
    k_major.type_ab = ASYNCGEMM_R_8F_E4M3;
    k_major.type_cd = ASYNCGEMM_R_16BF;
    k_major.m = 300, k_major.n = 200, k_major.k = 520;
    k_major.op_b = ASYNCGEMM_OP_T;
    k_major.aligned16 = true;
    k_major.scale_a = 0.5f, k_major.scale_b = 3.0f;
    enum class Path { EightBit, Transposed, Widened };  // on Hopper; every other GPU widens
    std::vector<std::pair<GemmCase, Path>> cases{{k_major, Path::EightBit}};
    GemmCase mn_major = k_major;  // A MN-major: wgmma's 8-bit kinds have no transpose, A is copied K-major
    mn_major.op_a = ASYNCGEMM_OP_T;
    cases.push_back({mn_major, Path::Transposed});
    GemmCase b_mn_major = k_major;  // B MN-major, of the other format
    b_mn_major.op_b = ASYNCGEMM_OP_N;
    b_mn_major.type_b = ASYNCGEMM_R_8F_E5M2;
    cases.push_back({b_mn_major, Path::Transposed});
    GemmCase both = mn_major;  // both MN-major: two transposes
    both.op_b = ASYNCGEMM_OP_N;
    cases.push_back({both, Path::Transposed});
    GemmCase four_byte_rows = mn_major;  // A's rows 308 bytes apart: the transpose's 4-byte vectors
    four_byte_rows.aligned16 = false;
    four_byte_rows.k = 512;  // B's and D's rows still 16-byte multiples
    four_byte_rows.lda_pad = 8;
    cases.push_back({four_byte_rows, Path::Transposed});
    GemmCase shared_a = mn_major;  // one MN-major A for three batches: transposed once
    shared_a.batch_count = 3, shared_a.batched_api = true, shared_a.broadcast_a = true;
    cases.push_back({shared_a, Path::Transposed});
    GemmCase unaligned = k_major;  // rows of A 523 bytes apart: copied only to be transposed, so widened
    unaligned.type_ab = ASYNCGEMM_R_8F_E5M2;
    unaligned.aligned16 = false;
    unaligned.lda_pad = 3;
    cases.push_back({unaligned, Path::Widened});
    GemmCase batches = mn_major;  // three batches of A, one B for all: no transposing copy of batches
    batches.batch_count = 3, batches.batched_api = true, batches.broadcast_b = true;
    batches.type_cd = ASYNCGEMM_R_32F;
    cases.push_back({batches, Path::Widened});
    GemmCase two_formats = k_major;  // e4m3 by e5m2: the Hopper 8-bit kernels read either format
    two_formats.type_b = ASYNCGEMM_R_8F_E5M2;
    cases.push_back({two_formats, Path::EightBit});
    for (const auto &entry : cases) {
        const GemmCase &c = entry.first;
        const Path path = entry.second;
        CAPTURE(c.describe());
        const Path expected = hopper ? path : Path::Widened;
        const std::vector<std::string> launched = run_auto(c, rng, stream.get());
        int widen = 0, transpose = 0, eight_bit = 0;
        for (const std::string &name : launched) {
            widen += name == "asyncgemm_copy2d_widen_n_b8";
            transpose += name == "asyncgemm_copy2d_pipelined_t_b8";
            eight_bit += name.rfind("asyncgemm_sm90_gemm_f8", 0) == 0;
        }
        const int transposes = (c.op_a == ASYNCGEMM_OP_T) + (c.op_b == ASYNCGEMM_OP_N);
        if (expected == Path::EightBit) {
            CHECK(eight_bit == 1);
            CHECK(launched.size() == 1);
        } else if (expected == Path::Transposed) {
            CHECK(transpose == transposes);
            CHECK(eight_bit == 1);
            CHECK(static_cast<int>(launched.size()) == transposes + 1);
        } else {
            CHECK(widen == 2);
            CHECK(eight_bit == 0);
            CHECK(launched.size() == 3);
        }
    }
}

TEST_CASE("8-bit inputs with block scales: AUTO runs the Hopper 8-bit kernel where it applies them (an MN-major "
          "operand on its K-major copy), else SIMT") {
    Rng rng = rng_for("fp8 block scales");
    Stream stream;
    const bool hopper = handle().family_available(ag::Family::Sm90);
    GemmCase deepseek;  // y = x·Wᵀ: x per row and 128 of K, W per 128 x 128 block, K-major
    deepseek.type_ab = ASYNCGEMM_R_8F_E4M3;
    deepseek.type_cd = ASYNCGEMM_R_16BF;
    deepseek.m = 300, deepseek.n = 400, deepseek.k = 1000;
    deepseek.op_b = ASYNCGEMM_OP_T;
    deepseek.aligned16 = true;
    deepseek.block_a = ASYNCGEMM_SCALE_BLOCK_1x128, deepseek.block_b = ASYNCGEMM_SCALE_BLOCK_128x128;
    GemmCase column_major = deepseek;  // Y = Wᵀ·X in column-major order: W is op(A), per 128 x 128 block
    column_major.order = ASYNCGEMM_ORDER_COL, column_major.op_a = ASYNCGEMM_OP_T, column_major.op_b = ASYNCGEMM_OP_N;
    column_major.block_a = ASYNCGEMM_SCALE_BLOCK_128x128, column_major.block_b = ASYNCGEMM_SCALE_BLOCK_1x128;
    GemmCase fine_b = deepseek;  // B per column: the Hopper kernels apply no such scales
    fine_b.block_b = ASYNCGEMM_SCALE_BLOCK_1x128;
    GemmCase mn_major = deepseek;  // B MN-major: the Hopper kernels on B's K-major 8-bit copy
    mn_major.op_b = ASYNCGEMM_OP_N;
    GemmCase mn_batches = mn_major;  // batches of an MN-major B: no transposing copy of batches, so SIMT
    mn_batches.batch_count = 2, mn_batches.batched_api = true;
    GemmCase short_m = deepseek;  // 64-row tiles
    short_m.m = 40, short_m.type_ab = ASYNCGEMM_R_8F_E5M2, short_m.type_cd = ASYNCGEMM_R_32F;
    GemmCase two_formats = deepseek;  // e4m3 by e5m2: the Hopper kernels read either format
    two_formats.type_b = ASYNCGEMM_R_8F_E5M2;
    struct Expected {
        GemmCase c;
        bool hopper_kernel;  // on Hopper, its 8-bit kernel (else SIMT's)
        bool transposed;     // after the byte transpose of an MN-major operand
    };
    const Expected cases[] = {{deepseek, true, false},   {column_major, true, false}, {fine_b, false, false},
                              {mn_major, true, true},    {mn_batches, false, false},  {short_m, true, false},
                              {two_formats, true, false}};
    for (const Expected &e : cases) {
        const GemmCase &c = e.c;
        CAPTURE(c.describe());
        const std::vector<std::string> launched = run_auto(c, rng, stream.get());
        const bool hopper_kernel = e.hopper_kernel, transposed = hopper && e.transposed;
        REQUIRE(launched.size() == (transposed ? 2u : 1u));
        if (transposed) CHECK(launched[0] == "asyncgemm_copy2d_pipelined_t_b8");
        CHECK(launched.back().rfind(hopper && hopper_kernel ? "asyncgemm_sm90_gemm_f8" : "asyncgemm_simt_gemm_f8", 0) ==
              0);
    }
}

TEST_CASE("the planner's byte transpose: every element in its place, ragged tiles, 8- and 4-byte vectors") {
    // dst (rows x cols) = src^T, src stored cols x rows; the padding of dst's rows stays as it was.
    Rng rng = rng_for("byte transpose");
    Stream stream;
    struct Shape {
        int64_t rows, cols, ld_src, ld_dst;
    };
    // 16-byte leading dimensions (8-byte vectors), ragged on both sides; 4-byte ones (4-byte vectors).
    for (const Shape &shape : {Shape{200, 136, 208, 144}, Shape{301, 77, 304, 80}, Shape{130, 129, 132, 132}}) {
        CAPTURE(shape.rows);
        CAPTURE(shape.cols);
        std::vector<unsigned char> src(static_cast<size_t>(shape.cols * shape.ld_src));
        std::vector<unsigned char> dst(static_cast<size_t>(shape.rows * shape.ld_dst), 0xA5);
        for (unsigned char &byte : src) byte = static_cast<unsigned char>(uniform(rng, 0, 255));
        DeviceBuffer src_device(src.size()), dst_device(dst.size());
        src_device.upload(src.data(), stream.get());
        dst_device.upload(dst.data(), stream.get());
        REQUIRE(ag::plan::transposable_bytes(src_device.get(), shape.ld_src, dst_device.get(), shape.ld_dst));
        ag::LaunchTrace trace;
        ag::plan::transpose_bytes(handle(), src_device.get(), shape.ld_src, dst_device.get(), shape.ld_dst, shape.rows,
                                  shape.cols, stream.get());
        CHECK(trace.kernels() == std::vector<std::string>{"asyncgemm_copy2d_pipelined_t_b8"});
        dst_device.download(dst.data(), stream.get());
        cuda_check(cudaStreamSynchronize(stream.get()), "the byte transpose");
        int64_t wrong = 0, padding_written = 0;
        for (int64_t i = 0; i < shape.rows; ++i)
            for (int64_t j = 0; j < shape.ld_dst; ++j) {
                const unsigned char got = dst[static_cast<size_t>(i * shape.ld_dst + j)];
                if (j < shape.cols)
                    wrong += got != src[static_cast<size_t>(j * shape.ld_src + i)];
                else
                    padding_written += got != 0xA5;
            }
        CHECK(wrong == 0);
        CHECK(padding_written == 0);
    }
    // Rows 2 bytes off a 4-byte multiple: no cp.async of them.
    CHECK_FALSE(ag::plan::transposable_bytes(nullptr, 202, nullptr, 208));
}

TEST_CASE("every copy kernel, named by its algorithm (the row copy: chosen by AUTO), is the one that ran") {
    Rng rng = rng_for("copy kernels");
    Stream stream;
    for (const ag::copy::KernelInfo &k : ag::copy::kKernels) {
        CAPTURE(k.name);
        if (k.algo == ASYNCGEMM_COPY_TMA && test_env().cc_major < 9) continue;
        // The GEMM planner's own 8-bit copies: checked with 8-bit GEMMs above and the byte transpose below.
        if (k.elem_bytes == 1) continue;
        CopyCase c;
        c.dtype = k.elem_bytes == 4 ? ASYNCGEMM_R_32F : ASYNCGEMM_R_16BF;
        c.op = k.transpose ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
        c.rows = 200, c.cols = 136;  // 16-byte rows for every algorithm but the row copy's
        if (k.algo == ag::copy::kCopyRows) {
            c.ld_src_pad = 1;  // rows of 2-byte alignment, which AUTO gives the row copy
        } else {
            c.algo = k.algo;
        }
        bool refused = false;
        ag::LaunchTrace trace;
        const std::string failure = run_copy(test_env().handle, c, rng, stream.get(), &refused);
        CHECK_MESSAGE(failure == "", failure);
        CHECK_FALSE(refused);
        REQUIRE(!trace.kernels().empty());
        for (const std::string &name : trace.kernels()) CHECK(name == k.name);
    }
}

}  // TEST_SUITE
