#include "plan/matrix_extent.h"

namespace asyncgemm::plan {
namespace {

// Bytes from the first element of batch 0 to one past the last element of the last batch; -1 when
// it overflows.  A stride of 0 (broadcast) or a single batch is one matrix.
int64_t total_bytes(const MatrixExtent &e, int64_t batch_count) {
    const int64_t span = e.span_elements();
    if (span == 0) return 0;
    int64_t last_batch_offset = 0, elements = 0, bytes = 0;
    const int64_t batches = batch_count > 0 ? batch_count - 1 : 0;
    if (__builtin_mul_overflow(e.stride, batches, &last_batch_offset) ||
        __builtin_add_overflow(last_batch_offset, span, &elements) ||
        __builtin_mul_overflow(elements, static_cast<int64_t>(e.elem_bytes), &bytes))
        return -1;
    return bytes;
}

}  // namespace

int64_t MatrixExtent::span_elements() const {
    if (lines == 0 || contiguous == 0) return 0;
    int64_t before_last = 0, span = 0;
    if (__builtin_mul_overflow(lines - 1, ld, &before_last) || __builtin_add_overflow(before_last, contiguous, &span))
        return INT64_MAX;
    return span;
}

bool MatrixExtent::fits(int64_t batch_count) const {
    return span_elements() != INT64_MAX && total_bytes(*this, batch_count) >= 0;
}

MatrixExtent storage_extent(asyncgemm_order_t order, asyncgemm_op_t op, int64_t rows, int64_t cols,
                            size_t elem_bytes) {
    MatrixExtent e;
    const bool lines_are_rows = (order == ASYNCGEMM_ORDER_ROW) == (op == ASYNCGEMM_OP_N);
    e.lines = lines_are_rows ? rows : cols;
    e.contiguous = lines_are_rows ? cols : rows;
    e.elem_bytes = elem_bytes;
    return e;
}

bool batches_overlap(const MatrixExtent &e, int64_t batch_count) {
    const int64_t span = e.span_elements();
    if (batch_count <= 1 || span == 0) return false;
    if (e.stride == 0) return true;
    // Batch t starts delta = t * stride after batch 0; they share an element when
    // delta = q * ld + r with |q| < lines and |r| < contiguous.  Only q = floor(delta / ld) and q + 1
    // can satisfy that, and only deltas below the span can reach batch 0 at all.
    for (int64_t t = 1; t < batch_count; ++t) {
        int64_t delta = 0;
        if (__builtin_mul_overflow(t, e.stride, &delta) || delta >= span) return false;
        const int64_t q = delta / e.ld, r = delta % e.ld;
        if (q < e.lines && r < e.contiguous) return true;
        if (q + 1 < e.lines && e.ld - r < e.contiguous) return true;
    }
    return false;
}

}  // namespace asyncgemm::plan
