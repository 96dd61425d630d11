// Argument checks of asyncgemm_gemm / asyncgemm_gemm_strided_batched that need no device.
#include <algorithm>
#include <string>

#include "common/error.h"
#include "plan/gemm_args.h"
#include "plan/matrix_extent.h"

namespace asyncgemm::plan {
namespace {

[[noreturn]] void invalid(const std::string &message) { fail(ASYNCGEMM_STATUS_INVALID_VALUE, message); }

bool known_dtype(asyncgemm_dtype_t t) { return t == ASYNCGEMM_R_32F || t == ASYNCGEMM_R_16F || t == ASYNCGEMM_R_16BF; }

void check_enum(bool known, const char *name, int value) {
    if (!known) invalid(std::string(name) + ": unknown value " + std::to_string(value));
}

// One operand: its storage extent, leading dimension, alignment and batch stride.
MatrixExtent check_matrix(const char *name, const void *ptr, asyncgemm_dtype_t type, int64_t ld,
                          int64_t stride, bool stride_may_be_zero, const GemmArgs &args, asyncgemm_op_t op,
                          int64_t rows, int64_t cols) {
    const std::string ld_name = std::string("ld") + name;
    const std::string stride_name = std::string("stride_") + name;
    MatrixExtent e = storage_extent(args.order, op, rows, cols, dtype_size(type));
    if (ld < std::max<int64_t>(1, e.contiguous))
        invalid(ld_name + " (" + std::to_string(ld) + ") must be >= " +
                std::to_string(std::max<int64_t>(1, e.contiguous)) + " for this order, op and shape");
    e.ld = ld;
    if (reinterpret_cast<uintptr_t>(ptr) % e.elem_bytes != 0)
        fail(ASYNCGEMM_STATUS_MISALIGNED, std::string(name) + " is not aligned to its " +
                                              std::to_string(e.elem_bytes) + "-byte elements");
    if (stride < 0) invalid(stride_name + " must be >= 0 (got " + std::to_string(stride) + ")");
    e.stride = stride;
    if (!e.fits(args.batch_count)) invalid(std::string(name) + ": extent overflows 64-bit addressing");
    if (!stride_may_be_zero && batches_overlap(e, args.batch_count))
        invalid(stride_name + " (" + std::to_string(stride) + ") makes the " + name +
                " of different batches share elements");
    return e;
}

}  // namespace

bool is_empty(const GemmArgs &args) { return args.m == 0 || args.n == 0 || args.batch_count == 0; }

void validate(const GemmArgs &args) {
    check_enum(args.order == ASYNCGEMM_ORDER_ROW || args.order == ASYNCGEMM_ORDER_COL, "order", args.order);
    check_enum(args.op_a == ASYNCGEMM_OP_N || args.op_a == ASYNCGEMM_OP_T, "op_a", args.op_a);
    check_enum(args.op_b == ASYNCGEMM_OP_N || args.op_b == ASYNCGEMM_OP_T, "op_b", args.op_b);
    check_enum(known_dtype(args.type_a), "type_a", args.type_a);
    check_enum(known_dtype(args.type_b), "type_b", args.type_b);
    check_enum(known_dtype(args.type_c), "type_c", args.type_c);
    check_enum(known_dtype(args.type_d), "type_d", args.type_d);
    check_enum(args.algo >= ASYNCGEMM_ALGO_AUTO && args.algo <= ASYNCGEMM_ALGO_SM100_TCGEN05, "algo", args.algo);
    if (args.m < 0) invalid("m must be >= 0 (got " + std::to_string(args.m) + ")");
    if (args.n < 0) invalid("n must be >= 0 (got " + std::to_string(args.n) + ")");
    if (args.k < 0) invalid("k must be >= 0 (got " + std::to_string(args.k) + ")");
    if (args.batch_count < 0) invalid("batch_count must be >= 0 (got " + std::to_string(args.batch_count) + ")");
    if (args.type_b != args.type_a)
        invalid(std::string("type_b (") + dtype_name(args.type_b) + ") must equal type_a (" +
                dtype_name(args.type_a) + ")");
    if (args.c != nullptr && args.type_c != args.type_d)
        invalid(std::string("type_c (") + dtype_name(args.type_c) + ") must equal type_d (" +
                dtype_name(args.type_d) + ")");
    if (is_empty(args)) return;

    // A missing matrix is named before any other matrix's alignment is questioned.
    const bool uses_c = args.beta != 0.0f;
    if (args.d == nullptr) invalid("d is NULL");
    if (args.k > 0 && args.a == nullptr) invalid("a is NULL");
    if (args.k > 0 && args.b == nullptr) invalid("b is NULL");
    if (uses_c && args.c == nullptr) invalid("c is NULL but beta != 0");
    check_matrix("d", args.d, args.type_d, args.ldd, args.stride_d, false, args,
                                        ASYNCGEMM_OP_N, args.m, args.n);
    if (args.k > 0) {
        check_matrix("a", args.a, args.type_a, args.lda, args.stride_a, true, args,
                                            args.op_a, args.m, args.k);
        check_matrix("b", args.b, args.type_b, args.ldb, args.stride_b, true, args,
                                            args.op_b, args.k, args.n);
    }
    if (args.c == nullptr) return;
    check_matrix("c", args.c, args.type_c, args.ldc, args.stride_c, true, args, ASYNCGEMM_OP_N, args.m, args.n);
    if (args.c == args.d) {
        if (args.ldc != args.ldd) invalid("c equals d, so ldc must equal ldd");
        if (args.stride_c != args.stride_d) invalid("c equals d, so stride_c must equal stride_d");
    }
}

}  // namespace asyncgemm::plan
