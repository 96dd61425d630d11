// Storage extents and batch self-overlap of matrix arguments.
#include <doctest/doctest.h>

#include "plan/matrix_extent.h"

using namespace asyncgemm::plan;

TEST_CASE("storage extent follows order and op") {
    MatrixExtent e = storage_extent(ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, 5, 3, 4);
    CHECK(e.lines == 5);
    CHECK(e.contiguous == 3);
    e = storage_extent(ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_T, 5, 3, 4);
    CHECK(e.lines == 3);
    CHECK(e.contiguous == 5);
    e = storage_extent(ASYNCGEMM_ORDER_COL, ASYNCGEMM_OP_N, 5, 3, 2);
    CHECK(e.lines == 3);
    CHECK(e.contiguous == 5);
    e = storage_extent(ASYNCGEMM_ORDER_COL, ASYNCGEMM_OP_T, 5, 3, 2);
    CHECK(e.lines == 5);
    CHECK(e.contiguous == 3);
}

TEST_CASE("span and batch overlap") {
    MatrixExtent e = storage_extent(ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, 4, 3, 4);
    e.ld = 10;
    CHECK(e.span_elements() == 33);
    e.stride = 33;
    CHECK_FALSE(batches_overlap(e, 5));
    e.stride = 32;
    CHECK(batches_overlap(e, 5));
    e.stride = 3;  // interleaved: batch t occupies columns 3t..3t+2 of every line
    CHECK_FALSE(batches_overlap(e, 3));
    CHECK(batches_overlap(e, 4));  // batch 3 starts at column 9 and runs into the next line
    e.stride = 0;
    CHECK(batches_overlap(e, 2));
    CHECK_FALSE(batches_overlap(e, 1));
}
