// Where element (row, col) of a stored rows x cols matrix lives, in the public API's terms.
#pragma once

#include <algorithm>
#include <cstdint>

#include "asyncgemm.h"

namespace agtest {

inline constexpr asyncgemm_order_t kOrders[] = {ASYNCGEMM_ORDER_ROW, ASYNCGEMM_ORDER_COL};
inline constexpr asyncgemm_op_t kOps[] = {ASYNCGEMM_OP_N, ASYNCGEMM_OP_T};

struct MatrixLayout {
    int64_t rows = 0, cols = 0;
    int64_t ld = 1;  // elements between consecutive rows (ROW) or columns (COL)
    asyncgemm_order_t order = ASYNCGEMM_ORDER_ROW;

    // The smallest leading dimension the API accepts: the length of a row (ROW) or column (COL), and
    // at least 1 so that an empty matrix has one too.
    static int64_t min_ld(int64_t rows, int64_t cols, asyncgemm_order_t order) {
        return std::max<int64_t>(1, order == ASYNCGEMM_ORDER_ROW ? cols : rows);
    }

    static MatrixLayout padded(int64_t rows, int64_t cols, asyncgemm_order_t order, int64_t ld_pad) {
        return {rows, cols, min_ld(rows, cols, order) + ld_pad, order};
    }

    // The stored matrix X behind op(X) when op(X) is rows x cols: X itself, or for OP_T its transpose.
    static MatrixLayout of_op(int64_t rows, int64_t cols, asyncgemm_op_t op, asyncgemm_order_t order, int64_t ld_pad) {
        return op == ASYNCGEMM_OP_N ? padded(rows, cols, order, ld_pad) : padded(cols, rows, order, ld_pad);
    }

    int64_t offset(int64_t row, int64_t col) const {
        return order == ASYNCGEMM_ORDER_ROW ? row * ld + col : col * ld + row;
    }

    // Elements from the first to one past the last: all a tight allocation holds.
    int64_t span() const { return rows == 0 || cols == 0 ? 0 : offset(rows - 1, cols - 1) + 1; }
};

}  // namespace agtest
