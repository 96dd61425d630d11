// asyncgemm_copy2d planning: the call's checks, its canonical (row-major) form, the choice of
// algorithm, shared-memory layout and vector width, and the launch.  Everything but copy2d() itself
// is pure and needs no GPU, so the unit tests call it directly.
#pragma once

#include <cuda.h>

#include <stddef.h>
#include <stdint.h>

#include "asyncgemm.h"
#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// An asyncgemm_copy2d call as the public API states it, before any checking.
struct CopyArgs {
    asyncgemm_order_t order = ASYNCGEMM_ORDER_ROW;
    asyncgemm_op_t op = ASYNCGEMM_OP_N;
    int64_t rows = 0, cols = 0;
    float alpha = 1.0f;
    const void *src = nullptr;
    int64_t ld_src = 0;
    void *dst = nullptr;
    int64_t ld_dst = 0;
    asyncgemm_dtype_t dtype = ASYNCGEMM_R_32F;
    asyncgemm_copy_algo_t algo = ASYNCGEMM_COPY_AUTO;
    asyncgemm_smem_layout_t layout = ASYNCGEMM_SMEM_AUTO;
    int vector_bytes = 0;
};

// Throws Error naming the first bad argument: INVALID_VALUE, or MISALIGNED for a pointer that is not
// aligned to its element size.  Checks everything that needs neither the device nor a choice; an
// empty call (rows or cols 0) is checked no further than its enums, sizes and combination.
void validate(const CopyArgs &args);

// True when there is nothing to copy (rows or cols is 0).
bool is_empty(const CopyArgs &args);

// A canonical copy: the kernel's parameters, and the op, which picks the kernel.
struct CopyProblem {
    CopyParams params{};
    bool transpose = false;
};

// The canonical problem of a validated call: a column-major copy is the row-major copy of the same
// memory with rows and cols swapped, op unchanged.  vec, layout and the tile counts are left zero.
CopyProblem canonicalize(const CopyArgs &args);

// The widest vector, in bytes, that src, dst and both leading dimensions are aligned to: 16, 8, 4,
// or the element size when nothing wider is.
int widest_vector_bytes(const CopyParams &p);

// What serves a call.
struct CopyChoice {
    asyncgemm_copy_algo_t algo = ASYNCGEMM_COPY_AUTO;
    asyncgemm_smem_layout_t layout = ASYNCGEMM_SMEM_AUTO;
    int vector_bytes = 0;
};

// Refuses an algorithm the device lacks (COPY_TMA below compute capability 9.0: NOT_SUPPORTED).
// Needs no pointer, so it applies to empty calls too.
void check_algo_supported(asyncgemm_copy_algo_t algo, int cc_major);

// Resolves AUTO and checks what the call names, for a validated, non-empty call and its canonical
// form on a device of compute capability cc_major.  AUTO takes the widest vector the alignment
// allows, SWIZZLED for OP_T and PLAIN for OP_N, and the algorithm expected to be fastest.  Throws
// MISALIGNED for a vector width or algorithm the alignment rules out, INVALID_VALUE for a shape TMA
// cannot describe.
CopyChoice choose(const CopyArgs &args, const CopyProblem &problem, int cc_major);

// The problem's parameters completed for a choice: elements per vector, layout and tile counts.
CopyProblem with_choice(CopyProblem problem, const CopyChoice &choice);

// COPY_TMA's tensor map of src, as cuTensorMapEncodeTiled takes it: a 2-D row-major matrix in boxes
// of one tile (128 rows of 128 bytes).
struct TensorMapShape {
    cuuint64_t dims[2];     // elements along a row, rows
    cuuint64_t strides[1];  // bytes from one row to the next
    cuuint32_t box[2];
    CUtensorMapSwizzle swizzle;
};

// The map of src as stored (cols x rows for OP_T), for a completed problem.
TensorMapShape tma_src_map(const CopyProblem &problem);

// How a completed problem launches: kernel index within the copy family, grid, shared memory.
struct CopyLaunch {
    size_t kernel = 0;
    uint32_t grid = 0;
    uint32_t dynamic_smem = 0;
};
CopyLaunch plan_launch(const CopyProblem &problem, asyncgemm_copy_algo_t algo);

// The whole call: validates, chooses and launches on `stream`.  Throws Error without launching
// anything when the call cannot be served.
void copy2d(const Handle &handle, const CopyArgs &args, void *stream);

// The GEMM planner's transposing copy of 8-bit elements, which asyncgemm_copy2d does not take: dst
// (rows x cols, row-major, leading dimension ld_dst) = the transpose of src (cols x rows, ld_src), by
// the PIPELINED kernel in 8- or 4-byte vectors.  transposable_bytes: whether src, dst and both leading
// dimensions are 4-byte aligned, as transpose_bytes needs.
bool transposable_bytes(const void *src, int64_t ld_src, void *dst, int64_t ld_dst);
void transpose_bytes(const Handle &handle, const void *src, int64_t ld_src, void *dst, int64_t ld_dst, int64_t rows,
                     int64_t cols, void *stream);

}  // namespace asyncgemm::plan
