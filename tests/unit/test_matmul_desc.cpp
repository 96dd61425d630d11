// asyncgemm_matmul's descriptor (version 0.2 of the C API): its size and unknown fields, its fields
// named "desc->...", the epilogue's and the scales' checks, and the version 0 calls as descriptors.
#include <doctest/doctest.h>

#include <string.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "kernels/common/block_scale.h"
#include "plan/gemm_args.h"
#include "plan/matmul_desc.h"

using namespace asyncgemm;
using namespace asyncgemm::plan;

namespace {

const void *at(uintptr_t address) { return reinterpret_cast<const void *>(address); }

// A valid row-major bf16 descriptor: D(8x6) = A(8x4) B(4x6).
asyncgemm_matmul_desc_t valid_desc() {
    asyncgemm_matmul_desc_t d = default_matmul_desc();
    d.m = 8, d.n = 6, d.k = 4;
    d.a = at(0x100000), d.type_a = ASYNCGEMM_R_16BF, d.lda = 4;
    d.b = at(0x200000), d.type_b = ASYNCGEMM_R_16BF, d.ldb = 6;
    d.d = const_cast<void *>(at(0x300000)), d.type_d = ASYNCGEMM_R_16BF, d.ldd = 6;
    return d;
}

// The status and message of the descriptor's checks and validate(), or SUCCESS and "".
std::pair<asyncgemm_status_t, std::string> outcome(const asyncgemm_matmul_desc_t *desc) {
    try {
        validate(matmul_args(desc));
        return {ASYNCGEMM_STATUS_SUCCESS, ""};
    } catch (const Error &e) {
        return {e.status(), e.what()};
    }
}

void check_refused(const asyncgemm_matmul_desc_t &desc, asyncgemm_status_t status, const char *text) {
    const auto [got, message] = outcome(&desc);
    CHECK(got == status);
    CHECK_MESSAGE(message.find(text) != std::string::npos, message);
}

// An e4m3 product with the scales of A and B of these modes, at these addresses.
asyncgemm_matmul_desc_t e4m3_desc(asyncgemm_scale_t mode_a, uintptr_t scale_a, asyncgemm_scale_t mode_b, uintptr_t scale_b) {
    asyncgemm_matmul_desc_t d = valid_desc();
    d.type_a = d.type_b = ASYNCGEMM_R_8F_E4M3;
    d.scale_mode_a = mode_a, d.scale_a = at(scale_a);
    d.scale_mode_b = mode_b, d.scale_b = at(scale_b);
    return d;
}

}  // namespace

TEST_CASE("matmul_desc: init sets struct_size, one batch, alpha 1 and AUTO, every other field zero") {
    const asyncgemm_matmul_desc_t d = default_matmul_desc();
    CHECK(d.struct_size == sizeof(asyncgemm_matmul_desc_t));
    CHECK(d.batch_count == 1);
    CHECK(d.alpha == 1.0f);
    CHECK(d.beta == 0.0f);
    CHECK(d.algo == ASYNCGEMM_ALGO_AUTO);
    CHECK(d.bias_mode == ASYNCGEMM_BIAS_NONE);
    CHECK(d.activation == ASYNCGEMM_ACT_NONE);
    CHECK(d.bias == nullptr);
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);  // m = n = 0: nothing to do
    CHECK(outcome(nullptr).first == ASYNCGEMM_STATUS_INVALID_VALUE);
}

TEST_CASE("matmul_desc: its fields become the call's arguments, named desc->") {
    asyncgemm_matmul_desc_t d = valid_desc();
    d.batch_count = 3, d.stride_a = 32, d.stride_b = 24, d.stride_d = 48;
    d.beta = 0.5f, d.c = at(0x400000), d.type_c = ASYNCGEMM_R_16BF, d.ldc = 6, d.stride_c = 0;
    const GemmArgs g = matmul_args(&d);
    CHECK(g.m == 8);
    CHECK(g.batch_count == 3);
    CHECK(g.stride_b == 24);
    CHECK(g.c == d.c);
    CHECK(g.beta == 0.5f);
    CHECK(std::string(g.names) == "desc->");
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    d.lda = 3;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->lda");
    d = valid_desc(), d.c = nullptr, d.beta = 1.0f;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->c is NULL but desc->beta != 0");
}

TEST_CASE("matmul_desc: a struct_size of no version, or fields this version does not know, are refused") {
    asyncgemm_matmul_desc_t d = valid_desc();
    d.struct_size = sizeof d - 8;  // an older, smaller descriptor than version 0.2's
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->struct_size");
    d.struct_size = 0;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->struct_size");
    d.struct_size = size_t{1} << 20;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->struct_size");
    // A later version's descriptor: its extra fields zero are accepted, non-zero refused.
    std::vector<unsigned char> later(sizeof d + 24, 0);
    asyncgemm_matmul_desc_t base = valid_desc();
    base.struct_size = later.size();
    memcpy(later.data(), &base, sizeof base);
    CHECK(outcome(reinterpret_cast<const asyncgemm_matmul_desc_t *>(later.data())).first == ASYNCGEMM_STATUS_SUCCESS);
    later[sizeof d + 5] = 1;
    const auto [status, message] = outcome(reinterpret_cast<const asyncgemm_matmul_desc_t *>(later.data()));
    CHECK(status == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK_MESSAGE(message.find("does not know") != std::string::npos, message);
}

TEST_CASE("matmul_desc: the epilogue's and the scales' fields are checked and named") {
    asyncgemm_matmul_desc_t d = valid_desc();
    d.bias_mode = static_cast<asyncgemm_bias_t>(3);
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->bias_mode: unknown value 3");
    d = valid_desc(), d.activation = static_cast<asyncgemm_activation_t>(9);
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->activation: unknown value 9");
    d = valid_desc(), d.scale_mode_b = static_cast<asyncgemm_scale_t>(5);
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->scale_mode_b");
    d = valid_desc(), d.bias_mode = ASYNCGEMM_BIAS_PER_COL;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->bias: NULL with bias_mode PER_COL");
    d.bias = at(0x500001), d.type_bias = ASYNCGEMM_R_32F;
    check_refused(d, ASYNCGEMM_STATUS_MISALIGNED, "desc->bias is not aligned");
    d.bias = at(0x500000), d.stride_bias = -1;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->stride_bias");
    d.stride_bias = 0, d.type_bias = static_cast<asyncgemm_dtype_t>(7);
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->type_bias");
    d.type_bias = ASYNCGEMM_R_16F;  // D is bf16: neither D's type nor f32
    check_refused(d, ASYNCGEMM_STATUS_NOT_SUPPORTED, "desc->type_bias");
    d = valid_desc(), d.scale_mode_a = ASYNCGEMM_SCALE_TENSOR;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->scale_mode_a: scales are for 8-bit inputs");
    d = valid_desc(), d.type_d = ASYNCGEMM_R_8F_E4M3;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->type_d: 8-bit floats are inputs only");
}

TEST_CASE("matmul_desc: a bias and an activation pass; 8-bit inputs with tensor scales pass, block scales are NOT_SUPPORTED") {
    asyncgemm_matmul_desc_t d = valid_desc();
    d.bias_mode = ASYNCGEMM_BIAS_PER_ROW, d.bias = at(0x500000), d.type_bias = ASYNCGEMM_R_32F;
    d.activation = ASYNCGEMM_ACT_GELU_TANH;
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    d.type_bias = ASYNCGEMM_R_16BF;  // D's type
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    d = valid_desc(), d.type_a = d.type_b = ASYNCGEMM_R_8F_E4M3;
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);  // no scales: 1
    d.scale_mode_a = ASYNCGEMM_SCALE_TENSOR;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->scale_a: NULL with scale_mode_a TENSOR");
    d.scale_a = at(0x600002);
    check_refused(d, ASYNCGEMM_STATUS_MISALIGNED, "desc->scale_a is not aligned to its 4-byte fp32");
    d.scale_a = at(0x600000), d.scale_mode_b = ASYNCGEMM_SCALE_TENSOR, d.scale_b = at(0x600004);
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    d.type_b = ASYNCGEMM_R_8F_E5M2;  // the two formats, with tensor scales
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    d.type_b = ASYNCGEMM_R_16BF;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE,
                  "desc->type_b (bf16) must equal desc->type_a (e4m3) unless both are 8-bit floats");
    d.type_b = ASYNCGEMM_R_8F_E4M3;
    d.scale_mode_b = ASYNCGEMM_SCALE_MX_32;
    check_refused(d, ASYNCGEMM_STATUS_MISALIGNED, "desc->scale_b is not aligned to 16 bytes (MX_32 scales)");
    d.scale_b = at(0x600010);
    check_refused(d, ASYNCGEMM_STATUS_NOT_SUPPORTED,
                  "desc->scale_mode_b (MX_32) and desc->scale_mode_a (TENSOR): MX_32 scales both 8-bit operands");
    d.scale_mode_a = ASYNCGEMM_SCALE_MX_32;
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    d.scale_mode_a = ASYNCGEMM_SCALE_TENSOR;
    d.scale_mode_b = ASYNCGEMM_SCALE_BLOCK_128x128, d.scale_b = nullptr;
    check_refused(d, ASYNCGEMM_STATUS_INVALID_VALUE, "desc->scale_b: NULL with scale_mode_b BLOCK_128x128");
    d.scale_b = at(0x600006);
    check_refused(d, ASYNCGEMM_STATUS_MISALIGNED, "desc->scale_b is not aligned to its 4-byte fp32 elements");
    d.scale_b = at(0x600004), d.scale_mode_a = ASYNCGEMM_SCALE_BLOCK_1x128;
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
    // Empty problems succeed whatever they ask of the epilogue, as they do of the matrices.
    d = valid_desc(), d.m = 0, d.activation = ASYNCGEMM_ACT_SILU;
    CHECK(outcome(&d).first == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("matmul_desc: tensor scales reach the canonical problem, swapped with A and B for column-major D") {
    asyncgemm_matmul_desc_t d = e4m3_desc(ASYNCGEMM_SCALE_TENSOR, 0x600000, ASYNCGEMM_SCALE_TENSOR, 0x600004);
    GemmParams p = canonicalize(matmul_args(&d));
    CHECK(p.type_ab == kE4M3);
    CHECK(p.scale_a == at(0x600000));
    CHECK(p.scale_b == at(0x600004));
    d.order = ASYNCGEMM_ORDER_COL;  // canonical A is the caller's B
    p = canonicalize(matmul_args(&d));
    CHECK(p.scale_a == at(0x600004));
    CHECK(p.scale_b == at(0x600000));
    d.scale_mode_b = ASYNCGEMM_SCALE_NONE;  // a pointer without its mode is not read
    p = canonicalize(matmul_args(&d));
    CHECK(p.scale_a == nullptr);
    CHECK(p.scale_b == at(0x600000));
}

TEST_CASE("matmul_desc: block scales reach the canonical problem with their granularity, not as tensor scales") {
    asyncgemm_matmul_desc_t d = e4m3_desc(ASYNCGEMM_SCALE_BLOCK_1x128, 0x600000, ASYNCGEMM_SCALE_BLOCK_128x128, 0x700000);
    GemmParams p = canonicalize(matmul_args(&d));
    CHECK(p.scale_a == nullptr);
    CHECK(p.scale_b == nullptr);
    CHECK(p.block_scale_a == at(0x600000));
    CHECK(p.block_rows_a == 1);
    CHECK(p.block_scale_b == at(0x700000));
    CHECK(p.block_cols_b == 128);
    d.order = ASYNCGEMM_ORDER_COL;  // canonical A is the caller's B, with its scales
    p = canonicalize(matmul_args(&d));
    CHECK(p.block_scale_a == at(0x700000));
    CHECK(p.block_rows_a == 128);
    CHECK(p.block_scale_b == at(0x600000));
    CHECK(p.block_cols_b == 1);
    d.scale_mode_b = ASYNCGEMM_SCALE_TENSOR;  // one operand's block scales beside the other's tensor scale
    p = canonicalize(matmul_args(&d));
    CHECK(p.scale_a == at(0x700000));
    CHECK(p.block_scale_a == nullptr);
    CHECK(p.block_scale_b == at(0x600000));
    d.alpha = 0.f;  // no product: no scale is read
    p = canonicalize(matmul_args(&d));
    CHECK(p.block_scale_b == nullptr);
    // One column of D: per column of B and per 128 columns are the same scales.
    d = e4m3_desc(ASYNCGEMM_SCALE_NONE, 0, ASYNCGEMM_SCALE_BLOCK_1x128, 0x700000), d.n = 1;
    p = canonicalize(matmul_args(&d));
    CHECK(p.block_cols_b == 128);
}

TEST_CASE("block scales: offsets K block by K block, rows or 128-row blocks within one") {
    // 1x128 over 300 rows and k = 300 (three K blocks, the last partial).
    CHECK(block_scale_count(300, 300, 1) == 900);
    CHECK(block_scale_offset(0, 0, 300, 1) == 0);
    CHECK(block_scale_offset(299, 0, 300, 1) == 299);
    CHECK(block_scale_offset(5, 2, 300, 1) == 605);
    // 128x128 over 300 rows: three row blocks per K block.
    CHECK(scale_blocks(300, 128) == 3);
    CHECK(block_scale_count(300, 300, 128) == 9);
    CHECK(block_scale_offset(127, 0, 300, 128) == 0);
    CHECK(block_scale_offset(128, 0, 300, 128) == 1);
    CHECK(block_scale_offset(299, 2, 300, 128) == 8);
    CHECK(block_scale_count(256, 128, 128) == 2);
    CHECK(block_scale_count(1, 1, 128) == 1);
}
