#include "plan/copy_plan.h"

#include <algorithm>
#include <optional>
#include <string>

#include "common/error.h"
#include "kernels/copy/copy_tile.h"
#include "kernels/copy/copy_tma_params.h"
#include "plan/copy_kernels.h"
#include "plan/gemm_args.h"
#include "plan/kernel_table.h"
#include "plan/matrix_extent.h"
#include "plan/tensor_map.h"

namespace asyncgemm::plan {
namespace {

[[noreturn]] void invalid(const std::string &message) { fail(ASYNCGEMM_STATUS_INVALID_VALUE, message); }

void check_enum(bool known, const char *name, int value) {
    if (!known) invalid(std::string(name) + ": unknown value " + std::to_string(value));
}

const char *copy_algo_name(asyncgemm_copy_algo_t algo) {
    if (algo == copy::kCopyRows) return "the row copy";
    if (algo == copy::kCopyWiden) return "the widening copy";
    switch (algo) {
    case ASYNCGEMM_COPY_AUTO: return "ASYNCGEMM_COPY_AUTO";
    case ASYNCGEMM_COPY_SYNC: return "ASYNCGEMM_COPY_SYNC";
    case ASYNCGEMM_COPY_ASYNC: return "ASYNCGEMM_COPY_ASYNC";
    case ASYNCGEMM_COPY_PIPELINED: return "ASYNCGEMM_COPY_PIPELINED";
    case ASYNCGEMM_COPY_TMA: return "ASYNCGEMM_COPY_TMA";
    }
    return "unknown copy algorithm";
}

std::string bytes_text(int64_t bytes) { return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes"); }

// src or dst as stored: leading dimension, pointer and element alignment, 64-bit extent.
MatrixExtent check_matrix(const char *name, const void *ptr, int64_t ld, MatrixExtent e) {
    const std::string ld_name = std::string("ld_") + name;
    const int64_t least = std::max<int64_t>(1, e.contiguous);
    if (ld < least)
        invalid(ld_name + " (" + std::to_string(ld) + ") must be >= " + std::to_string(least) +
                " for this order, op and shape");
    e.ld = ld;
    if (ptr == nullptr) invalid(std::string(name) + " is NULL");
    if (reinterpret_cast<uintptr_t>(ptr) % e.elem_bytes != 0)
        fail(ASYNCGEMM_STATUS_MISALIGNED,
             std::string(name) + " is not aligned to its " + bytes_text(int64_t(e.elem_bytes)) + " elements");
    if (!e.fits(1)) invalid(std::string(name) + ": extent overflows 64-bit addressing");
    return e;
}

// Why COPY_TMA cannot serve a problem with this vector width, if it cannot.
std::optional<Error> tma_refusal(const CopyParams &p, int vector_bytes) {
    constexpr int64_t kMaxCoordinate = int64_t(1) << 31;  // TMA coordinates are signed 32-bit
    constexpr int64_t kMaxStride = int64_t(1) << 40;
    const int64_t elem_bytes = int64_t(dtype_size(p.dtype));
    if (vector_bytes != copy::kTmaVecBytes)
        return Error(ASYNCGEMM_STATUS_MISALIGNED, "ASYNCGEMM_COPY_TMA needs src, dst, ld_src and ld_dst aligned to 16 "
                                                  "bytes; they are aligned to " + bytes_text(vector_bytes));
    if (p.rows >= kMaxCoordinate || p.cols >= kMaxCoordinate)
        return Error(ASYNCGEMM_STATUS_INVALID_VALUE,
                     "ASYNCGEMM_COPY_TMA addresses tiles with 32-bit coordinates: rows and cols must be below 2^31");
    if (p.ld_src * elem_bytes >= kMaxStride)
        return Error(ASYNCGEMM_STATUS_INVALID_VALUE,
                     "ASYNCGEMM_COPY_TMA takes row strides below 2^40 bytes: ld_src is too large");
    return std::nullopt;
}

// AUTO: cp.async and TMA move at least 4 bytes, so 2-byte alignment leaves the row copy for OP_N
// (copy_rows.cuh; unless a shared-memory layout is named, which it has none of) and SYNC for OP_T.
// Otherwise TMA where the device and the problem allow it (on an H100 the fastest for both ops), else
// the cp.async ring.
asyncgemm_copy_algo_t auto_algo(const CopyProblem &problem, asyncgemm_smem_layout_t named_layout,
                                asyncgemm_smem_layout_t layout, int vector_bytes, int cc_major) {
    const CopyParams &p = problem.params;
    if (vector_bytes < 4)
        return !problem.transpose && named_layout == ASYNCGEMM_SMEM_AUTO ? copy::kCopyRows : ASYNCGEMM_COPY_SYNC;
    if (cc_major >= 9 && layout != ASYNCGEMM_SMEM_PADDED && !tma_refusal(p, vector_bytes)) return ASYNCGEMM_COPY_TMA;
    return ASYNCGEMM_COPY_PIPELINED;
}

}  // namespace

bool is_empty(const CopyArgs &args) { return args.rows == 0 || args.cols == 0; }

void validate(const CopyArgs &args) {
    check_enum(args.order == ASYNCGEMM_ORDER_ROW || args.order == ASYNCGEMM_ORDER_COL, "order", args.order);
    check_enum(args.op == ASYNCGEMM_OP_N || args.op == ASYNCGEMM_OP_T, "op", args.op);
    check_enum(args.dtype == ASYNCGEMM_R_32F || args.dtype == ASYNCGEMM_R_16F || args.dtype == ASYNCGEMM_R_16BF,
               "dtype", args.dtype);
    check_enum(args.algo >= ASYNCGEMM_COPY_AUTO && args.algo <= ASYNCGEMM_COPY_TMA, "algo", args.algo);
    check_enum(args.layout >= ASYNCGEMM_SMEM_AUTO && args.layout <= ASYNCGEMM_SMEM_SWIZZLED, "layout", args.layout);
    if (args.rows < 0) invalid("rows must be >= 0 (got " + std::to_string(args.rows) + ")");
    if (args.cols < 0) invalid("cols must be >= 0 (got " + std::to_string(args.cols) + ")");
    const int vb = args.vector_bytes;
    if (vb != 0 && vb != 4 && vb != 8 && vb != 16)
        invalid("vector_bytes must be 0 (choose), 4, 8 or 16 (got " + std::to_string(vb) + ")");
    if (args.algo == ASYNCGEMM_COPY_TMA && args.layout == ASYNCGEMM_SMEM_PADDED)
        invalid("layout ASYNCGEMM_SMEM_PADDED cannot be used with ASYNCGEMM_COPY_TMA: TMA writes dense or "
                "hardware-swizzled boxes");
    if (args.algo == ASYNCGEMM_COPY_TMA && vb != 0 && vb != copy::kTmaVecBytes)
        invalid("vector_bytes " + std::to_string(vb) + " cannot be used with ASYNCGEMM_COPY_TMA, which moves "
                "16-byte rows");
    if (is_empty(args)) return;

    const size_t elem_bytes = dtype_size(args.dtype);
    const MatrixExtent src = check_matrix("src", args.src, args.ld_src,
                                          storage_extent(args.order, args.op, args.rows, args.cols, elem_bytes));
    const MatrixExtent dst = check_matrix("dst", args.dst, args.ld_dst,
                                          storage_extent(args.order, ASYNCGEMM_OP_N, args.rows, args.cols, elem_bytes));
    const uintptr_t src_begin = reinterpret_cast<uintptr_t>(args.src);
    const uintptr_t dst_begin = reinterpret_cast<uintptr_t>(args.dst);
    const uintptr_t src_end = src_begin + uintptr_t(src.span_elements()) * elem_bytes;
    const uintptr_t dst_end = dst_begin + uintptr_t(dst.span_elements()) * elem_bytes;
    if (src_begin < dst_end && dst_begin < src_end)
        invalid("src and dst overlap: the copy would read memory it writes");

    // Kernels index their tiles and blocks with the 32-bit counts of CopyParams and the grid; that is
    // 32 TiB of f32, more than any device holds.
    const CopyProblem problem = canonicalize(args);
    const copy::TileExtent tile = copy::dst_tile_extent(int(elem_bytes), problem.transpose);
    const int64_t tiles_rows = (problem.params.rows + tile.rows - 1) / tile.rows;
    const int64_t tiles_cols = (problem.params.cols + tile.cols - 1) / tile.cols;
    if (tiles_rows > INT32_MAX / tiles_cols) invalid("rows and cols: the copy has more than 2^31 - 1 tiles");
}

CopyProblem canonicalize(const CopyArgs &args) {
    CopyProblem problem;
    CopyParams &p = problem.params;
    const bool col_major = args.order == ASYNCGEMM_ORDER_COL;
    p.rows = col_major ? args.cols : args.rows;
    p.cols = col_major ? args.rows : args.cols;
    p.src = args.src;
    p.ld_src = args.ld_src;
    p.dst = args.dst;
    p.ld_dst = args.ld_dst;
    p.alpha = args.alpha;
    p.dtype = args.dtype;
    problem.transpose = args.op == ASYNCGEMM_OP_T;
    return problem;
}

int widest_vector_bytes(const CopyParams &p) {
    const int64_t elem_bytes = int64_t(dtype_size(p.dtype));
    for (int bytes : {16, 8, 4}) {
        if (reinterpret_cast<uintptr_t>(p.src) % bytes == 0 && reinterpret_cast<uintptr_t>(p.dst) % bytes == 0 &&
            p.ld_src * elem_bytes % bytes == 0 && p.ld_dst * elem_bytes % bytes == 0)
            return bytes;
    }
    return int(elem_bytes);
}

void check_algo_supported(asyncgemm_copy_algo_t algo, int cc_major) {
    if (algo == ASYNCGEMM_COPY_TMA && cc_major < 9)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_COPY_TMA needs the tensor-memory accelerator of compute "
                                             "capability 9.0 or newer; this device is " +
                                                 std::to_string(cc_major) + ".x");
}

CopyChoice choose(const CopyArgs &args, const CopyProblem &problem, int cc_major) {
    const CopyParams &p = problem.params;
    const int widest = widest_vector_bytes(p);
    if (args.vector_bytes > widest)
        fail(ASYNCGEMM_STATUS_MISALIGNED, "vector_bytes " + std::to_string(args.vector_bytes) +
                                              " needs src, dst, ld_src and ld_dst aligned to it; they are aligned "
                                              "to " + bytes_text(widest));
    CopyChoice c;
    c.vector_bytes = args.vector_bytes != 0 ? args.vector_bytes : widest;
    c.layout = args.layout != ASYNCGEMM_SMEM_AUTO ? args.layout
               : problem.transpose                ? ASYNCGEMM_SMEM_SWIZZLED
                                                  : ASYNCGEMM_SMEM_PLAIN;
    c.algo = args.algo != ASYNCGEMM_COPY_AUTO ? args.algo
                                              : auto_algo(problem, args.layout, c.layout, c.vector_bytes, cc_major);
    if ((c.algo == ASYNCGEMM_COPY_ASYNC || c.algo == ASYNCGEMM_COPY_PIPELINED) && c.vector_bytes < 4)
        fail(ASYNCGEMM_STATUS_MISALIGNED, std::string(copy_algo_name(c.algo)) +
                                              " copies with cp.async, at least 4 bytes at a time; src, dst, ld_src "
                                              "and ld_dst are aligned to " + bytes_text(c.vector_bytes));
    if (c.algo == ASYNCGEMM_COPY_TMA)
        if (const std::optional<Error> refusal = tma_refusal(p, c.vector_bytes)) throw *refusal;
    return c;
}

CopyProblem with_choice(CopyProblem problem, const CopyChoice &choice) {
    CopyParams &p = problem.params;
    const int elem_bytes = int(dtype_size(p.dtype));
    const copy::TileExtent tile = copy::dst_tile_extent(elem_bytes, problem.transpose);
    p.vec = choice.vector_bytes / elem_bytes;
    p.layout = choice.layout;
    p.tiles_rows = static_cast<int32_t>((p.rows + tile.rows - 1) / tile.rows);
    p.tiles_cols = static_cast<int32_t>((p.cols + tile.cols - 1) / tile.cols);
    return problem;
}

TensorMapShape tma_src_map(const CopyProblem &problem) {
    const CopyParams &p = problem.params;
    const size_t elem_bytes = dtype_size(p.dtype);
    TensorMapShape m{};
    m.dims[0] = static_cast<cuuint64_t>(problem.transpose ? p.rows : p.cols);
    m.dims[1] = static_cast<cuuint64_t>(problem.transpose ? p.cols : p.rows);
    m.strides[0] = static_cast<cuuint64_t>(p.ld_src) * elem_bytes;
    m.box[0] = static_cast<cuuint32_t>(copy::kTileRowBytes / elem_bytes);
    m.box[1] = copy::kTileRows;
    m.swizzle = p.layout == ASYNCGEMM_SMEM_SWIZZLED ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE;
    return m;
}

CopyLaunch plan_launch(const CopyProblem &problem, asyncgemm_copy_algo_t algo) {
    const CopyParams &p = problem.params;
    CopyLaunch launch;
    const int kernel = copy::kernel_index(algo, problem.transpose, int(dtype_size(p.dtype)));
    if (kernel < 0) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string("no copy kernel for ") + copy_algo_name(algo));
    launch.kernel = static_cast<size_t>(kernel);
    launch.dynamic_smem = copy::kKernels[launch.kernel].dynamic_smem;
    if (algo == copy::kCopyRows) {
        launch.grid = copy::row_piece_blocks(p.rows * copy::row_pieces(p.cols));
        return launch;
    }
    // SYNC and ASYNC take one tile per block, as the guide's baseline does; the ring kernels walk
    // runs of kRingTilesPerBlock tiles, so that the hardware balances blocks across the SMs.
    const int64_t tiles = int64_t(p.tiles_rows) * p.tiles_cols;
    const bool ring = algo == ASYNCGEMM_COPY_PIPELINED || algo == ASYNCGEMM_COPY_TMA;
    const int64_t per_block = ring ? copy::kRingTilesPerBlock : 1;
    launch.grid = static_cast<uint32_t>((tiles + per_block - 1) / per_block);
    return launch;
}

namespace {

// An 8-bit copy's parameters as canonicalize would give them (the dtype only sizes the elements).
CopyProblem byte_transpose(const void *src, int64_t ld_src, void *dst, int64_t ld_dst, int64_t rows, int64_t cols) {
    CopyProblem problem;
    CopyParams &p = problem.params;
    p.rows = rows;
    p.cols = cols;
    p.src = src;
    p.ld_src = ld_src;
    p.dst = dst;
    p.ld_dst = ld_dst;
    p.alpha = 1.0f;
    p.dtype = ASYNCGEMM_R_8F_E4M3;
    problem.transpose = true;
    return problem;
}

}  // namespace

bool transposable_bytes(const void *src, int64_t ld_src, void *dst, int64_t ld_dst) {
    return widest_vector_bytes(byte_transpose(src, ld_src, dst, ld_dst, 0, 0).params) >= 4;
}

void transpose_bytes(const Handle &handle, const void *src, int64_t ld_src, void *dst, int64_t ld_dst, int64_t rows,
                     int64_t cols, void *stream) {
    if (rows == 0 || cols == 0) return;
    const CopyProblem canonical = byte_transpose(src, ld_src, dst, ld_dst, rows, cols);
    CopyChoice choice;
    choice.algo = ASYNCGEMM_COPY_PIPELINED;
    choice.layout = ASYNCGEMM_SMEM_SWIZZLED;
    // 16-byte vectors of bytes make transpose blocks too few for a tile's threads (vector_width.cuh).
    choice.vector_bytes = std::min(widest_vector_bytes(canonical.params), 8);
    if (choice.vector_bytes < 4)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "transpose_bytes: rows not 4-byte aligned (transposable_bytes)");
    const CopyProblem problem = with_choice(canonical, choice);
    const CopyLaunch launch = plan_launch(problem, choice.algo);
    handle.launch(family_base(Family::Copy) + launch.kernel, Dim3{launch.grid, 1, 1}, Dim3{copy::kThreads, 1, 1},
                  launch.dynamic_smem, &problem.params, sizeof problem.params, stream);
}

void copy2d(const Handle &handle, const CopyArgs &args, void *stream) {
    validate(args);
    const DeviceInfo &device = handle.device();
    check_algo_supported(args.algo, device.cc_major);
    if (is_empty(args)) return;
    const CopyProblem canonical = canonicalize(args);
    const CopyChoice choice = choose(args, canonical, device.cc_major);
    const CopyProblem problem = with_choice(canonical, choice);
    const CopyLaunch launch = plan_launch(problem, choice.algo);
    const size_t kernel = family_base(Family::Copy) + launch.kernel;
    const Dim3 grid{launch.grid, 1, 1}, block{copy::kThreads, 1, 1};
    if (choice.algo != ASYNCGEMM_COPY_TMA) {
        handle.launch(kernel, grid, block, launch.dynamic_smem, &problem.params, sizeof problem.params, stream);
        return;
    }
    CopyTmaParams tma{};
    tma.copy = problem.params;
    const TensorMapShape shape = tma_src_map(problem);
    encode_tensor_map(tma.src_map, problem.params.dtype, 2, problem.params.src, shape.dims, shape.strides, shape.box,
                      shape.swizzle);
    handle.launch(kernel, grid, block, launch.dynamic_smem, &tma, sizeof tma, stream);
}

}  // namespace asyncgemm::plan
