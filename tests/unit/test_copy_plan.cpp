// asyncgemm_copy2d planning without a GPU: argument checks, the canonical form, the choice of
// algorithm, layout and vector width, tensor-map shapes, launches, and the shared-memory layouts the
// kernels address (every vector in place, and which layouts make the transpose conflict-free).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "kernels/copy/copy_tile.h"
#include "plan/copy_kernels.h"
#include "plan/copy_plan.h"
#include "plan/kernel_table.h"

using namespace asyncgemm;
using namespace asyncgemm::plan;
using copy::SmemLayout;

namespace {

// Fake device addresses: planning never dereferences them.
const void *at(uintptr_t address) { return reinterpret_cast<const void *>(address); }
void *at_mut(uintptr_t address) { return reinterpret_cast<void *>(address); }

// A valid row-major f32 copy of a 100 x 60 matrix, src and dst 256-byte aligned and 16-byte pitched.
CopyArgs valid_copy() {
    CopyArgs a;
    a.rows = 100, a.cols = 60;
    a.src = at(0x100000), a.ld_src = 64;
    a.dst = at_mut(0x900000), a.ld_dst = 64;
    return a;
}

template <class F>
std::pair<asyncgemm_status_t, std::string> outcome(F &&f) {
    try {
        f();
        return {ASYNCGEMM_STATUS_SUCCESS, ""};
    } catch (const Error &e) {
        return {e.status(), e.what()};
    }
}

void check_refused(const CopyArgs &a, asyncgemm_status_t status, const char *names) {
    const auto [got, message] = outcome([&] { validate(a); });
    CHECK_MESSAGE(got == status, message);
    CHECK_MESSAGE(message.find(names) != std::string::npos, message);
}

void check_choice_refused(const CopyArgs &a, int cc_major, asyncgemm_status_t status, const char *names) {
    const auto [got, message] = outcome([&] {
        validate(a);
        choose(a, canonicalize(a), cc_major);
    });
    CHECK_MESSAGE(got == status, message);
    CHECK_MESSAGE(message.find(names) != std::string::npos, message);
}

CopyChoice chosen(const CopyArgs &a, int cc_major) {
    validate(a);
    return choose(a, canonicalize(a), cc_major);
}

}  // namespace

TEST_CASE("copy2d: a valid call passes, and empty copies need no pointers") {
    CHECK(outcome([] { validate(valid_copy()); }).first == ASYNCGEMM_STATUS_SUCCESS);
    CopyArgs a = valid_copy();
    a.rows = 0, a.src = nullptr, a.dst = nullptr, a.ld_src = 0, a.ld_dst = 0;
    CHECK(outcome([&] { validate(a); }).first == ASYNCGEMM_STATUS_SUCCESS);
    CHECK(is_empty(a));
    a = valid_copy(), a.cols = 0, a.src = nullptr;
    CHECK(is_empty(a));
    CHECK(outcome([&] { validate(a); }).first == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("copy2d: each bad argument is named") {
    CopyArgs a = valid_copy();
    a.order = static_cast<asyncgemm_order_t>(2);
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "order");
    a = valid_copy(), a.op = static_cast<asyncgemm_op_t>(-1);
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "op");
    a = valid_copy(), a.dtype = static_cast<asyncgemm_dtype_t>(3);
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "dtype");
    a = valid_copy(), a.algo = static_cast<asyncgemm_copy_algo_t>(5);
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "algo");
    a = valid_copy(), a.layout = static_cast<asyncgemm_smem_layout_t>(4);
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "layout");
    a = valid_copy(), a.rows = -1;
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "rows");
    a = valid_copy(), a.cols = -3;
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "cols");
    for (int bad : {-4, 1, 2, 12, 32}) {
        a = valid_copy(), a.vector_bytes = bad;
        check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "vector_bytes");
    }
    a = valid_copy(), a.src = nullptr;
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "src is NULL");
    a = valid_copy(), a.dst = nullptr;
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "dst is NULL");
    a = valid_copy(), a.src = at(0x100002);
    check_refused(a, ASYNCGEMM_STATUS_MISALIGNED, "src");
    a = valid_copy(), a.dtype = ASYNCGEMM_R_16F, a.dst = at_mut(0x900001);
    check_refused(a, ASYNCGEMM_STATUS_MISALIGNED, "dst");
}

TEST_CASE("copy2d: leading dimensions are checked against the stored shape of each order and op") {
    // dst is rows x cols; src is that (OP_N) or its transpose (OP_T), stored in `order`.
    struct Case {
        asyncgemm_order_t order;
        asyncgemm_op_t op;
        int64_t least_src, least_dst;
    };
    const int64_t rows = 100, cols = 60;
    for (const Case c : {Case{ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, cols, cols},
                         Case{ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_T, rows, cols},
                         Case{ASYNCGEMM_ORDER_COL, ASYNCGEMM_OP_N, rows, rows},
                         Case{ASYNCGEMM_ORDER_COL, ASYNCGEMM_OP_T, cols, rows}}) {
        CopyArgs a = valid_copy();
        a.order = c.order, a.op = c.op, a.ld_src = c.least_src, a.ld_dst = c.least_dst;
        CHECK(outcome([&] { validate(a); }).first == ASYNCGEMM_STATUS_SUCCESS);
        a.ld_src = c.least_src - 1;
        check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "ld_src");
        a.ld_src = c.least_src, a.ld_dst = c.least_dst - 1;
        check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "ld_dst");
    }
}

TEST_CASE("copy2d: src and dst may not overlap") {
    CopyArgs a = valid_copy();  // each spans (99 * 64 + 60) * 4 bytes
    a.dst = const_cast<void *>(a.src);
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "overlap");
    a.dst = at_mut(0x100000 + (99 * 64 + 59) * 4);  // dst's first element is src's last
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "overlap");
    a.dst = at_mut(0x100000 + (99 * 64 + 60) * 4);  // right after it
    CHECK(outcome([&] { validate(a); }).first == ASYNCGEMM_STATUS_SUCCESS);
    a.dst = at_mut(0x100000 - 4);  // dst ends far past src's start
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "overlap");
}

TEST_CASE("copy2d: combinations that cannot work are refused, naming why") {
    CopyArgs a = valid_copy();
    a.algo = ASYNCGEMM_COPY_TMA, a.layout = ASYNCGEMM_SMEM_PADDED;
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "PADDED");
    a.rows = 0;  // refused even with nothing to copy
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "PADDED");
    a = valid_copy(), a.algo = ASYNCGEMM_COPY_TMA, a.vector_bytes = 8;
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "16-byte");
    CHECK(outcome([] { check_algo_supported(ASYNCGEMM_COPY_TMA, 8); }).first == ASYNCGEMM_STATUS_NOT_SUPPORTED);
    CHECK(outcome([] { check_algo_supported(ASYNCGEMM_COPY_TMA, 9); }).first == ASYNCGEMM_STATUS_SUCCESS);
    CHECK(outcome([] { check_algo_supported(ASYNCGEMM_COPY_PIPELINED, 8); }).first == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("copy2d: column-major is the row-major copy with rows and cols swapped") {
    CopyArgs a = valid_copy();
    a.order = ASYNCGEMM_ORDER_COL, a.op = ASYNCGEMM_OP_T, a.ld_src = 64, a.ld_dst = 128, a.alpha = 2.5f;
    a.dtype = ASYNCGEMM_R_16BF;
    const CopyProblem c = canonicalize(a);
    CHECK(c.params.rows == 60);
    CHECK(c.params.cols == 100);
    CHECK(c.transpose);
    CHECK(c.params.src == a.src);
    CHECK(c.params.ld_src == 64);
    CHECK(c.params.dst == a.dst);
    CHECK(c.params.ld_dst == 128);
    CHECK(c.params.alpha == 2.5f);
    CHECK(c.params.dtype == kBF16);
    a.order = ASYNCGEMM_ORDER_ROW, a.op = ASYNCGEMM_OP_N;
    CHECK(canonicalize(a).params.rows == 100);
    CHECK_FALSE(canonicalize(a).transpose);
}

TEST_CASE("copy2d: the widest vector follows both pointers and both leading dimensions") {
    CopyParams p{};
    p.dtype = kF32, p.src = at(0x1000), p.dst = at_mut(0x2000), p.ld_src = 64, p.ld_dst = 64;
    CHECK(widest_vector_bytes(p) == 16);
    p.ld_dst = 66;  // 264-byte rows
    CHECK(widest_vector_bytes(p) == 8);
    p.src = at(0x1004);
    CHECK(widest_vector_bytes(p) == 4);
    p.dtype = kF16, p.ld_dst = 64, p.src = at(0x1000), p.ld_src = 63;  // 126-byte rows
    CHECK(widest_vector_bytes(p) == 2);
    p.ld_src = 62, p.dst = at_mut(0x2008);
    CHECK(widest_vector_bytes(p) == 4);
}

TEST_CASE("copy2d: AUTO takes the widest vector, the layout that fits the op, and the fastest algorithm") {
    CopyArgs a = valid_copy();
    CopyChoice c = chosen(a, 9);
    CHECK(c.vector_bytes == 16);
    CHECK(c.layout == ASYNCGEMM_SMEM_PLAIN);
    CHECK(c.algo == ASYNCGEMM_COPY_TMA);
    c = chosen(a, 8);
    CHECK(c.algo == ASYNCGEMM_COPY_PIPELINED);

    a.op = ASYNCGEMM_OP_T, a.ld_src = 128;
    c = chosen(a, 9);
    CHECK(c.layout == ASYNCGEMM_SMEM_SWIZZLED);
    CHECK(c.algo == ASYNCGEMM_COPY_TMA);
    a.layout = ASYNCGEMM_SMEM_PADDED;  // TMA cannot pad: the cp.async ring serves it
    CHECK(chosen(a, 9).algo == ASYNCGEMM_COPY_PIPELINED);

    a = valid_copy(), a.ld_src = 62;  // 8-byte rows: no TMA
    c = chosen(a, 9);
    CHECK(c.vector_bytes == 8);
    CHECK(c.algo == ASYNCGEMM_COPY_PIPELINED);

    a = valid_copy(), a.dtype = ASYNCGEMM_R_16F, a.ld_src = 61;  // 2-byte alignment: no cp.async, no TMA
    c = chosen(a, 9);
    CHECK(c.vector_bytes == 2);
    CHECK(c.algo == copy::kCopyRows);  // rows as they are: the row copy
    a.layout = ASYNCGEMM_SMEM_PADDED;  // a named layout needs a stage
    CHECK(chosen(a, 9).algo == ASYNCGEMM_COPY_SYNC);
    a.layout = ASYNCGEMM_SMEM_PLAIN;
    CHECK(chosen(a, 9).algo == ASYNCGEMM_COPY_SYNC);
    a.layout = ASYNCGEMM_SMEM_AUTO, a.op = ASYNCGEMM_OP_T, a.ld_src = 101;  // a transpose needs a stage
    CHECK(chosen(a, 8).algo == ASYNCGEMM_COPY_SYNC);

    a = valid_copy(), a.vector_bytes = 8, a.algo = ASYNCGEMM_COPY_ASYNC, a.layout = ASYNCGEMM_SMEM_PADDED;
    c = chosen(a, 9);  // what is named is what runs
    CHECK(c.vector_bytes == 8);
    CHECK(c.algo == ASYNCGEMM_COPY_ASYNC);
    CHECK(c.layout == ASYNCGEMM_SMEM_PADDED);
}

TEST_CASE("copy2d: a named vector width or algorithm the alignment rules out is MISALIGNED") {
    CopyArgs a = valid_copy();
    a.ld_dst = 66;  // 8-byte aligned rows
    a.vector_bytes = 16;
    check_choice_refused(a, 9, ASYNCGEMM_STATUS_MISALIGNED, "vector_bytes 16");
    a.vector_bytes = 0, a.algo = ASYNCGEMM_COPY_TMA;
    check_choice_refused(a, 9, ASYNCGEMM_STATUS_MISALIGNED, "ASYNCGEMM_COPY_TMA");
    a = valid_copy(), a.dtype = ASYNCGEMM_R_16BF, a.src = at(0x100002);
    a.algo = ASYNCGEMM_COPY_PIPELINED;
    check_choice_refused(a, 9, ASYNCGEMM_STATUS_MISALIGNED, "cp.async");
    a.algo = ASYNCGEMM_COPY_ASYNC;
    check_choice_refused(a, 8, ASYNCGEMM_STATUS_MISALIGNED, "cp.async");
    a.algo = ASYNCGEMM_COPY_SYNC;
    CHECK(chosen(a, 8).vector_bytes == 2);
}

TEST_CASE("copy2d: a copy of more tiles than one launch holds is refused") {
    CopyArgs a = valid_copy();
    a.src = at(uintptr_t(1) << 50), a.dst = at_mut(uintptr_t(1) << 51);
    a.rows = int64_t(1) << 24, a.cols = int64_t(1) << 20, a.ld_src = a.cols, a.ld_dst = a.cols;  // 2^17 x 2^15 tiles
    check_refused(a, ASYNCGEMM_STATUS_INVALID_VALUE, "tiles");
    a.rows = int64_t(1) << 22;  // 2^15 x 2^15 tiles
    CHECK(outcome([&] { validate(a); }).first == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("copy2d: shapes TMA cannot describe are refused for TMA and avoided by AUTO") {
    CopyArgs a = valid_copy();
    a.src = at(uintptr_t(1) << 44), a.dst = at_mut(uintptr_t(1) << 45);  // far enough apart not to overlap
    a.rows = int64_t(1) << 31, a.cols = 4, a.ld_src = 4, a.ld_dst = 4;
    a.algo = ASYNCGEMM_COPY_TMA;
    check_choice_refused(a, 9, ASYNCGEMM_STATUS_INVALID_VALUE, "32-bit coordinates");
    a.algo = ASYNCGEMM_COPY_AUTO;
    CHECK(chosen(a, 9).algo == ASYNCGEMM_COPY_PIPELINED);
    a = valid_copy(), a.src = at(uintptr_t(1) << 44), a.dst = at_mut(uintptr_t(1) << 45);
    a.rows = 2, a.ld_src = int64_t(1) << 38;  // 2^40-byte row stride
    a.algo = ASYNCGEMM_COPY_TMA;
    check_choice_refused(a, 9, ASYNCGEMM_STATUS_INVALID_VALUE, "2^40");
}

TEST_CASE("copy2d: a choice completes the kernel parameters") {
    CopyArgs a = valid_copy();
    a.rows = 1000, a.cols = 70, a.ld_src = 72, a.ld_dst = 72;
    CopyProblem p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_PIPELINED, ASYNCGEMM_SMEM_PADDED, 8});
    CHECK(p.params.vec == 2);
    CHECK(p.params.layout == ASYNCGEMM_SMEM_PADDED);
    CHECK(p.params.tiles_rows == 8);  // f32 OP_N tiles: 128 rows x 32 columns
    CHECK(p.params.tiles_cols == 3);
    a.op = ASYNCGEMM_OP_T, a.dtype = ASYNCGEMM_R_16F, a.ld_src = 1000;
    p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_SYNC, ASYNCGEMM_SMEM_SWIZZLED, 16});
    CHECK(p.params.vec == 8);
    CHECK(p.params.tiles_rows == 16);  // f16 OP_T tiles: 64 rows x 128 columns
    CHECK(p.params.tiles_cols == 1);
}

TEST_CASE("copy2d: the TMA map describes src as stored, in boxes of one tile") {
    CopyArgs a = valid_copy();
    a.rows = 300, a.cols = 200, a.ld_src = 256, a.ld_dst = 204;
    CopyProblem p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_TMA, ASYNCGEMM_SMEM_SWIZZLED, 16});
    TensorMapShape m = tma_src_map(p);
    CHECK(m.dims[0] == 200);
    CHECK(m.dims[1] == 300);
    CHECK(m.strides[0] == 256 * 4);
    CHECK(m.box[0] == 32);
    CHECK(m.box[1] == 128);
    CHECK(m.swizzle == CU_TENSOR_MAP_SWIZZLE_128B);

    a.op = ASYNCGEMM_OP_T, a.dtype = ASYNCGEMM_R_16F, a.ld_src = 304;  // src is 200 x 300
    p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_TMA, ASYNCGEMM_SMEM_PLAIN, 16});
    m = tma_src_map(p);
    CHECK(m.dims[0] == 300);
    CHECK(m.dims[1] == 200);
    CHECK(m.strides[0] == 304 * 2);
    CHECK(m.box[0] == 64);
    CHECK(m.swizzle == CU_TENSOR_MAP_SWIZZLE_NONE);
}

TEST_CASE("copy2d: launches pick the kernel by algorithm, op and element size") {
    // 16 of the API's algorithms, the row copy, the GEMM planner's byte transpose and widening copy.
    CHECK(copy::kKernelCount == 19);
    CHECK(copy::kernel_index(copy::kCopyWiden, false, 1) == copy::kKernelCount - 1);
    CHECK(std::string(copy::kKernels[copy::kernel_index(ASYNCGEMM_COPY_PIPELINED, true, 1)].name) ==
          "asyncgemm_copy2d_pipelined_t_b8");
    CHECK(copy::kernel_index(ASYNCGEMM_COPY_PIPELINED, false, 1) == -1);  // 8-bit copies only transpose
    CHECK(copy::kKernels[copy::kKernelCount - 1].dynamic_smem == 0);
    CopyArgs a = valid_copy();
    a.rows = 16384, a.cols = 16384, a.ld_src = 16384, a.ld_dst = 16384;
    CopyProblem p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_PIPELINED, ASYNCGEMM_SMEM_PLAIN, 16});
    const uint32_t tiles = 16384 / 128 * (16384 / 32);
    CopyLaunch l = plan_launch(p, ASYNCGEMM_COPY_PIPELINED);
    REQUIRE(l.kernel < static_cast<size_t>(copy::kKernelCount));
    CHECK(std::string(copy::kKernels[l.kernel].name) == "asyncgemm_copy2d_pipelined_n_b32");
    CHECK(l.dynamic_smem == copy::kKernels[l.kernel].dynamic_smem);
    CHECK(l.grid == tiles / copy::kRingTilesPerBlock);

    l = plan_launch(p, ASYNCGEMM_COPY_SYNC);
    CHECK(std::string(copy::kKernels[l.kernel].name) == "asyncgemm_copy2d_sync_n_b32");
    CHECK(l.grid == tiles);  // one tile per block

    a.op = ASYNCGEMM_OP_T, a.dtype = ASYNCGEMM_R_16BF;
    p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_TMA, ASYNCGEMM_SMEM_SWIZZLED, 16});
    l = plan_launch(p, ASYNCGEMM_COPY_TMA);
    CHECK(std::string(copy::kKernels[l.kernel].name) == "asyncgemm_copy2d_tma_t_b16");
    a.rows = 200, a.cols = 100;  // 4 tiles of 64 x 128: a ring block's run and a partial one
    p = with_choice(canonicalize(a), {ASYNCGEMM_COPY_TMA, ASYNCGEMM_SMEM_SWIZZLED, 16});
    CHECK(plan_launch(p, ASYNCGEMM_COPY_TMA).grid == (4 + copy::kRingTilesPerBlock - 1) / copy::kRingTilesPerBlock);
    a = valid_copy(), a.dtype = ASYNCGEMM_R_16F, a.rows = 997, a.cols = 1013, a.ld_src = 1013, a.ld_dst = 1016;
    p = with_choice(canonicalize(a), {copy::kCopyRows, ASYNCGEMM_SMEM_PLAIN, 2});
    l = plan_launch(p, copy::kCopyRows);
    CHECK(std::string(copy::kKernels[l.kernel].name) == "asyncgemm_copy2d_rows_n_b16");
    CHECK(l.dynamic_smem == 0);
    CHECK(l.grid == 997);  // a warp per 256 elements of a row: four warps a row, four a block
    a.rows = int64_t(1) << 20, a.cols = 1 << 12, a.ld_src = a.cols + 1, a.ld_dst = a.cols;
    p = with_choice(canonicalize(a), {copy::kCopyRows, ASYNCGEMM_SMEM_PLAIN, 2});
    CHECK(plan_launch(p, copy::kCopyRows).grid == copy::kRowsMaxBlocks);  // and striding past them
    for (const copy::KernelInfo &k : copy::kKernels) CHECK(copy::kernel_index(k.algo, k.transpose, k.elem_bytes) == &k - copy::kKernels);
}

namespace {

constexpr asyncgemm_smem_layout_t kLayouts[] = {ASYNCGEMM_SMEM_PLAIN, ASYNCGEMM_SMEM_PADDED, ASYNCGEMM_SMEM_SWIZZLED};

// The vector widths the staged kernels run with for an element size.
std::vector<int> vector_widths(int elem_bytes) {
    return elem_bytes == 2 ? std::vector<int>{2, 4, 8, 16} : std::vector<int>{4, 8, 16};
}

// Shared-memory wavefronts for one warp-wide access of `bytes` per lane: lanes go in phases of at
// most 128 bytes, and in a phase each of the 32 four-byte banks serves one word per wavefront.
int wavefronts(const std::vector<uint32_t> &lane_offsets, int bytes) {
    const size_t lanes_per_phase = std::min<size_t>(32, 128 / bytes);
    int total = 0;
    for (size_t first = 0; first < lane_offsets.size(); first += lanes_per_phase) {
        std::map<uint32_t, std::set<uint32_t>> words_of_bank;
        for (size_t lane = first; lane < std::min(first + lanes_per_phase, lane_offsets.size()); ++lane)
            for (uint32_t word = lane_offsets[lane] / 4; word <= (lane_offsets[lane] + bytes - 1) / 4; ++word)
                words_of_bank[word % 32].insert(word);
        size_t worst = 1;
        for (const auto &bank : words_of_bank) worst = std::max(worst, bank.second.size());
        total += int(worst);
    }
    return total;
}

// The fewest wavefronts a warp can take for accesses of that width.
int ideal_wavefronts(int bytes) { return std::max(1, 32 * bytes / 128); }

// Offsets the first warp reads for row `a` of its first transpose blocks (stage_drain.cuh).
std::vector<uint32_t> transposed_read(const SmemLayout &layout, int elem_bytes, int vector_bytes, int lanes_down,
                                      int a) {
    const int v = vector_bytes / elem_bytes, units = copy::kTileRowBytes / vector_bytes;
    std::vector<uint32_t> offsets;
    for (int lane = 0; lane < 32; ++lane) {
        const copy::TransposeBlock b = copy::transpose_block(lane, lanes_down, units);
        offsets.push_back(layout.offset(uint32_t(b.group * v + a), uint32_t(b.unit * vector_bytes)));
    }
    return offsets;
}

// Offsets the first warp's lanes fill or drain along rows (RowSlice in tile.cuh), i-th vector.
std::vector<uint32_t> row_access(const SmemLayout &layout, int vector_bytes, int i) {
    const int per_row = copy::kTileRowBytes / vector_bytes, row_step = copy::kThreads / per_row;
    std::vector<uint32_t> offsets;
    for (int lane = 0; lane < 32; ++lane) {
        const int row = lane / per_row + i * row_step, col = lane % per_row * vector_bytes;
        offsets.push_back(layout.offset(uint32_t(row), uint32_t(col)));
    }
    return offsets;
}

}  // namespace

TEST_CASE("copy2d: staged layouts put every vector of a tile in its own aligned place") {
    for (int elem_bytes : {2, 4})
        for (int vb : vector_widths(elem_bytes))
            for (asyncgemm_smem_layout_t kind : kLayouts) {
                const SmemLayout layout = copy::staged_layout(kind, vb, elem_bytes);
                const int layout_value = kind;
                CAPTURE(elem_bytes);
                CAPTURE(vb);
                CAPTURE(layout_value);
                CHECK(layout.bytes() <= copy::kStageBytes);
                std::set<uint32_t> seen;
                bool aligned = true, inside = true;
                for (uint32_t row = 0; row < copy::kTileRows; ++row)
                    for (uint32_t col = 0; col < copy::kTileRowBytes; col += vb) {
                        const uint32_t off = layout.offset(row, col);
                        aligned = aligned && off % uint32_t(vb) == 0;
                        inside = inside && off + uint32_t(vb) <= uint32_t(layout.bytes());
                        seen.insert(off);
                    }
                CHECK(aligned);
                CHECK(inside);
                CHECK(seen.size() == size_t(copy::kTileBytes / vb));
            }
}

TEST_CASE("copy2d: PADDED pads one bank unit per group of v rows, never splitting a vector") {
    // f32, 16-byte vectors: v = 4 rows per group, 16 bytes of padding after each group.
    SmemLayout l = copy::staged_layout(ASYNCGEMM_SMEM_PADDED, 16, 4);
    CHECK(l.offset(3, 0) == 3 * 128);
    CHECK(l.offset(4, 0) == 4 * 128 + 16);
    CHECK(l.offset(9, 32) == 9 * 128 + 2 * 16 + 32);
    CHECK(l.bytes() == copy::kTileBytes + 32 * 16);
    // f16 in 2-byte vectors: the unit is still a 4-byte bank, so rows are padded by two elements.
    l = copy::staged_layout(ASYNCGEMM_SMEM_PADDED, 2, 2);
    CHECK(l.offset(1, 0) == 128 + 4);
    CHECK(l.bytes() == copy::kStageBytes);
    // SWIZZLED XORs the unit with the group: f32 in 8-byte vectors, groups of 2 rows.
    l = copy::staged_layout(ASYNCGEMM_SMEM_SWIZZLED, 8, 4);
    CHECK(l.offset(2, 0) == 2 * 128 + 8);
    CHECK(l.offset(5, 24) == 5 * 128 + (3 ^ 2) * 8);
    CHECK(l.bytes() == copy::kTileBytes);
}

TEST_CASE("copy2d: the transpose conflicts in a PLAIN stage, and not in a PADDED or SWIZZLED one") {
    for (int elem_bytes : {2, 4})
        for (int vb : vector_widths(elem_bytes)) {
            const int v = vb / elem_bytes, lanes_down = copy::staged_lanes_down(elem_bytes, vb);
            CAPTURE(elem_bytes);
            CAPTURE(vb);
            for (int a = 0; a < v; ++a) {
                const auto plain = transposed_read(copy::staged_layout(ASYNCGEMM_SMEM_PLAIN, vb, elem_bytes),
                                                   elem_bytes, vb, lanes_down, a);
                CHECK(wavefronts(plain, vb) == 32);  // every lane of a phase in the same banks
                for (asyncgemm_smem_layout_t kind : {ASYNCGEMM_SMEM_PADDED, ASYNCGEMM_SMEM_SWIZZLED}) {
                    const auto spread = transposed_read(copy::staged_layout(kind, vb, elem_bytes), elem_bytes, vb,
                                                        lanes_down, a);
                    CHECK(wavefronts(spread, vb) == ideal_wavefronts(vb));
                }
            }
            for (asyncgemm_smem_layout_t kind : kLayouts)
                for (int i = 0; i < 2; ++i)
                    CHECK(wavefronts(row_access(copy::staged_layout(kind, vb, elem_bytes), vb, i), vb) ==
                          ideal_wavefronts(vb));
        }
}

TEST_CASE("copy2d: TMA's 128-byte swizzle makes its transpose conflict-free") {
    for (int elem_bytes : {2, 4}) {
        const int vb = copy::kTmaVecBytes, v = vb / elem_bytes;
        const SmemLayout swizzled = copy::tma_layout(ASYNCGEMM_SMEM_SWIZZLED);
        CAPTURE(elem_bytes);
        for (int a = 0; a < v; ++a)
            CHECK(wavefronts(transposed_read(swizzled, elem_bytes, vb, copy::tma_lanes_down(elem_bytes), a), vb) ==
                  ideal_wavefronts(vb));
        for (int i = 0; i < 2; ++i) CHECK(wavefronts(row_access(swizzled, vb, i), vb) == ideal_wavefronts(vb));
        // The hardware pattern: 16-byte chunk c of row r sits at chunk c ^ (r % 8).
        CHECK(swizzled.offset(9, 48) == 9 * 128 + (3 ^ 1) * 16);
        CHECK(copy::tma_layout(ASYNCGEMM_SMEM_PLAIN).offset(9, 48) == 9 * 128 + 48);
    }
}
