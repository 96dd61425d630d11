// Argument checks of every GEMM entry point (asyncgemm_matmul and its thin forms) that need no device.
#include <algorithm>
#include <string>

#include "common/error.h"
#include "kernels/common/mx_scale.h"
#include "plan/gemm_args.h"
#include "plan/matrix_extent.h"

namespace asyncgemm::plan {
namespace {

[[noreturn]] void invalid(const std::string &message) { fail(ASYNCGEMM_STATUS_INVALID_VALUE, message); }

// The types kernels read and write; the 8-bit ones are inputs only.
bool known_dtype(asyncgemm_dtype_t t) { return t == ASYNCGEMM_R_32F || t == ASYNCGEMM_R_16F || t == ASYNCGEMM_R_16BF; }

const char *scale_mode_name(asyncgemm_scale_t mode) {
    switch (mode) {
    case ASYNCGEMM_SCALE_NONE: return "NONE";
    case ASYNCGEMM_SCALE_TENSOR: return "TENSOR";
    case ASYNCGEMM_SCALE_BLOCK_1x128: return "BLOCK_1x128";
    case ASYNCGEMM_SCALE_BLOCK_128x128: return "BLOCK_128x128";
    case ASYNCGEMM_SCALE_MX_32: return "MX_32";
    }
    return "unknown";
}

const char *bias_mode_name(asyncgemm_bias_t mode) {
    return mode == ASYNCGEMM_BIAS_PER_ROW ? "PER_ROW" : mode == ASYNCGEMM_BIAS_PER_COL ? "PER_COL" : "NONE";
}

// The checks of one call, its arguments named as its entry point names them.
class Checks {
public:
    explicit Checks(const GemmArgs &args) : args_(args) {}

    std::string name(const std::string &field) const { return args_.names + field; }

    void known(bool ok, const char *field, int value) const {
        if (!ok) invalid(name(field) + ": unknown value " + std::to_string(value));
    }

    // One operand: its storage extent, leading dimension, alignment and batch stride.
    void matrix(const char *field, const void *ptr, asyncgemm_dtype_t type, int64_t ld, int64_t stride,
                bool stride_may_be_zero, asyncgemm_op_t op, int64_t rows, int64_t cols) const {
        const std::string ld_name = name(std::string("ld") + field);
        const std::string stride_name = name(std::string("stride_") + field);
        MatrixExtent e = storage_extent(args_.order, op, rows, cols, dtype_size(type));
        if (ld < std::max<int64_t>(1, e.contiguous))
            invalid(ld_name + " (" + std::to_string(ld) + ") must be >= " +
                    std::to_string(std::max<int64_t>(1, e.contiguous)) + " for this order, op and shape");
        e.ld = ld;
        if (reinterpret_cast<uintptr_t>(ptr) % e.elem_bytes != 0)
            fail(ASYNCGEMM_STATUS_MISALIGNED, name(field) + " is not aligned to its " + std::to_string(e.elem_bytes) +
                                                  "-byte elements");
        if (stride < 0) invalid(stride_name + " must be >= 0 (got " + std::to_string(stride) + ")");
        e.stride = stride;
        if (!e.fits(args_.batch_count)) invalid(name(field) + ": extent overflows 64-bit addressing");
        if (!stride_may_be_zero && batches_overlap(e, args_.batch_count))
            invalid(stride_name + " (" + std::to_string(stride) + ") makes the " + field +
                    " of different batches share elements");
    }

    // The bias vector of a bias mode other than NONE: `length` contiguous values a batch.
    void bias(int64_t length) const {
        const GemmArgs &a = args_;
        if (a.bias == nullptr)
            invalid(name("bias") + ": NULL with bias_mode " + bias_mode_name(a.bias_mode));
        if (reinterpret_cast<uintptr_t>(a.bias) % dtype_size(a.type_bias) != 0)
            fail(ASYNCGEMM_STATUS_MISALIGNED, name("bias") + " is not aligned to its " +
                                                  std::to_string(dtype_size(a.type_bias)) + "-byte elements");
        if (a.stride_bias < 0) invalid(name("stride_bias") + " must be >= 0 (got " + std::to_string(a.stride_bias) + ")");
        if (a.stride_bias != 0 && a.batch_count > 1 &&
            (a.stride_bias > INT64_MAX / (a.batch_count - 1) || (a.batch_count - 1) * a.stride_bias > INT64_MAX - length))
            invalid(name("bias") + ": extent overflows 64-bit addressing");
    }

    // An 8-bit operand's scale (`field` is "a" or "b"): a TENSOR scale is one fp32 in device memory,
    // the BLOCK modes fp32 arrays (kernels/common/block_scale.h), MX_32 bytes in 512-byte tiles that
    // cp.async.bulk copies (kernels/common/mx_scale.h).
    void scale(const char *field, asyncgemm_scale_t mode, const void *ptr) const {
        if (mode == ASYNCGEMM_SCALE_NONE) return;
        const std::string scale_name = name(std::string("scale_") + field);
        if (ptr == nullptr)
            invalid(scale_name + ": NULL with scale_mode_" + field + " " + scale_mode_name(mode));
        if (mode == ASYNCGEMM_SCALE_MX_32) {
            if (reinterpret_cast<uintptr_t>(ptr) % kMxScaleAlignment != 0)
                fail(ASYNCGEMM_STATUS_MISALIGNED, scale_name + " is not aligned to " + std::to_string(kMxScaleAlignment) +
                                                      " bytes (MX_32 scales)");
        } else if (reinterpret_cast<uintptr_t>(ptr) % 4 != 0) {
            fail(ASYNCGEMM_STATUS_MISALIGNED, scale_name + " is not aligned to its 4-byte fp32 elements");
        }
    }

private:
    const GemmArgs &args_;
};

}  // namespace

bool is_empty(const GemmArgs &args) { return args.m == 0 || args.n == 0 || args.batch_count == 0; }

void validate(const GemmArgs &args) {
    const Checks check(args);
    const auto name = [&](const char *field) { return check.name(field); };
    check.known(args.order == ASYNCGEMM_ORDER_ROW || args.order == ASYNCGEMM_ORDER_COL, "order", args.order);
    check.known(args.op_a == ASYNCGEMM_OP_N || args.op_a == ASYNCGEMM_OP_T, "op_a", args.op_a);
    check.known(args.op_b == ASYNCGEMM_OP_N || args.op_b == ASYNCGEMM_OP_T, "op_b", args.op_b);
    check.known(known_dtype(args.type_a) || is_eight_bit(args.type_a), "type_a", args.type_a);
    check.known(known_dtype(args.type_b) || is_eight_bit(args.type_b), "type_b", args.type_b);
    for (const auto &[type, field] : {std::pair{args.type_c, "type_c"}, std::pair{args.type_d, "type_d"}}) {
        if (is_eight_bit(type)) invalid(name(field) + ": 8-bit floats are inputs only (C and D: f32, f16 or bf16)");
        check.known(known_dtype(type), field, type);
    }
    check.known(args.algo >= ASYNCGEMM_ALGO_AUTO && args.algo <= ASYNCGEMM_ALGO_SM100_TCGEN05, "algo", args.algo);
    check.known(args.bias_mode >= ASYNCGEMM_BIAS_NONE && args.bias_mode <= ASYNCGEMM_BIAS_PER_COL, "bias_mode",
                args.bias_mode);
    if (args.bias_mode != ASYNCGEMM_BIAS_NONE) check.known(known_dtype(args.type_bias), "type_bias", args.type_bias);
    check.known(args.activation >= ASYNCGEMM_ACT_NONE && args.activation <= ASYNCGEMM_ACT_SILU, "activation",
                args.activation);
    check.known(args.scale_mode_a >= ASYNCGEMM_SCALE_NONE && args.scale_mode_a <= ASYNCGEMM_SCALE_MX_32,
                "scale_mode_a", args.scale_mode_a);
    check.known(args.scale_mode_b >= ASYNCGEMM_SCALE_NONE && args.scale_mode_b <= ASYNCGEMM_SCALE_MX_32,
                "scale_mode_b", args.scale_mode_b);
    if (args.m < 0) invalid(name("m") + " must be >= 0 (got " + std::to_string(args.m) + ")");
    if (args.n < 0) invalid(name("n") + " must be >= 0 (got " + std::to_string(args.n) + ")");
    if (args.k < 0) invalid(name("k") + " must be >= 0 (got " + std::to_string(args.k) + ")");
    if (args.batch_count < 0)
        invalid(name("batch_count") + " must be >= 0 (got " + std::to_string(args.batch_count) + ")");
    // 8-bit A and B may be of the two formats (e4m3 x e5m2, as FP8 training's gradient products are).
    if (args.type_b != args.type_a && !(is_eight_bit(args.type_a) && is_eight_bit(args.type_b)))
        invalid(name("type_b") + " (" + dtype_name(args.type_b) + ") must equal " + name("type_a") + " (" +
                dtype_name(args.type_a) + ") unless both are 8-bit floats");
    if (args.c != nullptr && args.type_c != args.type_d)
        invalid(name("type_c") + " (" + dtype_name(args.type_c) + ") must equal " + name("type_d") + " (" +
                dtype_name(args.type_d) + ")");
    if (!is_eight_bit(args.type_a)) {
        if (args.scale_mode_a != ASYNCGEMM_SCALE_NONE)
            invalid(name("scale_mode_a") + ": scales are for 8-bit inputs (type_a is " + dtype_name(args.type_a) + ")");
        if (args.scale_mode_b != ASYNCGEMM_SCALE_NONE)
            invalid(name("scale_mode_b") + ": scales are for 8-bit inputs (type_b is " + dtype_name(args.type_b) + ")");
    }
    if (is_empty(args)) return;

    // A missing matrix is named before any other matrix's alignment is questioned.
    const bool uses_c = args.beta != 0.0f;
    if (args.d == nullptr) invalid(name("d") + " is NULL");
    if (args.k > 0 && args.a == nullptr) invalid(name("a") + " is NULL");
    if (args.k > 0 && args.b == nullptr) invalid(name("b") + " is NULL");
    if (uses_c && args.c == nullptr) invalid(name("c") + " is NULL but " + name("beta") + " != 0");
    check.matrix("d", args.d, args.type_d, args.ldd, args.stride_d, false, ASYNCGEMM_OP_N, args.m, args.n);
    if (args.k > 0) {
        check.matrix("a", args.a, args.type_a, args.lda, args.stride_a, true, args.op_a, args.m, args.k);
        check.matrix("b", args.b, args.type_b, args.ldb, args.stride_b, true, args.op_b, args.k, args.n);
    }
    if (args.c != nullptr) {
        check.matrix("c", args.c, args.type_c, args.ldc, args.stride_c, true, ASYNCGEMM_OP_N, args.m, args.n);
        if (args.c == args.d) {
            if (args.ldc != args.ldd) invalid("c equals d, so " + name("ldc") + " must equal " + name("ldd"));
            if (args.stride_c != args.stride_d)
                invalid("c equals d, so " + name("stride_c") + " must equal " + name("stride_d"));
        }
    }
    if (args.bias_mode != ASYNCGEMM_BIAS_NONE) check.bias(args.bias_mode == ASYNCGEMM_BIAS_PER_ROW ? args.m : args.n);

    // The scales of a product of 8-bit inputs (without one, A, B and their scales are not read).
    if (args.k > 0 && args.alpha != 0.f && is_eight_bit(args.type_a)) {
        check.scale("a", args.scale_mode_a, args.scale_a);
        check.scale("b", args.scale_mode_b, args.scale_b);
        if ((args.scale_mode_a == ASYNCGEMM_SCALE_MX_32) != (args.scale_mode_b == ASYNCGEMM_SCALE_MX_32))
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, name("scale_mode_b") + " (" + scale_mode_name(args.scale_mode_b) +
                                                     ") and " + name("scale_mode_a") + " (" +
                                                     scale_mode_name(args.scale_mode_a) +
                                                     "): MX_32 scales both 8-bit operands or neither");
    }

    // What no kernel of this version computes, named.
    if (args.bias_mode != ASYNCGEMM_BIAS_NONE && args.type_bias != args.type_d && args.type_bias != ASYNCGEMM_R_32F)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, name("type_bias") + " (" + dtype_name(args.type_bias) +
                                                 ") must be D's type (" + dtype_name(args.type_d) + ") or f32");
}

}  // namespace asyncgemm::plan
