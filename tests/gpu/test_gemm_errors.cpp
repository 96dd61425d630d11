// Invalid GEMM arguments on the GPU path: a real handle and real buffers, one bad argument at a
// time.  Each call must return its status, leave a one-line message naming the argument, and leave D
// byte-identical.  The same valid call succeeds first, so the refusal is the bad argument's doing.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "elements.h"
#include "matrix_layout.h"
#include "test_env.h"

using namespace agtest;

namespace {

// The arguments of asyncgemm_gemm_strided_batched; asyncgemm_gemm takes the same minus strides and count.
struct GemmArgs {
    asyncgemm_handle_t handle;
    asyncgemm_order_t order;
    asyncgemm_op_t op_a, op_b;
    int64_t m, n, k;
    float alpha;
    const void *a;
    asyncgemm_dtype_t type_a;
    int64_t lda, stride_a;
    const void *b;
    asyncgemm_dtype_t type_b;
    int64_t ldb, stride_b;
    float beta;
    const void *c;
    asyncgemm_dtype_t type_c;
    int64_t ldc, stride_c;
    void *d;
    asyncgemm_dtype_t type_d;
    int64_t ldd, stride_d;
    int64_t batch_count;
    asyncgemm_algo_t algo;
};

asyncgemm_status_t call(const GemmArgs &x, bool batched) {
    if (!batched)
        return asyncgemm_gemm(x.handle, x.order, x.op_a, x.op_b, x.m, x.n, x.k, x.alpha, x.a, x.type_a, x.lda, x.b,
                              x.type_b, x.ldb, x.beta, x.c, x.type_c, x.ldc, x.d, x.type_d, x.ldd, x.algo, nullptr);
    return asyncgemm_gemm_strided_batched(x.handle, x.order, x.op_a, x.op_b, x.m, x.n, x.k, x.alpha, x.a, x.type_a,
                                          x.lda, x.stride_a, x.b, x.type_b, x.ldb, x.stride_b, x.beta, x.c, x.type_c,
                                          x.ldc, x.stride_c, x.d, x.type_d, x.ldd, x.stride_d, x.batch_count, x.algo,
                                          nullptr);
}

// Four buffers much larger than any call here touches: A, B and C zeros, D poisoned.
class Buffers {
public:
    static constexpr size_t kBytes = 16384;
    Buffers() : a(kBytes), b(kBytes), c(kBytes), d(kBytes), d_host(ASYNCGEMM_R_32F, kBytes / 4) {
        for (const DeviceBuffer *input : {&a, &b, &c}) cuda_check(cudaMemset(input->get(), 0, kBytes), "cudaMemset");
        poison_d();
    }

    // Puts the poison back after a call that was meant to write D.
    void poison_d() { d.upload(d_host.data(), nullptr); }
    std::string d_untouched() const {
        HostArray now(ASYNCGEMM_R_32F, d_host.count());
        d.download(now.data(), nullptr);
        for (size_t e = 0; e < now.count(); ++e)
            if (now.bits(e) != d_host.bits(e)) return "D changed at byte " + std::to_string(4 * e);
        return "";
    }

    DeviceBuffer a, b, c, d;
    HostArray d_host;
};

// A valid two-batch f32 call, m = 5, n = 6, k = 7 (all different, so a check on the wrong dimension
// shows), minimal leading dimensions for the order and ops, tight batch strides.
GemmArgs valid_args(const Buffers &buffers, asyncgemm_order_t order, asyncgemm_op_t op_a, asyncgemm_op_t op_b) {
    const int64_t m = 5, n = 6, k = 7;
    const MatrixLayout a = MatrixLayout::of_op(m, k, op_a, order, 0);
    const MatrixLayout b = MatrixLayout::of_op(k, n, op_b, order, 0);
    const MatrixLayout cd = MatrixLayout::padded(m, n, order, 0);
    return GemmArgs{test_env().handle, order, op_a, op_b, m, n, k, 1.0f,
                    buffers.a.get(), ASYNCGEMM_R_32F, a.ld, a.span(),
                    buffers.b.get(), ASYNCGEMM_R_32F, b.ld, b.span(),
                    1.0f, buffers.c.get(), ASYNCGEMM_R_32F, cd.ld, cd.span(),
                    buffers.d.get(), ASYNCGEMM_R_32F, cd.ld, cd.span(),
                    2, ASYNCGEMM_ALGO_AUTO};
}

// The same call in f16 with every row and batch stride a multiple of 16 bytes, m = 8, n = 16, k = 24:
// one that every GEMM algorithm serves, the TMA families included.
GemmArgs valid_f16_args(const Buffers &buffers, asyncgemm_algo_t algo) {
    const int64_t m = 8, n = 16, k = 24;
    return GemmArgs{test_env().handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N, m, n, k, 1.0f,
                    buffers.a.get(), ASYNCGEMM_R_16F, k, m * k,
                    buffers.b.get(), ASYNCGEMM_R_16F, n, k * n,
                    1.0f, buffers.c.get(), ASYNCGEMM_R_16F, n, m * n,
                    buffers.d.get(), ASYNCGEMM_R_16F, n, m * n,
                    2, algo};
}

struct BadArgument {
    std::string what;
    std::function<void(GemmArgs &)> spoil;
    asyncgemm_status_t expected;
    std::vector<std::string> names;  // the message names one of these
    bool batched_only = false;
};

const void *plus_one_byte(const void *p) { return static_cast<const unsigned char *>(p) + 1; }
void *plus_one_byte(void *p) { return static_cast<unsigned char *>(p) + 1; }

// Refusals that do not depend on order and ops.
std::vector<BadArgument> general_bad_arguments(const Buffers &buffers) {
    const auto invalid = ASYNCGEMM_STATUS_INVALID_VALUE;
    const auto misaligned = ASYNCGEMM_STATUS_MISALIGNED;
    std::vector<BadArgument> bad = {
        {"NULL handle", [](GemmArgs &x) { x.handle = nullptr; }, invalid, {"handle"}},
        {"a = NULL", [](GemmArgs &x) { x.a = nullptr; }, invalid, {"a"}},
        {"b = NULL", [](GemmArgs &x) { x.b = nullptr; }, invalid, {"b"}},
        {"c = NULL with beta != 0", [](GemmArgs &x) { x.c = nullptr; }, invalid, {"c", "beta"}},
        {"c = NULL with beta != 0 and d misaligned",
         [](GemmArgs &x) {
             x.c = nullptr;
             x.d = plus_one_byte(x.d);
         },
         invalid, {"c"}},
        {"d = NULL", [](GemmArgs &x) { x.d = nullptr; }, invalid, {"d"}},
        {"m < 0", [](GemmArgs &x) { x.m = -1; }, invalid, {"m"}},
        {"n < 0", [](GemmArgs &x) { x.n = -1; }, invalid, {"n"}},
        {"k < 0", [](GemmArgs &x) { x.k = -2; }, invalid, {"k"}},
        {"unknown order", [](GemmArgs &x) { x.order = static_cast<asyncgemm_order_t>(7); }, invalid, {"order"}},
        {"unknown op_a", [](GemmArgs &x) { x.op_a = static_cast<asyncgemm_op_t>(7); }, invalid, {"op_a"}},
        {"unknown op_b", [](GemmArgs &x) { x.op_b = static_cast<asyncgemm_op_t>(7); }, invalid, {"op_b"}},
        {"unknown type_a and type_b",
         [](GemmArgs &x) { x.type_a = x.type_b = static_cast<asyncgemm_dtype_t>(7); }, invalid, {"type_a", "type_b"}},
        {"unknown type_c and type_d",
         [](GemmArgs &x) { x.type_c = x.type_d = static_cast<asyncgemm_dtype_t>(7); }, invalid, {"type_c", "type_d"}},
        {"unknown algo", [](GemmArgs &x) { x.algo = static_cast<asyncgemm_algo_t>(99); }, invalid, {"algo"}},
        {"type_a != type_b", [](GemmArgs &x) { x.type_b = ASYNCGEMM_R_16BF; }, invalid, {"type_a", "type_b"}},
        {"type_c != type_d", [](GemmArgs &x) { x.type_c = ASYNCGEMM_R_16BF; }, invalid, {"type_c", "type_d"}},
        {"c == d with ldc != ldd",
         [&buffers](GemmArgs &x) {
             x.c = buffers.d.get();
             x.ldc = x.ldd + 1;
         },
         invalid, {"c", "d", "ldc", "ldd"}},
        {"a misaligned to its element", [](GemmArgs &x) { x.a = plus_one_byte(x.a); }, misaligned, {"a"}},
        {"b misaligned to its element", [](GemmArgs &x) { x.b = plus_one_byte(x.b); }, misaligned, {"b"}},
        {"c misaligned to its element", [](GemmArgs &x) { x.c = plus_one_byte(x.c); }, misaligned, {"c"}},
        {"d misaligned to its element",
         [](GemmArgs &x) { x.d = plus_one_byte(x.d); }, misaligned, {"d"}},
        {"f16 a misaligned to its element",
         [](GemmArgs &x) {
             x.type_a = x.type_b = ASYNCGEMM_R_16F;
             x.a = plus_one_byte(x.a);
         },
         misaligned, {"a"}},
        {"batch_count < 0", [](GemmArgs &x) { x.batch_count = -1; }, invalid, {"batch_count"}, true},
        {"stride_a < 0", [](GemmArgs &x) { x.stride_a = -1; }, invalid, {"stride_a"}, true},
        {"stride_d = 0: all batches write one D", [](GemmArgs &x) { x.stride_d = 0; }, invalid, {"stride_d"}, true},
        {"stride_d = 1: batches of D overlap", [](GemmArgs &x) { x.stride_d = 1; }, invalid, {"stride_d"}, true},
    };
    for (asyncgemm_algo_t algo : unavailable_gemm_algos(test_env().handle))
        bad.push_back({"unavailable algorithm " + algo_name(algo), [algo](GemmArgs &x) { x.algo = algo; },
                       ASYNCGEMM_STATUS_NOT_SUPPORTED, {}});
    return bad;
}

// Leading dimensions one short of the minimum, which depends on the order and the operand's op.
std::vector<BadArgument> short_leading_dimensions() {
    return {
        {"lda too small", [](GemmArgs &x) { --x.lda; }, ASYNCGEMM_STATUS_INVALID_VALUE, {"lda"}},
        {"ldb too small", [](GemmArgs &x) { --x.ldb; }, ASYNCGEMM_STATUS_INVALID_VALUE, {"ldb"}},
        {"ldc too small", [](GemmArgs &x) { --x.ldc; }, ASYNCGEMM_STATUS_INVALID_VALUE, {"ldc"}},
        {"ldd too small", [](GemmArgs &x) { --x.ldd; }, ASYNCGEMM_STATUS_INVALID_VALUE, {"ldd"}},
    };
}

void check_refused(Buffers &buffers, const GemmArgs &valid, const BadArgument &bad) {
    for (bool batched : {false, true}) {
        if (bad.batched_only && !batched) continue;
        GemmArgs args = valid;
        bad.spoil(args);
        INFO(bad.what << std::string(batched ? " (strided batched)" : " (gemm)") << ", " << order_name(valid.order)
                      << " op=" << op_name(valid.op_a) << op_name(valid.op_b));
        const asyncgemm_status_t status = call(args, batched);
        CHECK(std::string(asyncgemm_status_string(status)) == std::string(asyncgemm_status_string(bad.expected)));
        if (status != ASYNCGEMM_STATUS_SUCCESS) CHECK(check_last_error(bad.names) == "");
        CHECK(buffers.d_untouched() == "");
        if (status == ASYNCGEMM_STATUS_SUCCESS) buffers.poison_d();
    }
}

// The valid call must work before its spoiled copies are tried.
void require_valid(Buffers &buffers, const GemmArgs &valid) {
    INFO("the valid call, " << order_name(valid.order) << " op=" << op_name(valid.op_a) << op_name(valid.op_b));
    for (bool batched : {false, true}) {
        const asyncgemm_status_t status = call(valid, batched);
        REQUIRE_MESSAGE(status == ASYNCGEMM_STATUS_SUCCESS,
                        std::string(asyncgemm_status_string(status)) << ": " << std::string(asyncgemm_last_error()));
    }
    cuda_check(cudaDeviceSynchronize(), "the valid call");
    buffers.poison_d();
}

// The valid call as asyncgemm_matmul's descriptor.
asyncgemm_matmul_desc_t desc_of(const GemmArgs &x) {
    asyncgemm_matmul_desc_t desc;
    asyncgemm_matmul_desc_init(&desc);
    desc.order = x.order, desc.op_a = x.op_a, desc.op_b = x.op_b;
    desc.m = x.m, desc.n = x.n, desc.k = x.k, desc.batch_count = x.batch_count;
    desc.alpha = x.alpha, desc.beta = x.beta;
    desc.a = x.a, desc.type_a = x.type_a, desc.lda = x.lda, desc.stride_a = x.stride_a;
    desc.b = x.b, desc.type_b = x.type_b, desc.ldb = x.ldb, desc.stride_b = x.stride_b;
    desc.c = x.c, desc.type_c = x.type_c, desc.ldc = x.ldc, desc.stride_c = x.stride_c;
    desc.d = x.d, desc.type_d = x.type_d, desc.ldd = x.ldd, desc.stride_d = x.stride_d;
    desc.algo = x.algo;
    return desc;
}

}  // namespace

TEST_SUITE("gemm_errors") {

TEST_CASE("each invalid argument is refused by name and leaves D untouched") {
    Buffers buffers;
    const GemmArgs valid = valid_args(buffers, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N);
    require_valid(buffers, valid);
    for (const BadArgument &bad : general_bad_arguments(buffers)) check_refused(buffers, valid, bad);
}

TEST_CASE("the validation table through AUTO and every forced algorithm") {
    // Validation comes before any family's own refusals: an algorithm named explicitly refuses a bad
    // argument as AUTO does, by name, with D untouched.
    Buffers buffers;
    for (asyncgemm_algo_t algo : available_gemm_algos(test_env().handle)) {
        INFO("algorithm " << algo_name(algo));
        const GemmArgs valid = valid_f16_args(buffers, algo);
        require_valid(buffers, valid);
        for (const BadArgument &bad : general_bad_arguments(buffers)) {
            if (bad.what == "unknown algo" || bad.what.rfind("unavailable algorithm", 0) == 0) continue;
            check_refused(buffers, valid, bad);
        }
        for (const BadArgument &bad : short_leading_dimensions()) check_refused(buffers, valid, bad);
    }
}

TEST_CASE("leading dimensions one short of the minimum, for every order and op") {
    Buffers buffers;
    for (asyncgemm_order_t order : {ASYNCGEMM_ORDER_ROW, ASYNCGEMM_ORDER_COL})
        for (asyncgemm_op_t op_a : {ASYNCGEMM_OP_N, ASYNCGEMM_OP_T})
            for (asyncgemm_op_t op_b : {ASYNCGEMM_OP_N, ASYNCGEMM_OP_T}) {
                const GemmArgs valid = valid_args(buffers, order, op_a, op_b);
                require_valid(buffers, valid);
                for (const BadArgument &bad : short_leading_dimensions()) check_refused(buffers, valid, bad);
            }
}

TEST_CASE("bad math modes and availability queries") {
    asyncgemm_handle_t handle = test_env().handle;
    CHECK(asyncgemm_set_math_mode(handle, static_cast<asyncgemm_math_t>(7)) == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"mode"}) == "");
    CHECK(asyncgemm_set_math_mode(nullptr, ASYNCGEMM_MATH_DEFAULT) == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"handle"}) == "");
    CHECK(asyncgemm_algo_available(handle, ASYNCGEMM_ALGO_SIMT, nullptr) == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"available"}) == "");
    int available = -1;
    CHECK(asyncgemm_algo_available(handle, static_cast<asyncgemm_algo_t>(99), &available) ==
          ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"algo"}) == "");
    CHECK(available == -1);
    CHECK(asyncgemm_algo_available(handle, ASYNCGEMM_ALGO_AUTO, &available) == ASYNCGEMM_STATUS_SUCCESS);
    CHECK(available == 1);
}

TEST_CASE("asyncgemm_matmul refuses a bad descriptor by name and leaves D untouched") {
    Buffers buffers;
    const GemmArgs args = valid_f16_args(buffers, ASYNCGEMM_ALGO_AUTO);
    const asyncgemm_matmul_desc_t valid = desc_of(args);
    REQUIRE(asyncgemm_matmul(args.handle, &valid, nullptr) == ASYNCGEMM_STATUS_SUCCESS);
    cuda_check(cudaDeviceSynchronize(), "the valid descriptor");
    buffers.poison_d();
    const auto invalid = ASYNCGEMM_STATUS_INVALID_VALUE, unsupported = ASYNCGEMM_STATUS_NOT_SUPPORTED;
    struct Bad {
        const char *what;
        std::function<void(asyncgemm_matmul_desc_t &)> spoil;
        asyncgemm_status_t expected;
        const char *names;
    };
    std::vector<Bad> bad = {
        {"struct_size of no version", [](asyncgemm_matmul_desc_t &d) { d.struct_size = 16; }, invalid,
         "desc->struct_size"},
        {"lda one short", [](asyncgemm_matmul_desc_t &d) { d.lda -= 1; }, invalid, "desc->lda"},
        {"bias NULL with PER_COL", [](asyncgemm_matmul_desc_t &d) { d.bias_mode = ASYNCGEMM_BIAS_PER_COL; }, invalid,
         "desc->bias"},
        {"unknown activation", [](asyncgemm_matmul_desc_t &d) { d.activation = static_cast<asyncgemm_activation_t>(9); },
         invalid, "desc->activation"},
        {"a scale of 16-bit A", [](asyncgemm_matmul_desc_t &d) { d.scale_mode_a = ASYNCGEMM_SCALE_TENSOR; }, invalid,
         "desc->scale_mode_a"},
        {"bf16 bias of f16 D",
         [&](asyncgemm_matmul_desc_t &d) {
             d.bias_mode = ASYNCGEMM_BIAS_PER_ROW, d.bias = buffers.c.get(), d.type_bias = ASYNCGEMM_R_16BF;
         },
         unsupported, "desc->type_bias"},
        {"e4m3 inputs with MX scales on A alone",
         [&](asyncgemm_matmul_desc_t &d) {
             d.type_a = d.type_b = ASYNCGEMM_R_8F_E4M3, d.scale_mode_a = ASYNCGEMM_SCALE_MX_32, d.scale_a = buffers.c.get();
         },
         unsupported, "desc->scale_mode_b"},
        {"e4m3 inputs with NULL block scales",
         [](asyncgemm_matmul_desc_t &d) {
             d.type_a = d.type_b = ASYNCGEMM_R_8F_E4M3, d.scale_mode_a = ASYNCGEMM_SCALE_BLOCK_1x128;
         },
         invalid, "desc->scale_a"},
        {"e4m3 inputs with a NULL tensor scale",
         [](asyncgemm_matmul_desc_t &d) {
             d.type_a = d.type_b = ASYNCGEMM_R_8F_E4M3, d.scale_mode_b = ASYNCGEMM_SCALE_TENSOR;
         },
         invalid, "desc->scale_b"},
        {"e4m3 by bf16",
         [](asyncgemm_matmul_desc_t &d) { d.type_a = ASYNCGEMM_R_8F_E4M3, d.type_b = ASYNCGEMM_R_16BF; }, invalid,
         "desc->type_b"},
    };
    // The Hopper 8-bit kernels apply block scales to K-major inputs (of either format each); the valid
    // call's B is MN-major (row-major, op_b N).  SIMT takes any.
    int sm90 = 0;
    REQUIRE(asyncgemm_algo_available(args.handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, &sm90) == ASYNCGEMM_STATUS_SUCCESS);
    if (sm90 != 0) {
        bad.push_back({"block-scaled e4m3 by e5m2 with MN-major B forced on SM90_TMA_WGMMA",
                       [&](asyncgemm_matmul_desc_t &d) {
                           d.type_a = ASYNCGEMM_R_8F_E4M3, d.type_b = ASYNCGEMM_R_8F_E5M2;
                           d.scale_mode_b = ASYNCGEMM_SCALE_BLOCK_128x128, d.scale_b = buffers.c.get();
                           d.algo = ASYNCGEMM_ALGO_SM90_TMA_WGMMA;
                       },
                       unsupported, "block scales to K-major 8-bit inputs only"});
    }
    for (const Bad &b : bad) {
        INFO(b.what);
        asyncgemm_matmul_desc_t desc = valid;
        b.spoil(desc);
        const asyncgemm_status_t status = asyncgemm_matmul(args.handle, &desc, nullptr);
        CHECK(std::string(asyncgemm_status_string(status)) == std::string(asyncgemm_status_string(b.expected)));
        CHECK(check_last_error({b.names}) == "");
        CHECK(buffers.d_untouched() == "");
    }
    // The descriptor's own validation comes before any family's: every algorithm named refuses the
    // invalid ones as AUTO does.
    for (asyncgemm_algo_t algo : available_gemm_algos(args.handle))
        for (const Bad &b : bad) {
            if (b.expected != invalid) continue;
            INFO(b.what << ", " << algo_name(algo));
            asyncgemm_matmul_desc_t desc = valid;
            b.spoil(desc);
            desc.algo = algo;
            CHECK(asyncgemm_matmul(args.handle, &desc, nullptr) == invalid);
            CHECK(check_last_error({b.names}) == "");
            CHECK(buffers.d_untouched() == "");
        }
    // A later version's descriptor with one of its fields set: this library cannot honour it.
    std::vector<unsigned char> later(sizeof valid + 24, 0);
    asyncgemm_matmul_desc_t grown = valid;
    grown.struct_size = later.size();
    memcpy(later.data(), &grown, sizeof grown);
    later[sizeof valid + 5] = 1;
    CHECK(asyncgemm_matmul(args.handle, reinterpret_cast<const asyncgemm_matmul_desc_t *>(later.data()), nullptr) ==
          invalid);
    CHECK(check_last_error({"desc"}) == "");
    CHECK(buffers.d_untouched() == "");
    CHECK(asyncgemm_matmul(args.handle, nullptr, nullptr) == invalid);
    CHECK(check_last_error({"desc"}) == "");
    CHECK(asyncgemm_matmul(nullptr, &valid, nullptr) == invalid);
    CHECK(check_last_error({"handle"}) == "");
}

}  // TEST_SUITE("gemm_errors")
