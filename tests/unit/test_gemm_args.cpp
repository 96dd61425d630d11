// Argument checks and the canonical (row-major) form of GEMM calls: no GPU needed.
#include <doctest/doctest.h>

#include <string>

#include "common/error.h"
#include "plan/gemm_args.h"

using namespace asyncgemm;
using namespace asyncgemm::plan;

namespace {

// Fake device addresses: validation never dereferences them.
const void *at(uintptr_t address) { return reinterpret_cast<const void *>(address); }

// A valid row-major f32 call D(8x6) = A(8x4) B(4x6).
GemmArgs valid_call() {
    GemmArgs g;
    g.m = 8, g.n = 6, g.k = 4;
    g.a = at(0x100000), g.lda = 4;
    g.b = at(0x200000), g.ldb = 6;
    g.d = const_cast<void *>(at(0x300000)), g.ldd = 6;
    return g;
}

// The status and message validate() throws, or SUCCESS and "".
std::pair<asyncgemm_status_t, std::string> outcome(const GemmArgs &g) {
    try {
        validate(g);
        return {ASYNCGEMM_STATUS_SUCCESS, ""};
    } catch (const Error &e) {
        return {e.status(), e.what()};
    }
}

void check_refused(const GemmArgs &g, asyncgemm_status_t status, const char *names) {
    const auto [got, message] = outcome(g);
    CHECK(got == status);
    CHECK_MESSAGE(message.find(names) != std::string::npos, message);
}

}  // namespace

TEST_CASE("a valid call passes, and empty problems need no pointers") {
    CHECK(outcome(valid_call()).first == ASYNCGEMM_STATUS_SUCCESS);
    GemmArgs g = valid_call();
    g.m = 0, g.a = nullptr, g.b = nullptr, g.d = nullptr;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    CHECK(is_empty(g));
    g = valid_call();
    g.k = 0, g.a = nullptr, g.b = nullptr;  // D = beta*C: A and B are not read
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("each bad argument is named") {
    GemmArgs g = valid_call();
    g.m = -1;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "m must be");
    g = valid_call(), g.order = static_cast<asyncgemm_order_t>(5);
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "order");
    g = valid_call(), g.op_b = static_cast<asyncgemm_op_t>(7);
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "op_b");
    g = valid_call(), g.type_d = static_cast<asyncgemm_dtype_t>(9);
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "type_d");
    g = valid_call(), g.algo = static_cast<asyncgemm_algo_t>(-1);
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "algo");
    g = valid_call(), g.type_b = ASYNCGEMM_R_16F;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "type_b");
    g = valid_call(), g.lda = 3;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "lda");
    g = valid_call(), g.ldb = 5;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "ldb");
    g = valid_call(), g.ldd = 5;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "ldd");
    g = valid_call(), g.a = nullptr;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "a is NULL");
    g = valid_call(), g.d = nullptr;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "d is NULL");
    g = valid_call(), g.beta = 1.0f;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "c is NULL");
    // A missing C is named even where another matrix is misaligned.
    g = valid_call(), g.beta = 1.0f, g.d = const_cast<void *>(at(0x300002));
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "c is NULL");
    g = valid_call(), g.beta = 1.0f, g.a = at(0x200001);
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "c is NULL");
    g = valid_call(), g.b = at(0x200002);
    check_refused(g, ASYNCGEMM_STATUS_MISALIGNED, "b is not aligned");
    g = valid_call(), g.batch_count = -2;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "batch_count");
}

TEST_CASE("leading dimensions follow the order and the op") {
    GemmArgs g = valid_call();  // m=8 n=6 k=4
    g.order = ASYNCGEMM_ORDER_COL;
    g.lda = 8, g.ldb = 4, g.ldd = 8;  // column-major: ld >= rows
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.op_a = ASYNCGEMM_OP_T;  // stored A is k x m column-major: lda >= k
    g.lda = 4;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.lda = 3;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "lda (3) must be >= 4");
    g = valid_call(), g.op_b = ASYNCGEMM_OP_T;  // row-major stored B is n x k: ldb >= k
    g.ldb = 4;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("c may equal d only with the same leading dimension and stride") {
    GemmArgs g = valid_call();
    g.beta = 1.0f, g.c = g.d, g.ldc = 6;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.ldc = 7, g.ldd = 7;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.ldc = 8;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "ldc must equal ldd");
    g = valid_call(), g.beta = 1.0f, g.c = at(0x400000), g.ldc = 6, g.type_c = ASYNCGEMM_R_16F;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "type_c");
}

TEST_CASE("batches of D must not share elements; inputs may broadcast") {
    GemmArgs g = valid_call();  // one D spans (8-1)*6 + 6 = 48 elements
    g.batch_count = 3, g.stride_d = 48;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.stride_d = 47;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "stride_d");
    g.stride_d = 0;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "stride_d");
    g.stride_d = 48, g.stride_a = 0, g.stride_b = 0;  // A and B broadcast
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    // Batches side by side in one wider matrix: ldd = 3 * 6, stride 6 — no element shared.
    g.ldd = 18, g.stride_d = 6;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.stride_d = 5;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "stride_d");
    g = valid_call(), g.batch_count = 2, g.stride_d = 48, g.stride_a = -1;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "stride_a");
}

TEST_CASE("extents that overflow 64-bit byte offsets are refused") {
    GemmArgs g = valid_call();
    g.m = int64_t(1) << 40, g.ldd = int64_t(1) << 40, g.n = 6, g.lda = 4;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "overflows");
}

TEST_CASE("row-major calls are canonical as they are") {
    GemmArgs g = valid_call();
    g.op_a = ASYNCGEMM_OP_T, g.lda = 8;
    const GemmParams p = canonicalize(g);
    CHECK(p.m == 8);
    CHECK(p.n == 6);
    CHECK(p.a == g.a);
    CHECK(p.a_k_major == 0);  // A^T stored k x m: A(i,p) = a[p*lda + i]
    CHECK(p.b_k_major == 0);  // B stored k x n row-major
    CHECK(p.c == nullptr);    // beta == 0: C is never read
}

TEST_CASE("column-major calls swap the operands and m, n") {
    GemmArgs g = valid_call();
    g.order = ASYNCGEMM_ORDER_COL;
    g.lda = 8, g.ldb = 4, g.ldd = 8;
    GemmParams p = canonicalize(g);
    CHECK(p.m == 6);
    CHECK(p.n == 8);
    CHECK(p.a == g.b);
    CHECK(p.lda == 4);
    CHECK(p.b == g.a);
    CHECK(p.ldb == 8);
    CHECK(p.a_k_major == 1);  // column-major B (k x n): B^T(j,p) = b[j*ldb + p]
    CHECK(p.b_k_major == 0);  // column-major A (m x k): A^T(p,i) = a[p*lda + i]
    g.op_a = ASYNCGEMM_OP_T, g.op_b = ASYNCGEMM_OP_T;
    p = canonicalize(g);
    CHECK(p.a_k_major == 0);
    CHECK(p.b_k_major == 1);
}

TEST_CASE("8-bit A and B may be of the two formats, with any scales") {
    GemmArgs g = valid_call();
    g.lda = g.ldb = g.ldd = 16, g.k = 16, g.n = 16;  // 8-bit rows of 16 bytes
    g.type_a = ASYNCGEMM_R_8F_E4M3, g.type_b = ASYNCGEMM_R_8F_E5M2, g.type_c = g.type_d = ASYNCGEMM_R_16BF;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    // The canonical operands keep their types: column-major swaps them with the operands.
    GemmParams p = canonicalize(g);
    CHECK(p.type_ab == ASYNCGEMM_R_8F_E4M3);
    CHECK(p.type_b == ASYNCGEMM_R_8F_E5M2);
    CHECK(has_mixed_eight_bit_inputs(p));
    CHECK(b_dtype(p) == ASYNCGEMM_R_8F_E5M2);
    g.order = ASYNCGEMM_ORDER_COL, g.m = g.n = 16;
    p = canonicalize(g);
    CHECK(p.type_ab == ASYNCGEMM_R_8F_E5M2);
    CHECK(p.type_b == ASYNCGEMM_R_8F_E4M3);
    g.order = ASYNCGEMM_ORDER_ROW;
    alignas(16) static const float scale[4] = {1.f, 1.f, 1.f, 1.f};
    g.scale_mode_a = ASYNCGEMM_SCALE_TENSOR, g.scale_a = scale;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.scale_mode_b = ASYNCGEMM_SCALE_BLOCK_128x128, g.scale_b = scale;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    g.scale_mode_a = g.scale_mode_b = ASYNCGEMM_SCALE_MX_32;
    CHECK(outcome(g).first == ASYNCGEMM_STATUS_SUCCESS);
    // Any other pair of types must match.
    g = valid_call(), g.type_a = ASYNCGEMM_R_8F_E4M3, g.type_b = ASYNCGEMM_R_16F;
    check_refused(g, ASYNCGEMM_STATUS_INVALID_VALUE, "type_b (f16) must equal type_a (e4m3) unless both are 8-bit");
    // One format is not two.
    g = valid_call(), g.type_a = g.type_b = ASYNCGEMM_R_16BF;
    CHECK_FALSE(has_mixed_eight_bit_inputs(canonicalize(g)));
}
