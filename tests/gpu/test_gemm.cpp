// GEMM results against an fp64 host reference: every available algorithm and AUTO, every dtype
// pair, order and op pair, random and tail shapes, the degenerate sizes, in-place, batches with
// broadcasts, TF32 mode, 8-bit float inputs with their scales.  Explicit algorithms may refuse a problem (NOT_SUPPORTED or MISALIGNED,
// message, D untouched); AUTO never may.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gemm_problem.h"
#include "matrix_layout.h"
#include "test_env.h"

using namespace agtest;

namespace {

// How often each algorithm ran a case and refused one.
struct Tally {
    std::map<asyncgemm_algo_t, int> ran, refused;
};

// Runs the case once with fresh inputs on `stream` and checks the outcome; counts it in `tally`.
void check_gemm(const GemmCase &c, Rng &rng, cudaStream_t stream, Tally *tally = nullptr,
                asyncgemm_handle_t handle = test_env().handle, asyncgemm_math_t math = ASYNCGEMM_MATH_DEFAULT) {
    bool refused = false;
    const std::string failure = run_gemm(handle, c, rng, stream, math, &refused);
    CHECK(failure == "");
    if (tally) ++(refused ? tally->refused : tally->ran)[c.algo];
}

// Each algorithm served at least one case (one refusing everything it says it can run is broken).
void check_tally(const Tally &tally, const std::string &what) {
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle)) {
        const int ran = tally.ran.count(algo) ? tally.ran.at(algo) : 0;
        const int refused = tally.refused.count(algo) ? tally.refused.at(algo) : 0;
        MESSAGE(what << ": " << algo_name(algo) << " ran " << ran << " cases, refused " << refused);
        CHECK_MESSAGE(ran > 0, algo_name(algo) << " is available but served none of the " << what);
    }
}

}  // namespace

TEST_SUITE("gemm") {

TEST_CASE("every algorithm, dtype pair, order and op pair on random shapes") {
    Rng rng = rng_for("gemm sweep");
    Tally tally;
    constexpr int kCasesPerCombination = 2;
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_dtype_t type_ab : kDtypes)
            for (asyncgemm_dtype_t type_cd : kDtypes)
                for (asyncgemm_order_t order : kOrders)
                    for (asyncgemm_op_t op_a : kOps)
                        for (asyncgemm_op_t op_b : kOps)
                            for (int i = 0; i < kCasesPerCombination; ++i) {
                                GemmCase c = random_gemm_case(rng, 300);
                                c.algo = algo;
                                c.type_ab = type_ab;
                                c.type_cd = type_cd;
                                c.order = order;
                                c.op_a = op_a;
                                c.op_b = op_b;
                                check_gemm(c, rng, nullptr, &tally);  // the legacy stream
                            }
    check_tally(tally, "random shapes");
}

TEST_CASE("tails of every tile dimension") {
    Rng rng = rng_for("gemm tails");
    Stream stream;
    Tally tally;
    constexpr asyncgemm_dtype_t kPairs[][2] = {
        {ASYNCGEMM_R_32F, ASYNCGEMM_R_32F}, {ASYNCGEMM_R_16F, ASYNCGEMM_R_32F}, {ASYNCGEMM_R_16BF, ASYNCGEMM_R_16BF}};
    constexpr int kSizes = static_cast<int>(std::size(kTailSizes));
    // Three rotations of the list pair every size with small and large partners in each of m, n, k.
    constexpr int kRotations[][2] = {{4, 8}, {8, 4}, {1, 6}};
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (const auto &pair : kPairs)
            for (int r = 0; r < 3; ++r)
                for (int i = 0; i < kSizes; ++i) {
                    GemmCase c;
                    c.algo = algo;
                    c.type_ab = pair[0];
                    c.type_cd = pair[1];
                    c.m = kTailSizes[i];
                    c.n = kTailSizes[(i + kRotations[r][0]) % kSizes];
                    c.k = kTailSizes[(i + kRotations[r][1]) % kSizes];
                    c.order = kOrders[i % 2];
                    c.op_a = kOps[(i / 2) % 2];
                    c.op_b = kOps[(i / 4 + r) % 2];
                    c.c_source = CSource::Buffer;
                    c.alpha = 1.5f;
                    c.beta = -0.5f;
                    c.aligned16 = r != 1;  // tight leading dimensions in one rotation, 16-byte rows in two
                    check_gemm(c, rng, stream.get(), &tally);
                }
    check_tally(tally, "tail shapes");
}

TEST_CASE("a small side of 1 to 64 (decode, few right-hand sides): AUTO over both sides, orders and ops") {
    // AUTO's skinny family takes sides up to 16, the tensor-core families the rest: each size on m
    // and on n, against a large other side and K with tails, every order and op pair, a batch.
    Rng rng = rng_for("gemm small sides");
    Stream stream;
    constexpr int64_t kSmallSides[] = {1, 2, 3, 7, 8, 16, 17, 33, 64};
    constexpr asyncgemm_dtype_t kPairs[][2] = {
        {ASYNCGEMM_R_16BF, ASYNCGEMM_R_16BF}, {ASYNCGEMM_R_16F, ASYNCGEMM_R_32F}, {ASYNCGEMM_R_32F, ASYNCGEMM_R_32F}};
    int turn = 0;
    for (int64_t small : kSmallSides)
        for (bool small_m : {true, false})
            for (asyncgemm_order_t order : kOrders)
                for (int ops = 0; ops < 4; ++ops, ++turn) {
                    GemmCase c;
                    c.type_ab = kPairs[turn % 3][0], c.type_cd = kPairs[turn % 3][1];
                    c.order = order;
                    c.op_a = kOps[ops % 2], c.op_b = kOps[ops / 2];
                    const int64_t large = uniform(rng, 400, 900);
                    c.m = small_m ? small : large;
                    c.n = small_m ? large : small;
                    c.k = uniform(rng, 500, 1500);
                    // Strides apart from the ops' 4 and the types' 3, so no option follows another.
                    c.aligned16 = turn / 4 % 2 == 0;
                    c.alpha = 1.25f;
                    if (turn / 3 % 2 == 0) c.c_source = CSource::Buffer, c.beta = -0.5f;
                    if (turn % 5 == 0) c.batch_count = 3, c.batched_api = true;
                    check_gemm(c, rng, stream.get());
                }
}

TEST_CASE("k = 0 gives D = beta * C, or zeros without C") {
    Rng rng = rng_for("gemm k=0");
    // Odd sizes and a padded C, and 16-byte rows that the TMA families take (they describe no
    // operand of k = 0); 8-bit inputs too, B MN-major (row-major NN), which no 8-bit kernel reads.
    for (bool aligned : {false, true})
        for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
            for (asyncgemm_dtype_t type_ab : {ASYNCGEMM_R_16F, ASYNCGEMM_R_8F_E4M3})
            for (asyncgemm_dtype_t type_cd : kDtypes)
                for (CSource source : {CSource::Buffer, CSource::SameAsD, CSource::Null}) {
                    GemmCase c;
                    c.algo = algo;
                    c.type_ab = type_ab;
                    c.type_cd = type_cd;
                    c.m = aligned ? 64 : 33;
                    c.n = aligned ? 64 : 17;
                    c.k = 0;
                    c.ldc_pad = aligned ? 0 : 3;
                    c.aligned16 = aligned;
                    c.c_source = source;
                    c.beta = source == CSource::Null ? 0.0f : -0.75f;
                    bool refused = false;
                    CHECK(run_gemm(test_env().handle, c, rng, nullptr, ASYNCGEMM_MATH_DEFAULT, &refused) == "");
                    // With 16-bit inputs and 16-byte rows every algorithm serves it: no operand is read.
                    if (aligned && type_ab == ASYNCGEMM_R_16F) CHECK_MESSAGE(!refused, algo_name(algo) << " refused");
                }
}

TEST_CASE("alpha = 0 gives D = beta * C and reads neither A nor B") {
    Rng rng = rng_for("gemm alpha=0");
    // A and B hold NaN everywhere: a family that multiplies them, even by 0, leaves NaN in D.
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_dtype_t type_ab : {ASYNCGEMM_R_32F, ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF, ASYNCGEMM_R_8F_E4M3,
                                          ASYNCGEMM_R_8F_E5M2}) {
            GemmCase c;
            c.algo = algo;
            c.type_ab = type_ab;
            c.type_cd = element_size(type_ab) == 1 ? ASYNCGEMM_R_16BF : type_ab;  // 8-bit floats are inputs only
            c.m = 65;
            c.n = 31;
            c.k = 129;
            c.alpha = 0.0f;
            c.beta = 2.0f;
            c.c_source = CSource::Buffer;
            c.nan_operands = true;
            check_gemm(c, rng, nullptr);
        }
}

TEST_CASE("m = 0 or n = 0 succeeds and leaves D untouched") {
    Rng rng = rng_for("gemm empty");
    constexpr int64_t kShapes[][3] = {{0, 17, 33}, {17, 0, 33}, {0, 0, 0}, {0, 5, 0}};
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (const auto &shape : kShapes)
            for (int64_t batches : {1, 3}) {
                GemmCase c;
                c.algo = algo;
                c.m = shape[0];
                c.n = shape[1];
                c.k = shape[2];
                c.batch_count = batches;
                c.batched_api = batches > 1;
                c.c_source = CSource::Buffer;
                c.beta = 1.0f;
                check_gemm(c, rng, nullptr);  // verify() requires every element of D to keep its poison
            }
}

TEST_CASE("beta = 0 lets no NaN from D or C into the result") {
    Rng rng = rng_for("gemm beta=0");
    // D always starts as NaN; with CSource::NanBuffer C is NaN too, and must not be read.
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_dtype_t type_ab : kDtypes)
            for (CSource source : {CSource::Null, CSource::NanBuffer}) {
                GemmCase c;
                c.algo = algo;
                c.type_ab = type_ab;
                c.type_cd = type_ab;
                c.m = 129;
                c.n = 65;
                c.k = 63;
                c.c_source = source;
                c.beta = 0.0f;
                check_gemm(c, rng, nullptr);
            }
}

TEST_CASE("C == D in place") {
    Rng rng = rng_for("gemm in place");
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_dtype_t type_cd : kDtypes)
            for (asyncgemm_order_t order : kOrders) {
                GemmCase c = random_gemm_case(rng, 200);
                c.algo = algo;
                c.type_ab = ASYNCGEMM_R_16BF;
                c.type_cd = type_cd;
                c.order = order;
                c.c_source = CSource::SameAsD;
                c.beta = 1.0f;
                c.broadcast_c = false;
                check_gemm(c, rng, nullptr);
            }
}

TEST_CASE("unaligned base pointers and odd leading dimensions everywhere") {
    Rng rng = rng_for("gemm unaligned");
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_dtype_t type_ab : kDtypes)
            for (asyncgemm_op_t op_a : kOps) {
                GemmCase c;
                c.algo = algo;
                c.type_ab = type_ab;
                c.type_cd = type_ab;
                c.order = op_a == ASYNCGEMM_OP_N ? ASYNCGEMM_ORDER_ROW : ASYNCGEMM_ORDER_COL;
                c.op_a = op_a;
                c.op_b = op_a == ASYNCGEMM_OP_N ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
                c.m = 127;
                c.n = 129;
                c.k = 65;
                c.lda_pad = 1;
                c.ldb_pad = 3;
                c.ldc_pad = 5;
                c.ldd_pad = 7;
                c.offset_a = c.offset_b = c.offset_c = c.offset_d = true;
                c.c_source = CSource::Buffer;
                c.beta = 0.5f;
                check_gemm(c, rng, nullptr);
            }
}

TEST_CASE("strided batches with stride-0 broadcast of A, B or C") {
    Rng rng = rng_for("gemm batches");
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (int broadcast = 0; broadcast < 8; ++broadcast) {  // every subset of {A, B, C}
            GemmCase c;
            c.algo = algo;
            c.type_ab = broadcast % 2 ? ASYNCGEMM_R_16F : ASYNCGEMM_R_32F;
            c.type_cd = ASYNCGEMM_R_32F;
            c.order = broadcast % 3 ? ASYNCGEMM_ORDER_ROW : ASYNCGEMM_ORDER_COL;
            c.op_a = broadcast % 4 < 2 ? ASYNCGEMM_OP_N : ASYNCGEMM_OP_T;
            c.m = 31 + broadcast;
            c.n = 47;
            c.k = 19;
            c.batch_count = 5;
            c.batched_api = true;
            c.batch_gap = broadcast % 2 ? 0 : 11;
            c.broadcast_a = broadcast & 1;
            c.broadcast_b = broadcast & 2;
            c.broadcast_c = broadcast & 4;
            c.c_source = CSource::Buffer;
            c.beta = -1.0f;
            check_gemm(c, rng, nullptr);
        }
}

TEST_CASE("more batches than a launch grid's z dimension holds") {
    Rng rng = rng_for("gemm many batches");
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle)) {
        GemmCase c;
        c.algo = algo;
        c.m = 3;
        c.n = 2;
        c.k = 5;
        c.batch_count = 65535 + 4;
        c.batched_api = true;
        c.c_source = CSource::Buffer;
        c.beta = 1.0f;
        check_gemm(c, rng, nullptr);
    }
}

TEST_CASE("bigger problems and a long k") {
    Rng rng = rng_for("gemm big");
    Stream stream;
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle)) {
        GemmCase big;
        big.algo = algo;
        big.m = 515;
        big.n = 777;
        big.k = 1031;
        big.c_source = CSource::Buffer;
        big.beta = 1.0f;
        check_gemm(big, rng, stream.get());

        big.type_ab = ASYNCGEMM_R_16F;
        big.order = ASYNCGEMM_ORDER_COL;
        big.op_a = ASYNCGEMM_OP_T;
        check_gemm(big, rng, stream.get());

        GemmCase long_k;
        long_k.algo = algo;
        long_k.type_ab = ASYNCGEMM_R_16BF;
        long_k.op_b = ASYNCGEMM_OP_T;
        long_k.m = 65;
        long_k.n = 63;
        long_k.k = 4096;
        check_gemm(long_k, rng, stream.get());
    }
}

TEST_CASE("a persistent block's tiles in turn, each one's last stores during the next one's K loop") {
    // The Hopper kernels' held chunks (16-bit D of 64 x 256 warpgroup tiles): 40 batches of 2 x 2
    // tiles of 128 x 256, the second row and column ragged, are more tiles than an H100 has SMs, so
    // its heuristic takes 128 x 256 tiles and some blocks run two.  With one K block (k = 40) the
    // held chunks are stored after the next tile's loop, with four inside it.  The other algorithms
    // have their own tests of this size; the host reference is the cost here.
    Rng rng = rng_for("gemm tiles in turn");
    Stream stream;
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle)) {
        if (algo != ASYNCGEMM_ALGO_SM90_TMA_WGMMA && algo != ASYNCGEMM_ALGO_AUTO) continue;
        for (asyncgemm_dtype_t type : {ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF})
            for (int64_t k : {40, 200}) {
                GemmCase c;
                c.algo = algo;
                c.type_ab = c.type_cd = type;
                c.op_a = type == ASYNCGEMM_R_16F ? ASYNCGEMM_OP_N : ASYNCGEMM_OP_T;  // row order: m, n as they are
                c.m = 129;
                c.n = 257;
                c.k = k;
                c.batch_count = 40;
                c.batched_api = true;
                c.aligned16 = true;
                c.alpha = 1.25f;
                check_gemm(c, rng, stream.get());
            }
    }
}

TEST_CASE("split K: right, and the same bits on every run") {
    // Few output tiles and a long K: the PIPELINED heuristic splits K on any GPU with 8 SMs or more
    // (one 128 x 128 tile, 64 slices: 8 ranges); the other algorithms must be deterministic anyway.
    Rng rng = rng_for("gemm split-k");
    Stream stream;
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_dtype_t type_cd : kDtypes) {
            GemmCase c;
            c.algo = algo;
            c.type_ab = ASYNCGEMM_R_16F;
            c.type_cd = type_cd;
            c.m = 100;
            c.n = 120;
            c.k = 4096 + 33;
            c.op_b = ASYNCGEMM_OP_T;
            c.c_source = CSource::Buffer;
            c.alpha = 0.75f;
            c.beta = 0.5f;
            c.aligned16 = true;  // every algorithm can take it
            CAPTURE(c.describe());
            GemmProblem problem(c);
            problem.fill(rng, stream.get());
            REQUIRE(problem.launch(test_env().handle, stream.get()) == ASYNCGEMM_STATUS_SUCCESS);
            CHECK(problem.verify(stream.get(), ASYNCGEMM_MATH_DEFAULT) == "");
            const std::vector<unsigned char> first = problem.d_bytes(stream.get());
            for (int run = 0; run < 3; ++run) {
                // In place with beta != 0 would feed D back in: C is its own buffer here.
                REQUIRE(problem.launch(test_env().handle, stream.get()) == ASYNCGEMM_STATUS_SUCCESS);
                CHECK(problem.d_bytes(stream.get()) == first);
            }
        }
}

TEST_CASE("fused bias and activation: every bias mode, activation, D type and order") {
    // Every family computes D = act(alpha * A·B + beta * C + bias) once, in fp32, as AUTO does.
    Rng rng = rng_for("fused epilogues");
    Tally tally;
    const asyncgemm_dtype_t types[][2] = {{ASYNCGEMM_R_16BF, ASYNCGEMM_R_16BF}, {ASYNCGEMM_R_16F, ASYNCGEMM_R_32F},
                                          {ASYNCGEMM_R_16F, ASYNCGEMM_R_16F},   {ASYNCGEMM_R_32F, ASYNCGEMM_R_32F}};
    const asyncgemm_activation_t activations[] = {ASYNCGEMM_ACT_NONE, ASYNCGEMM_ACT_RELU, ASYNCGEMM_ACT_GELU_TANH,
                                                  ASYNCGEMM_ACT_GELU_ERF, ASYNCGEMM_ACT_SILU};
    // Every (family, order, bias, activation, D type); the op pair, alignment, bias type, C (none, its
    // own, D in place) and batches (a bias each or one for all) rotate independently of the type.
    int turn = 0;
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (asyncgemm_order_t order : {ASYNCGEMM_ORDER_ROW, ASYNCGEMM_ORDER_COL})
            for (asyncgemm_bias_t bias : {ASYNCGEMM_BIAS_NONE, ASYNCGEMM_BIAS_PER_ROW, ASYNCGEMM_BIAS_PER_COL})
                for (asyncgemm_activation_t activation : activations)
                    for (const auto &type : types) {
                        if (bias == ASYNCGEMM_BIAS_NONE && activation == ASYNCGEMM_ACT_NONE) continue;
                        ++turn;
                        GemmCase c;
                        c.algo = algo;
                        c.order = order;
                        c.type_ab = type[0], c.type_cd = type[1];
                        c.op_a = turn / 4 % 2 ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
                        c.op_b = turn / 8 % 2 ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
                        c.m = uniform(rng, 1, 160), c.n = uniform(rng, 1, 160), c.k = uniform(rng, 1, 200);
                        c.aligned16 = turn % 3 != 0;
                        c.bias_mode = bias, c.activation = activation;
                        c.bias_f32 = turn % 5 < 2;
                        c.alpha = 0.75f;
                        if (turn / 4 % 3 == 1) c.c_source = CSource::Buffer, c.beta = -0.5f;
                        if (turn / 4 % 3 == 2) c.c_source = CSource::SameAsD, c.beta = 1.0f;
                        if (turn % 7 == 0) {
                            c.batch_count = 3, c.batched_api = true;
                            c.broadcast_bias = turn % 14 == 0;
                        }
                        check_gemm(c, rng, nullptr, &tally);
                    }
    // Split K (few tiles, long K), the skinny family (a side of 1 to 16 columns), alpha = 0 and k = 0
    // (D = act(beta * C + bias)), each through AUTO.
    GemmCase split;
    split.type_ab = split.type_cd = ASYNCGEMM_R_16BF;
    split.m = 100, split.n = 70, split.k = 3100;
    split.bias_mode = ASYNCGEMM_BIAS_PER_COL, split.activation = ASYNCGEMM_ACT_GELU_TANH;
    GemmCase skinny = split;
    skinny.m = 5, skinny.n = 900, skinny.k = 1000, skinny.op_b = ASYNCGEMM_OP_T, skinny.aligned16 = true;
    skinny.bias_mode = ASYNCGEMM_BIAS_PER_ROW, skinny.bias_f32 = true, skinny.activation = ASYNCGEMM_ACT_SILU;
    GemmCase skinny_n = skinny;  // a small n: the large operand is A
    skinny_n.m = 900, skinny_n.n = 12, skinny_n.op_a = ASYNCGEMM_OP_N, skinny_n.op_b = ASYNCGEMM_OP_T;
    skinny_n.bias_mode = ASYNCGEMM_BIAS_PER_COL, skinny_n.activation = ASYNCGEMM_ACT_RELU;
    GemmCase no_product = split;
    no_product.alpha = 0.0f, no_product.c_source = CSource::Buffer, no_product.beta = 2.0f;
    no_product.nan_operands = true;
    GemmCase no_k = no_product;
    no_k.alpha = 1.0f, no_k.k = 0, no_k.nan_operands = false, no_k.activation = ASYNCGEMM_ACT_GELU_ERF;
    // Tiles of every chunk and a ragged edge, more tiles than SMs: f16 D with a bias per row, f32 D
    // with C, a batch with its own bias each.
    GemmCase large;
    large.type_ab = large.type_cd = ASYNCGEMM_R_16F;
    large.m = 1500, large.n = 2000 + 13, large.k = 700, large.op_b = ASYNCGEMM_OP_T;
    large.bias_mode = ASYNCGEMM_BIAS_PER_ROW, large.activation = ASYNCGEMM_ACT_GELU_ERF, large.aligned16 = true;
    GemmCase large_c = large;
    large_c.type_ab = ASYNCGEMM_R_16BF, large_c.type_cd = ASYNCGEMM_R_32F, large_c.n = 2048;
    large_c.c_source = CSource::Buffer, large_c.beta = 0.25f;
    large_c.bias_mode = ASYNCGEMM_BIAS_PER_COL, large_c.activation = ASYNCGEMM_ACT_SILU;
    GemmCase large_batch = large;
    large_batch.m = 512, large_batch.n = 768, large_batch.batch_count = 3, large_batch.batched_api = true;
    large_batch.type_cd = ASYNCGEMM_R_16BF, large_batch.type_ab = ASYNCGEMM_R_16BF, large_batch.aligned16 = true;
    large_batch.bias_mode = ASYNCGEMM_BIAS_PER_COL, large_batch.activation = ASYNCGEMM_ACT_GELU_TANH;
    for (const GemmCase &c : {split, skinny, skinny_n, no_product, no_k, large, large_c, large_batch})
        check_gemm(c, rng, nullptr, &tally);
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle)) {
        const int ran = tally.ran.count(algo) ? tally.ran.at(algo) : 0;
        const int refused = tally.refused.count(algo) ? tally.refused.at(algo) : 0;
        MESSAGE(algo_name(algo) << " ran " << ran << " fused cases, refused " << refused);
        CHECK(ran > 0);
    }
}

TEST_CASE("fused activations on the GPU at the extremes: infinities, NaN, huge and tiny values") {
    // D = act(A·B + bias) with A·B = 1 everywhere (A = 1, B = 1/8, k = 8) and f32 D: each column's
    // bias puts one extreme value into the activation, through every algorithm and AUTO (here the
    // skinny family).  asyncgemm.h (asyncgemm_activation_t): act(+inf) = +inf, act(-inf) = 0 (ReLU
    // +0, the others -0), NaN stays NaN; finite values as the textbook forms in double precision,
    // within 1e-4 relative (the device's exp and division are approximate) or 1e-30 absolute (fp32
    // flushes what is smaller).
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const std::vector<float> biases = {-kInf, kInf, std::nanf(""), -3e38f, 3e38f, -1e30f, 1e30f, -101.0f,
                                       -21.0f, -6.0f, -2.0f, -1.0f, 0.0f, 4.0f, 19.0f, 99.0f};
    const int64_t m = 2, n = static_cast<int64_t>(biases.size()), k = 8;
    Stream stream;
    asyncgemm_handle_t handle = test_env().handle;
    HostArray a(ASYNCGEMM_R_16F, static_cast<size_t>(m * k)), b(ASYNCGEMM_R_16F, static_cast<size_t>(k * n));
    HostArray bias(ASYNCGEMM_R_32F, biases.size());
    for (size_t i = 0; i < a.count(); ++i) a.set(i, 1.0f);
    for (size_t i = 0; i < b.count(); ++i) b.set(i, 0.125f);
    for (size_t i = 0; i < biases.size(); ++i) bias.set(i, biases[i]);
    DeviceBuffer a_device(a.bytes()), b_device(b.bytes()), bias_device(bias.bytes());
    a_device.upload(a.data(), stream.get());
    b_device.upload(b.data(), stream.get());
    bias_device.upload(bias.data(), stream.get());
    const auto expected = [](double x, asyncgemm_activation_t activation) {
        if (std::isinf(x)) return x > 0 ? x : activation == ASYNCGEMM_ACT_RELU ? 0.0 : -0.0;
        switch (activation) {
        case ASYNCGEMM_ACT_RELU: return x < 0 ? 0 : x;
        case ASYNCGEMM_ACT_GELU_TANH: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
        case ASYNCGEMM_ACT_GELU_ERF: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
        case ASYNCGEMM_ACT_SILU: return x / (1 + std::exp(-x));
        case ASYNCGEMM_ACT_NONE: break;
        }
        return x;
    };
    for (asyncgemm_algo_t algo : available_gemm_algos(handle))
        for (asyncgemm_activation_t activation : {ASYNCGEMM_ACT_RELU, ASYNCGEMM_ACT_GELU_TANH, ASYNCGEMM_ACT_GELU_ERF,
                                                  ASYNCGEMM_ACT_SILU}) {
            INFO(algo_name(algo) << ", activation " << int(activation));
            HostArray d(ASYNCGEMM_R_32F, static_cast<size_t>(m * n));
            DeviceBuffer d_device(d.bytes());
            d_device.upload(d.data(), stream.get());
            asyncgemm_matmul_desc_t desc;
            asyncgemm_matmul_desc_init(&desc);
            desc.order = ASYNCGEMM_ORDER_ROW;
            desc.m = m, desc.n = n, desc.k = k;
            desc.a = a_device.get(), desc.type_a = ASYNCGEMM_R_16F, desc.lda = k;
            desc.b = b_device.get(), desc.type_b = ASYNCGEMM_R_16F, desc.ldb = n;
            desc.d = d_device.get(), desc.type_d = desc.type_c = ASYNCGEMM_R_32F, desc.ldd = desc.ldc = n;
            desc.bias_mode = ASYNCGEMM_BIAS_PER_COL, desc.bias = bias_device.get(), desc.type_bias = ASYNCGEMM_R_32F;
            desc.activation = activation;
            desc.algo = algo;
            const asyncgemm_status_t status = asyncgemm_matmul(handle, &desc, stream.get());
            d_device.download(d.data(), stream.get());
            cuda_check(cudaStreamSynchronize(stream.get()), "the fused product");
            if (algo != ASYNCGEMM_ALGO_AUTO && status != ASYNCGEMM_STATUS_SUCCESS) {
                CHECK((status == ASYNCGEMM_STATUS_NOT_SUPPORTED || status == ASYNCGEMM_STATUS_MISALIGNED));
                continue;
            }
            REQUIRE_MESSAGE(status == ASYNCGEMM_STATUS_SUCCESS, asyncgemm_last_error());
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) {
                    const double x = double(1.0f + biases[static_cast<size_t>(j)]);
                    const double want = expected(x, activation);
                    const double got = d.value(static_cast<size_t>(i * n + j));
                    CAPTURE(x);
                    CAPTURE(got);
                    CAPTURE(want);
                    if (std::isnan(want)) {
                        CHECK(std::isnan(got));
                    } else if (std::isinf(want) || want == 0.0) {
                        CHECK(got == want);
                        if (std::isinf(x)) CHECK(std::signbit(got) == std::signbit(want));
                    } else {
                        CHECK(std::abs(got - want) <= 1e-4 * std::abs(want) + 1e-30);
                    }
                }
        }
}

TEST_CASE("TF32 math mode: wgmma and mma.sync run K-major f32 inputs as tf32, and refuse them otherwise") {
    asyncgemm_handle_t handle = nullptr;
    REQUIRE(asyncgemm_create(&handle) == ASYNCGEMM_STATUS_SUCCESS);
    Rng rng = rng_for("gemm tf32 k-major");
    // Neither wgmma nor ldmatrix transposes 32-bit elements: MN-major f32 operands are refused.
    for (asyncgemm_algo_t algo : {ASYNCGEMM_ALGO_SM90_TMA_WGMMA, ASYNCGEMM_ALGO_PIPELINED, ASYNCGEMM_ALGO_ASYNC_COPY}) {
        int available = 0;
        REQUIRE(asyncgemm_algo_available(handle, algo, &available) == ASYNCGEMM_STATUS_SUCCESS);
        if (available == 0) continue;
        for (asyncgemm_math_t math : {ASYNCGEMM_MATH_TF32, ASYNCGEMM_MATH_DEFAULT})
            for (asyncgemm_op_t op_b : kOps) {
                REQUIRE(asyncgemm_set_math_mode(handle, math) == ASYNCGEMM_STATUS_SUCCESS);
                GemmCase c;
                c.algo = algo;
                c.m = 200;
                c.n = 136;
                c.k = 300;
                c.op_b = op_b;  // row-major: A K-major; B K-major for OP_T only
                c.aligned16 = true;
                c.c_source = CSource::Buffer;
                c.beta = 0.5f;
                CAPTURE(c.describe());
                bool refused = false;
                CHECK(run_gemm(handle, c, rng, nullptr, math, &refused) == "");
                CHECK(refused == !(math == ASYNCGEMM_MATH_TF32 && op_b == ASYNCGEMM_OP_T));
            }
    }
    CHECK(asyncgemm_destroy(handle) == ASYNCGEMM_STATUS_SUCCESS);
}

// Case i of an 8-bit sweep: random, in any order and ops; cases 0-2 in the form the 8-bit kernels read
// (K-major: row-major op N and T; 16-byte rows), case 0 with more K blocks than the ring's stages.
static GemmCase eight_bit_case(Rng &rng, asyncgemm_algo_t algo, asyncgemm_dtype_t type_ab, asyncgemm_dtype_t type_cd, int i) {
    GemmCase c = random_gemm_case(rng, 300);
    c.algo = algo;
    c.type_ab = type_ab;
    c.type_cd = type_cd;
    c.order = pick(rng, kOrders);
    c.op_a = pick(rng, kOps);
    c.op_b = pick(rng, kOps);
    if (i < 3) {
        c.order = ASYNCGEMM_ORDER_ROW, c.op_a = ASYNCGEMM_OP_N, c.op_b = ASYNCGEMM_OP_T;
        c.aligned16 = true;
        c.offset_a = c.offset_b = c.offset_c = c.offset_d = false;
    }
    if (i == 0) c.m = 1000, c.n = 520, c.k = 1040;
    return c;
}

// Every available algorithm, pair of 8-bit input types (e4m3 and e5m2 alike, and e4m3 by e5m2) and D
// type, each with `cases` cases of eight_bit_case (seeded by `seed`), given their scales by
// `scale(c, i, rng)` and checked.
static void check_eight_bit_sweep(const char *seed, int cases,
                                  const std::function<void(GemmCase &, int, Rng &)> &scale) {
    Rng rng = rng_for(seed);
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (const auto &[type_a, type_b] : {std::pair{ASYNCGEMM_R_8F_E4M3, ASYNCGEMM_R_8F_E4M3},
                                             std::pair{ASYNCGEMM_R_8F_E5M2, ASYNCGEMM_R_8F_E5M2},
                                             std::pair{ASYNCGEMM_R_8F_E4M3, ASYNCGEMM_R_8F_E5M2}})
            for (asyncgemm_dtype_t type_cd : kDtypes)
                for (int i = 0; i < cases; ++i) {
                    GemmCase c = eight_bit_case(rng, algo, type_a, type_cd, i);
                    if (type_b != type_a) c.type_b = type_b;
                    scale(c, i, rng);
                    CAPTURE(c.describe());
                    check_gemm(c, rng, nullptr);
                }
}

TEST_CASE("8-bit float inputs: e4m3 and e5m2 with tensor scales, every algorithm, any majors") {
    // On Hopper (Blackwell), AUTO and SM90_TMA_WGMMA (SM100_TCGEN05: of one format) multiply K-major
    // 16-byte rows with the 8-bit kernels (on Hopper also K-major 8-bit copies of a lone MN-major
    // operand: plan/sm90_copies.h), SIMT with its own, every other case on f16 copies
    // (plan/widened_inputs.h).  A forced algorithm may refuse (SM90_TMA_WGMMA a D that TMA cannot
    // describe, SM100_TCGEN05 an MN-major operand or two formats), leaving D untouched; AUTO never
    // does.
    check_eight_bit_sweep("gemm fp8", 6, [](GemmCase &c, int i, Rng &rng) {
        if (i == 1) c.k = 1 + uniform(rng, 0, 127);  // one partial K block
        static constexpr float kScales[] = {0.0f, 1.0f, 0.5f, 3.0f};
        c.scale_a = pick(rng, kScales);
        c.scale_b = pick(rng, kScales);
    });
}

TEST_CASE("8-bit float inputs: a NaN reaches its row of D, and sums past D's range are infinite") {
    // asyncgemm.h (ASYNCGEMM_R_8F_E4M3): NaN inputs give NaN; D is rounded to its type as any sum is,
    // so a sum past f16's largest finite value is +inf there (nothing saturates), finite in bf16 and
    // f32.  Both formats' NaN pattern 0x7F; e4m3's largest finite 448 (0x7E).  Every algorithm,
    // K-major B (row-major A·Bᵀ: Hopper's 8-bit kernels) and MN-major B (an 8-bit copy, widened or SIMT).
    const int64_t m = 130, n = 144, k = 160;
    Stream stream;
    asyncgemm_handle_t handle = test_env().handle;
    const auto run = [&](asyncgemm_algo_t algo, asyncgemm_dtype_t type_a, asyncgemm_dtype_t type_b, bool b_k_major,
                         asyncgemm_dtype_t type_d, const HostArray &a, const HostArray &b, HostArray &d) {
        DeviceBuffer a_device(a.bytes()), b_device(b.bytes()), d_device(d.bytes());
        a_device.upload(a.data(), stream.get());
        b_device.upload(b.data(), stream.get());
        d_device.upload(d.data(), stream.get());
        asyncgemm_matmul_desc_t desc;
        asyncgemm_matmul_desc_init(&desc);
        desc.order = ASYNCGEMM_ORDER_ROW;
        desc.op_a = ASYNCGEMM_OP_N;
        desc.op_b = b_k_major ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
        desc.m = m, desc.n = n, desc.k = k;
        desc.a = a_device.get(), desc.type_a = type_a, desc.lda = k;
        desc.b = b_device.get(), desc.type_b = type_b, desc.ldb = b_k_major ? k : n;
        desc.d = d_device.get(), desc.type_d = desc.type_c = type_d, desc.ldd = desc.ldc = n;
        desc.algo = algo;
        const asyncgemm_status_t status = asyncgemm_matmul(handle, &desc, stream.get());
        d_device.download(d.data(), stream.get());
        cuda_check(cudaStreamSynchronize(stream.get()), "the 8-bit product");
        return status;
    };
    int ran = 0;
    for (asyncgemm_algo_t algo : available_gemm_algos(handle))
        for (const auto &[type_a, type_b] : {std::pair{ASYNCGEMM_R_8F_E4M3, ASYNCGEMM_R_8F_E4M3},
                                            std::pair{ASYNCGEMM_R_8F_E5M2, ASYNCGEMM_R_8F_E4M3}})
            for (bool b_k_major : {true, false}) {
                // Named outside INFO's lambda, which cannot capture structured bindings before C++20.
                const std::string what = std::string(algo_name(algo)) + ", A " + dtype_name(type_a) + ", B " +
                                         dtype_name(type_b) + (b_k_major ? " K-major" : " MN-major");
                INFO(what);
                // A = 1 and B = 0.5 everywhere but a NaN at A(5, 0): row 5 of D is NaN, the rest k / 2.
                HostArray a(type_a, static_cast<size_t>(m * k)), b(type_b, static_cast<size_t>(k * n));
                for (size_t i = 0; i < a.count(); ++i) a.set(i, 1.0f);
                for (size_t i = 0; i < b.count(); ++i) b.set(i, 0.5f);
                a.set_bits(static_cast<size_t>(5 * k), 0x7F);
                HostArray d(ASYNCGEMM_R_16F, static_cast<size_t>(m * n));
                const asyncgemm_status_t status = run(algo, type_a, type_b, b_k_major, ASYNCGEMM_R_16F, a, b, d);
                if (algo != ASYNCGEMM_ALGO_AUTO && status != ASYNCGEMM_STATUS_SUCCESS) {
                    CHECK((status == ASYNCGEMM_STATUS_NOT_SUPPORTED || status == ASYNCGEMM_STATUS_MISALIGNED));
                    continue;
                }
                REQUIRE_MESSAGE(status == ASYNCGEMM_STATUS_SUCCESS, asyncgemm_last_error());
                ++ran;
                int nan_row = 0, exact_elsewhere = 0;
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t j = 0; j < n; ++j) {
                        const double value = d.value(static_cast<size_t>(i * n + j));
                        if (i == 5) nan_row += std::isnan(value);
                        else exact_elsewhere += value == 0.5 * k;
                    }
                CHECK(nan_row == n);
                CHECK(exact_elsewhere == (m - 1) * n);
                // A and B at e4m3's largest finite value: each sum 448 * 448 * k = 32,112,640.
                if (type_a != ASYNCGEMM_R_8F_E4M3) continue;
                for (size_t i = 0; i < a.count(); ++i) a.set_bits(i, 0x7E);
                for (size_t i = 0; i < b.count(); ++i) b.set_bits(i, 0x7E);
                for (asyncgemm_dtype_t type_d : {ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF, ASYNCGEMM_R_32F}) {
                    HostArray large(type_d, static_cast<size_t>(m * n));
                    REQUIRE(run(algo, type_a, type_b, b_k_major, type_d, a, b, large) == ASYNCGEMM_STATUS_SUCCESS);
                    int expected = 0;
                    for (size_t i = 0; i < large.count(); ++i) {
                        const double value = large.value(i);
                        expected += type_d == ASYNCGEMM_R_16F ? std::isinf(value) && value > 0
                                                              : std::abs(value - 32112640.0) <= 32112640.0 * 4e-3;
                    }
                    CHECK_MESSAGE(expected == m * n, "D " << dtype_name(type_d));
                }
            }
    CHECK(ran > 0);
}

TEST_CASE("8-bit float inputs of the two formats: e4m3 by e5m2 and e5m2 by e4m3, every algorithm, any majors") {
    // SIMT reads the two formats itself, SM90_TMA_WGMMA (and AUTO on Hopper) with its 8-bit kernels
    // where A and B are K-major 16-byte rows (on Hopper also on K-major 8-bit copies of a lone
    // MN-major operand); every other case runs on f16 copies of A and B (plan/widened_inputs.h), so
    // none refuses but SM100_TCGEN05 (which multiplies one format) and
    // SM90_TMA_WGMMA where TMA cannot describe C or D (never in the K-major aligned cases 0-2); a
    // refusal leaves D untouched.  (The scaled sweeps below take e4m3 by e5m2 too.)
    Rng rng = rng_for("gemm fp8 two formats");
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle))
        for (const auto &[type_a, type_b] : {std::pair{ASYNCGEMM_R_8F_E4M3, ASYNCGEMM_R_8F_E5M2},
                                             std::pair{ASYNCGEMM_R_8F_E5M2, ASYNCGEMM_R_8F_E4M3}})
            for (asyncgemm_dtype_t type_cd : kDtypes)
                for (int i = 0; i < 4; ++i) {
                    GemmCase c = eight_bit_case(rng, algo, type_a, type_cd, i);
                    c.type_b = type_b;
                    if (i == 1) c.k = 1 + uniform(rng, 0, 127);  // one partial K block
                    static constexpr float kScales[] = {0.0f, 1.0f, 0.5f, 3.0f};
                    c.scale_a = pick(rng, kScales);
                    c.scale_b = pick(rng, kScales);
                    CAPTURE(c.describe());
                    bool refused = false;
                    CHECK(run_gemm(test_env().handle, c, rng, nullptr, ASYNCGEMM_MATH_DEFAULT, &refused) == "");
                    if (refused) {
                        CHECK((algo == ASYNCGEMM_ALGO_SM100_TCGEN05 || algo == ASYNCGEMM_ALGO_SM90_TMA_WGMMA));
                        CHECK((algo == ASYNCGEMM_ALGO_SM100_TCGEN05 || i >= 3));
                    }
                }
}

TEST_CASE("8-bit float inputs with block scales: 1x128 and 128x128 on either operand, every algorithm, any majors") {
    // SIMT applies any block scales as it loads the inputs; SM90_TMA_WGMMA (and AUTO on Hopper) to
    // K-major 16-byte rows, of either format each, where the canonical B's are per 128 columns; the
    // other algorithms refuse, leaving D untouched, and AUTO never does.  The first cases take the
    // Hopper kernels' form.
    check_eight_bit_sweep("gemm fp8 block scales", 6, [](GemmCase &c, int i, Rng &rng) {
        constexpr asyncgemm_scale_t kBlockModes[] = {ASYNCGEMM_SCALE_BLOCK_1x128, ASYNCGEMM_SCALE_BLOCK_128x128};
        c.block_a = pick(rng, kBlockModes);
        c.block_b = pick(rng, kBlockModes);
        // y = x·Wᵀ with x per row and W per 128 x 128 block, in the 8-bit kernels' form.
        if (i < 3) c.block_a = ASYNCGEMM_SCALE_BLOCK_1x128, c.block_b = ASYNCGEMM_SCALE_BLOCK_128x128;
        if (i == 1) c.k = 1 + uniform(rng, 0, 127);  // one partial K block
        if (i == 3) c.block_a = ASYNCGEMM_SCALE_NONE, c.scale_a = 0.5f;  // a tensor scale beside
    });
}

TEST_CASE("8-bit float inputs with MX scales: every algorithm, any majors, partial K blocks, batches") {
    // SIMT applies them as it loads the inputs, SM100_TCGEN05 (and AUTO on Blackwell) in its
    // block-scaled MMAs where the operands are K-major with 16-byte rows of one format; the other
    // algorithms refuse,
    // leaving D untouched, and AUTO never does.  The first cases take the tcgen05 kernels' form.
    check_eight_bit_sweep("gemm fp8 mx scales", 5, [](GemmCase &c, int i, Rng &rng) {
        c.block_a = c.block_b = ASYNCGEMM_SCALE_MX_32;
        if (i == 1) c.k = 1 + uniform(rng, 0, 31);  // one partial K block of 32
    });
}

TEST_CASE("Blackwell matmul-accumulate: fp32 C enters the accumulator by tcgen05.cp, scaled by beta / alpha") {
    asyncgemm_handle_t handle = nullptr;
    REQUIRE(asyncgemm_create(&handle) == ASYNCGEMM_STATUS_SUCCESS);
    int available = 0;
    REQUIRE(asyncgemm_algo_available(handle, ASYNCGEMM_ALGO_SM100_TCGEN05, &available) == ASYNCGEMM_STATUS_SUCCESS);
    if (available == 0) MESSAGE("SM100_TCGEN05 does not run on this GPU (or failed its self-check): not tested");
    Rng rng = rng_for("gemm sm100 seed");
    struct Scale {
        float alpha, beta;
    };
    // Unscaled, scaled, in place (C == D: each tile's C is read before that tile is written), and a C
    // one element off 16 bytes that the epilogue adds instead; tails on every dimension, all four
    // majors, several K blocks.
    enum class Variant { Seeded, InPlace, EpilogueC };
    for (const Scale scale : {Scale{1.f, 1.f}, Scale{2.f, 0.5f}, Scale{-1.f, 3.f}})
        for (asyncgemm_op_t op_a : kOps)
            for (asyncgemm_op_t op_b : kOps)
                for (Variant variant : {Variant::Seeded, Variant::InPlace, Variant::EpilogueC}) {
                    if (available == 0) break;
                    GemmCase c;
                    c.algo = ASYNCGEMM_ALGO_SM100_TCGEN05;
                    c.type_ab = ASYNCGEMM_R_16F;
                    c.type_cd = ASYNCGEMM_R_32F;
                    c.m = 300;
                    c.n = 260;
                    c.k = 200;
                    c.op_a = op_a;
                    c.op_b = op_b;
                    c.aligned16 = true;
                    c.c_source = variant == Variant::InPlace ? CSource::SameAsD : CSource::Buffer;
                    c.offset_c = variant == Variant::EpilogueC;
                    c.alpha = scale.alpha;
                    c.beta = scale.beta;
                    CAPTURE(c.describe());
                    bool refused = false;
                    CHECK(run_gemm(handle, c, rng, nullptr, ASYNCGEMM_MATH_DEFAULT, &refused) == "");
                    CHECK_FALSE(refused);
                }
    CHECK(asyncgemm_destroy(handle) == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("TF32 math mode: within TF32 accuracy, and exact fp32 again after DEFAULT") {
    asyncgemm_handle_t handle = nullptr;
    REQUIRE(asyncgemm_create(&handle) == ASYNCGEMM_STATUS_SUCCESS);
    Rng rng = rng_for("gemm tf32");
    for (asyncgemm_math_t math : {ASYNCGEMM_MATH_TF32, ASYNCGEMM_MATH_DEFAULT}) {
        REQUIRE(asyncgemm_set_math_mode(handle, math) == ASYNCGEMM_STATUS_SUCCESS);
        // Every op pair: the tf32 wgmma path takes K-major operands only (row-major N·T, and T·N in
        // column-major order) and refuses the rest.
        for (asyncgemm_algo_t algo : available_gemm_algos(handle))
            for (asyncgemm_order_t order : kOrders)
                for (asyncgemm_op_t op_a : kOps)
                    for (asyncgemm_op_t op_b : kOps) {
                        GemmCase c = random_gemm_case(rng, 300);
                        c.algo = algo;
                        c.order = order;
                        c.op_a = op_a;
                        c.op_b = op_b;
                        check_gemm(c, rng, nullptr, nullptr, handle, math);
                    }
    }
    CHECK(asyncgemm_destroy(handle) == ASYNCGEMM_STATUS_SUCCESS);
}

}  // TEST_SUITE("gemm")
