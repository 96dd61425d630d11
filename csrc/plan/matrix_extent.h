// Where a matrix argument lies in memory: the storage shape a (order, op) pair implies, its span,
// and whether the batches of one output share elements.  Pure arithmetic, unit-tested.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "asyncgemm.h"

namespace asyncgemm::plan {

struct MatrixExtent {
    int64_t lines = 0;       // rows of a row-major store, columns of a column-major one
    int64_t contiguous = 0;  // elements along the unit-stride direction
    int64_t ld = 0;          // distance between lines, elements
    int64_t stride = 0;      // distance between batches, elements
    size_t elem_bytes = 0;

    // Elements from the first to one past the last element of one matrix (0 when empty).
    int64_t span_elements() const;
    // True when every byte offset of batch_count matrices fits in int64.
    bool fits(int64_t batch_count) const;
};

// op(X) is rows x cols in the given order; the stored matrix is that or its transpose.
MatrixExtent storage_extent(asyncgemm_order_t order, asyncgemm_op_t op, int64_t rows, int64_t cols,
                            size_t elem_bytes);

// True when two of batch_count matrices at e.stride apart share an element.  Exact, so batches
// laid side by side inside one larger matrix (stride smaller than the span) are accepted.
bool batches_overlap(const MatrixExtent &e, int64_t batch_count);

}  // namespace asyncgemm::plan
