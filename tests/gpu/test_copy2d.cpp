// asyncgemm_copy2d: every dtype, op, order, algorithm, shared layout and vector width on odd shapes,
// leading dimensions and offset pointers.  alpha = 1 must copy bits exactly (the sources are random
// bit patterns, NaN payloads included); other alphas must match the fp32 product rounded to the
// dtype exactly.  A combination the library cannot do must be refused (INVALID_VALUE, MISALIGNED or
// NOT_SUPPORTED, with a message, dst untouched), never fault; one left wholly to the library must work.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "copy_problem.h"
#include "device_buffer.h"
#include "matrix_layout.h"
#include "test_env.h"

using namespace agtest;

namespace {

constexpr asyncgemm_copy_algo_t kAlgos[] = {ASYNCGEMM_COPY_AUTO, ASYNCGEMM_COPY_SYNC, ASYNCGEMM_COPY_ASYNC,
                                            ASYNCGEMM_COPY_PIPELINED, ASYNCGEMM_COPY_TMA};
constexpr asyncgemm_smem_layout_t kLayouts[] = {ASYNCGEMM_SMEM_AUTO, ASYNCGEMM_SMEM_PLAIN, ASYNCGEMM_SMEM_PADDED,
                                                ASYNCGEMM_SMEM_SWIZZLED};
constexpr int kVectorBytes[] = {0, 4, 8, 16};

bool has_tma() { return test_env().cc_major >= 9; }

// The algorithms a device must run when the problem is aligned and the rest is left to the library.
std::vector<asyncgemm_copy_algo_t> algos_serving_aligned_problems() {
    std::vector<asyncgemm_copy_algo_t> algos{ASYNCGEMM_COPY_AUTO, ASYNCGEMM_COPY_SYNC, ASYNCGEMM_COPY_ASYNC,
                                             ASYNCGEMM_COPY_PIPELINED};
    if (has_tma()) algos.push_back(ASYNCGEMM_COPY_TMA);
    return algos;
}

// A leading-dimension pad that makes the leading dimension a multiple of 16 elements (so of 16 bytes).
int64_t pad_to_16(int64_t min_ld) { return (min_ld + 15) / 16 * 16 - min_ld; }

}  // namespace

TEST_SUITE("copy2d") {

TEST_CASE("every dtype, op, order, algorithm, layout and vector width on odd shapes") {
    Rng rng = rng_for("copy2d sweep");
    std::map<asyncgemm_copy_algo_t, int> accepted, refused;
    int combination = 0;
    for (asyncgemm_dtype_t dtype : kDtypes)
        for (asyncgemm_op_t op : kOps)
            for (asyncgemm_order_t order : kOrders)
                for (asyncgemm_copy_algo_t algo : kAlgos)
                    for (asyncgemm_smem_layout_t layout : kLayouts)
                        for (int vector_bytes : kVectorBytes) {
                            CopyCase c = random_copy_case(rng, 300);
                            c.dtype = dtype;
                            c.op = op;
                            c.order = order;
                            c.algo = algo;
                            c.layout = layout;
                            c.vector_bytes = vector_bytes;
                            const float scaling = combination++ % 2 ? 0.5f : -1.25f;
                            for (float alpha : {1.0f, scaling}) {
                                c.alpha = alpha;
                                bool was_refused = false;
                                CHECK(run_copy(test_env().handle, c, rng, nullptr, &was_refused) == "");
                                ++(was_refused ? refused : accepted)[algo];
                            }
                        }
    for (asyncgemm_copy_algo_t algo : kAlgos) {
        MESSAGE("copy2d " << copy_algo_name(algo) << ": " << accepted[algo] << " accepted, " << refused[algo]
                          << " refused");
        // TMA needs 16-byte aligned pointers and leading dimensions, which odd cases rarely have: the
        // aligned test below checks that it serves those.
        if (algo == ASYNCGEMM_COPY_TMA)
            CHECK_MESSAGE((has_tma() || accepted[algo] == 0),
                          "TMA ran on sm_" << test_env().cc_major << test_env().cc_minor);
        else
            CHECK_MESSAGE(accepted[algo] > 0, copy_algo_name(algo) << " refused every combination");
    }
}

TEST_CASE("16-byte aligned problems are served by every algorithm with automatic layout and vectors") {
    Rng rng = rng_for("copy2d aligned");
    Stream stream;
    for (asyncgemm_dtype_t dtype : kDtypes)
        for (asyncgemm_op_t op : kOps)
            for (asyncgemm_order_t order : kOrders)
                for (asyncgemm_copy_algo_t algo : algos_serving_aligned_problems()) {
                    CopyCase c = random_copy_case(rng, 300);
                    c.dtype = dtype;
                    c.op = op;
                    c.order = order;
                    c.algo = algo;
                    c.offset_src = c.offset_dst = false;
                    c.ld_src_pad = pad_to_16(MatrixLayout::of_op(c.rows, c.cols, op, order, 0).ld);
                    c.ld_dst_pad = pad_to_16(MatrixLayout::padded(c.rows, c.cols, order, 0).ld);
                    c.alpha = chance(rng, 0.5) ? 1.0f : 0.5f;
                    bool refused = false;
                    CHECK(run_copy(test_env().handle, c, rng, stream.get(), &refused) == "");
                    CHECK_MESSAGE(!refused, c.describe() << ": refused: " << std::string(asyncgemm_last_error()));
                }
}

TEST_CASE("rows = 0 or cols = 0 succeeds and leaves dst untouched") {
    Rng rng = rng_for("copy2d empty");
    constexpr int64_t kShapes[][2] = {{0, 17}, {17, 0}, {0, 0}};
    for (const auto &shape : kShapes)
        for (asyncgemm_op_t op : kOps) {
            CopyCase c;
            c.rows = shape[0];
            c.cols = shape[1];
            c.op = op;
            bool refused = false;
            CHECK(run_copy(test_env().handle, c, rng, nullptr, &refused) == "");
            CHECK(!refused);
        }
}

TEST_CASE("bigger copies") {
    Rng rng = rng_for("copy2d big");
    Stream stream;
    for (asyncgemm_copy_algo_t algo : kAlgos)
        for (asyncgemm_op_t op : kOps) {
            CopyCase c;
            c.dtype = op == ASYNCGEMM_OP_N ? ASYNCGEMM_R_32F : ASYNCGEMM_R_16F;
            c.op = op;
            c.algo = algo;
            c.rows = 1031;
            c.cols = 1543;
            c.ld_dst_pad = 9;
            c.alpha = op == ASYNCGEMM_OP_N ? 1.0f : 0.5f;
            bool refused = false;
            CHECK(run_copy(test_env().handle, c, rng, stream.get(), &refused) == "");
        }
}

TEST_CASE("AUTO's row copy: 16-bit rows of 2-byte alignment, at every edge of its warps' pieces") {
    // Neither cp.async nor TMA moves these rows; AUTO copies them a piece of 256 elements a warp
    // (copy_rows.cuh), with a source or a destination whose rows start at any 2-byte offset.
    Rng rng = rng_for("copy2d rows");
    Stream stream;
    constexpr int64_t kShapes[][2] = {{1, 1}, {1, 7}, {3, 8}, {5, 9}, {33, 17}, {64, 64}, {3, 255}, {3, 256}, {2, 257}, {997, 1013}, {2, 4099}};
    for (asyncgemm_dtype_t dtype : {ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF})
        for (asyncgemm_order_t order : kOrders)
            for (const auto &shape : kShapes)
                for (int variant = 0; variant < 4; ++variant)
                    for (float alpha : {1.0f, -1.25f}) {
                        CopyCase c;
                        c.dtype = dtype;
                        c.order = order;
                        c.rows = shape[0];
                        c.cols = shape[1];
                        // An odd pad of src or of dst (some rows start off 16 bytes), or an offset src or
                        // dst (all rows do).
                        c.ld_src_pad = variant == 0 ? 1 : 0;
                        c.ld_dst_pad = variant == 1 ? 3 : 0;
                        c.offset_src = variant == 2;
                        c.offset_dst = variant == 3;
                        c.alpha = alpha;
                        bool refused = false;
                        CHECK(run_copy(test_env().handle, c, rng, stream.get(), &refused) == "");
                        CHECK_MESSAGE(!refused, c.describe() << ": refused: " << std::string(asyncgemm_last_error()));
                    }
}

TEST_CASE("each invalid argument is refused by name and leaves dst untouched") {
    // The arguments of asyncgemm_copy2d.
    struct CopyArgs {
        asyncgemm_handle_t handle;
        asyncgemm_order_t order;
        asyncgemm_op_t op;
        int64_t rows, cols;
        float alpha;
        const void *src;
        int64_t ld_src;
        void *dst;
        int64_t ld_dst;
        asyncgemm_dtype_t dtype;
        asyncgemm_copy_algo_t algo;
        asyncgemm_smem_layout_t layout;
        int vector_bytes;
    };
    struct BadArgument {
        std::string what;
        std::function<void(CopyArgs &)> spoil;
        asyncgemm_status_t expected;
        std::vector<std::string> names;  // the message names one of these
    };

    constexpr size_t kBytes = 4096;
    DeviceBuffer src(kBytes), dst(kBytes);
    cuda_check(cudaMemset(src.get(), 0, kBytes), "cudaMemset");
    const HostArray poison(ASYNCGEMM_R_32F, kBytes / 4);
    dst.upload(poison.data(), nullptr);
    const auto dst_untouched = [&]() -> std::string {
        HostArray now(ASYNCGEMM_R_32F, poison.count());
        dst.download(now.data(), nullptr);
        for (size_t e = 0; e < now.count(); ++e)
            if (now.bits(e) != poison.bits(e)) return "dst changed at byte " + std::to_string(4 * e);
        return "";
    };
    const auto call = [](const CopyArgs &x) {
        return asyncgemm_copy2d(x.handle, x.order, x.op, x.rows, x.cols, x.alpha, x.src, x.ld_src, x.dst, x.ld_dst,
                                x.dtype, x.algo, x.layout, x.vector_bytes, nullptr);
    };
    const auto invalid = ASYNCGEMM_STATUS_INVALID_VALUE;
    const auto misaligned = ASYNCGEMM_STATUS_MISALIGNED;
    const std::vector<BadArgument> general = {
        {"NULL handle", [](CopyArgs &x) { x.handle = nullptr; }, invalid, {"handle"}},
        {"src = NULL", [](CopyArgs &x) { x.src = nullptr; }, invalid, {"src"}},
        {"dst = NULL", [](CopyArgs &x) { x.dst = nullptr; }, invalid, {"dst"}},
        {"rows < 0", [](CopyArgs &x) { x.rows = -1; }, invalid, {"rows"}},
        {"cols < 0", [](CopyArgs &x) { x.cols = -3; }, invalid, {"cols"}},
        {"ld_src too small", [](CopyArgs &x) { --x.ld_src; }, invalid, {"ld_src"}},
        {"ld_dst too small", [](CopyArgs &x) { --x.ld_dst; }, invalid, {"ld_dst"}},
        {"unknown order", [](CopyArgs &x) { x.order = static_cast<asyncgemm_order_t>(7); }, invalid, {"order"}},
        {"unknown op", [](CopyArgs &x) { x.op = static_cast<asyncgemm_op_t>(7); }, invalid, {"op"}},
        {"unknown dtype", [](CopyArgs &x) { x.dtype = static_cast<asyncgemm_dtype_t>(7); }, invalid, {"dtype"}},
        {"unknown algo", [](CopyArgs &x) { x.algo = static_cast<asyncgemm_copy_algo_t>(7); }, invalid, {"algo"}},
        {"unknown layout", [](CopyArgs &x) { x.layout = static_cast<asyncgemm_smem_layout_t>(7); }, invalid,
         {"layout"}},
        {"vector_bytes = 3", [](CopyArgs &x) { x.vector_bytes = 3; }, invalid, {"vector_bytes"}},
        {"vector_bytes = 32", [](CopyArgs &x) { x.vector_bytes = 32; }, invalid, {"vector_bytes"}},
        {"vector_bytes < 0", [](CopyArgs &x) { x.vector_bytes = -4; }, invalid, {"vector_bytes"}},
        {"src misaligned to its element",
         [](CopyArgs &x) { x.src = static_cast<const unsigned char *>(x.src) + 1; }, misaligned, {"src"}},
        {"dst misaligned to its element",
         [](CopyArgs &x) { x.dst = static_cast<unsigned char *>(x.dst) + 2; }, misaligned, {"dst"}},
        {"src overlaps dst",
         [](CopyArgs &x) { x.src = static_cast<const unsigned char *>(x.dst) + 4; }, invalid, {"src", "dst"}},
    };

    for (asyncgemm_order_t order : kOrders)
        for (asyncgemm_op_t op : kOps) {
            // rows != cols, so a check of the wrong dimension shows.
            const int64_t rows = 5, cols = 6;
            const CopyArgs valid{test_env().handle, order, op, rows, cols, 1.0f,
                                 src.get(), MatrixLayout::of_op(rows, cols, op, order, 0).ld,
                                 dst.get(), MatrixLayout::padded(rows, cols, order, 0).ld,
                                 ASYNCGEMM_R_32F, ASYNCGEMM_COPY_AUTO, ASYNCGEMM_SMEM_AUTO, 0};
            INFO(order_name(order) << " op=" << op_name(op));
            REQUIRE(call(valid) == ASYNCGEMM_STATUS_SUCCESS);
            dst.upload(poison.data(), nullptr);

            std::vector<BadArgument> bad = general;
            if (!has_tma())
                bad.push_back({"TMA below sm_90", [](CopyArgs &x) { x.algo = ASYNCGEMM_COPY_TMA; },
                               ASYNCGEMM_STATUS_NOT_SUPPORTED, {}});
            for (const BadArgument &b : bad) {
                CopyArgs args = valid;
                b.spoil(args);
                INFO(b.what);
                const asyncgemm_status_t status = call(args);
                CHECK(std::string(asyncgemm_status_string(status)) == std::string(asyncgemm_status_string(b.expected)));
                if (status != ASYNCGEMM_STATUS_SUCCESS) CHECK(check_last_error(b.names) == "");
                CHECK(dst_untouched() == "");
                if (status == ASYNCGEMM_STATUS_SUCCESS) dst.upload(poison.data(), nullptr);
            }
        }
}

}  // TEST_SUITE("copy2d")
