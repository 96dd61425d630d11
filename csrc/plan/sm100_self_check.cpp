// ALGO_SM100_TCGEN05's self-check on the GPU: the problems, their inputs, the two runs of each and
// their comparison (see sm100_self_check.h).
#include "plan/sm100_self_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <stdio.h>
#include <string.h>

#include <optional>
#include <random>
#include <string>

#include "driver/context_scope.h"
#include "driver/device_buffer.h"
#include "driver/driver.h"
#include "driver/errors.h"
#include "driver/stream_drain.h"
#include "kernels/common/mx_scale.h"
#include "plan/matrix_extent.h"
#include "plan/simt_plan.h"
#include "plan/sm100_plan.h"
#include "plan/sm80_plan.h"

namespace asyncgemm::plan {
namespace {

// Any fixed value: the same inputs on every run and device, so a failure can be reproduced.
constexpr uint32_t kSeed = 0x5e1fc4ecu;

// Leading dimensions are multiples of this many elements (16 bytes of 16-bit elements, 32 of f32;
// 16 bytes of 8-bit elements).
int64_t ld_multiple(asyncgemm_dtype_t type) { return dtype_size(type) == 1 ? 16 : 8; }

// The tensor scales of a scaled problem: powers of two, so the scaled products stay exact.
constexpr float kScales[2] = {0.5f, 2.0f};

int64_t round_up(int64_t value, int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// The largest relative error (Frobenius norm, against the reference family) a correct kernel stays
// under, with room to spare; a wrong tile, K-block, operand layout or C scaling gives 1e-1 or more.
double tolerance(const SelfCheckProblem &problem) {
    // tf32 keeps 10 of f32's 23 mantissa bits of every input (tcgen05 kind::tf32 truncates or rounds
    // them), and the reference (SIMT) multiplies in exact fp32: simulating these problems in double
    // precision gives 7e-4 with truncation, 3e-4 with rounding.
    if (problem.type_ab == ASYNCGEMM_R_32F) return 5e-3;
    // 8-bit products are exact; kind::f8f6f4 may sum them with fewer bits than fp32 (Hopper's 8-bit
    // wgmma does: 4e-3 of max |D| at K = 4096), against SIMT's exact fp32 sums.
    if (is_eight_bit(problem.type_ab)) return 2e-2;
    // Both families multiply the same 16-bit values exactly and add in fp32; only the order of the
    // additions differs, about sqrt(k) * 2^-24 ~ 1e-6 relative at these K.  A single wrong element of
    // an f32 output already shows as ~1 / sqrt(m * n) > 4e-3 here.
    if (problem.type_cd == ASYNCGEMM_R_32F) return 1e-3;
    // The same fp32 sums, each rounded to f16 (2^-11) or bf16 (2^-8): the families round differently
    // only where their sums straddle a rounding boundary, a few elements by one unit, ~1e-5 overall.
    return 1e-2;
}

asyncgemm_algo_t reference_algo(const SelfCheckProblem &problem) {
    return problem.type_ab == ASYNCGEMM_R_32F || is_eight_bit(problem.type_ab) ? ASYNCGEMM_ALGO_SIMT
                                                                            : ASYNCGEMM_ALGO_PIPELINED;
}

// As asyncgemm-bench spells them (act=).
const char *activation_text(asyncgemm_activation_t activation) {
    switch (activation) {
    case ASYNCGEMM_ACT_NONE: return "none";
    case ASYNCGEMM_ACT_RELU: return "relu";
    case ASYNCGEMM_ACT_GELU_TANH: return "gelu";
    case ASYNCGEMM_ACT_GELU_ERF: return "gelu_erf";
    case ASYNCGEMM_ACT_SILU: return "silu";
    }
    return "unknown";
}

std::string number(float value) {
    char text[32];
    snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

// "f16 row N/N (A K-major, B MN-major) 200x136x520 alpha=1 beta=1 f32 C/D against
// ASYNCGEMM_ALGO_PIPELINED": the call and its canonical operand majors.
std::string describe(const SelfCheckProblem &problem, const GemmParams &canonical) {
    const auto op = [](asyncgemm_op_t o) { return o == ASYNCGEMM_OP_N ? "N" : "T"; };
    const auto major = [](int32_t k_major) { return k_major ? "K" : "MN"; };
    std::string text = std::string(dtype_name(problem.type_ab)) + (problem.type_ab == ASYNCGEMM_R_32F ? " (tf32)" : "") +
                       (problem.order == ASYNCGEMM_ORDER_ROW ? " row " : " col ") + op(problem.op_a) + "/" +
                       op(problem.op_b) + " (A " + major(canonical.a_k_major) + "-major, B " +
                       major(canonical.b_k_major) + "-major) " + std::to_string(problem.m) + "x" +
                       std::to_string(problem.n) + "x" + std::to_string(problem.k);
    if (problem.batch_count > 1) text += " batch " + std::to_string(problem.batch_count);
    if (problem.scaled) text += " scales " + number(kScales[0]) + ", " + number(kScales[1]);
    if (problem.mx) text += " MX scales";
    if (problem.bias != ASYNCGEMM_BIAS_NONE)
        text += problem.bias == ASYNCGEMM_BIAS_PER_ROW ? " bias per row" : " bias per column";
    if (problem.activation != ASYNCGEMM_ACT_NONE)
        text += std::string(" act=") + activation_text(problem.activation);
    return text + " alpha=" + number(problem.alpha) + " beta=" + number(problem.beta) + " " +
           dtype_name(problem.type_cd) + (problem.beta != 0.0f ? " C/D" : " D") + " against " +
           algo_name(reference_algo(problem));
}

// Uniform in [-1, 1) on a grid of 2^-23: exact in f32, rounded to nearest even in f16 and bf16.
float random_unit(std::mt19937 &rng) {
    return static_cast<float>(static_cast<int32_t>(rng() >> 8) - (1 << 23)) * 0x1p-23f;
}

// `count` random elements of `type`, laid out as on the device.
std::vector<unsigned char> random_elements(asyncgemm_dtype_t type, int64_t count, std::mt19937 &rng) {
    const size_t size = dtype_size(type);
    std::vector<unsigned char> bytes(static_cast<size_t>(count) * size);
    for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
        const float value = random_unit(rng);
        if (type == ASYNCGEMM_R_32F) {
            memcpy(&bytes[i * size], &value, size);
        } else if (is_eight_bit(type)) {
            bytes[i] = __nv_cvt_float_to_fp8(value, __NV_SATFINITE, type == ASYNCGEMM_R_8F_E4M3 ? __NV_E4M3 : __NV_E5M2);
        } else {
            const uint16_t bits = type == ASYNCGEMM_R_16F ? __half_raw(__float2half_rn(value)).x
                                                           : __nv_bfloat16_raw(__float2bfloat16_rn(value)).x;
            memcpy(&bytes[i * size], &bits, size);
        }
    }
    return bytes;
}

// The MX scales of `batches` problems of an operand of `extent` rows (columns of B): UE8M0 bytes
// 124 .. 130 (2^-3 .. 2^3).
std::vector<unsigned char> mx_scales(int64_t extent, int64_t k, int64_t batches, std::mt19937 &rng) {
    std::vector<unsigned char> bytes(static_cast<size_t>(mx_scale_bytes(extent, k) * batches));
    for (unsigned char &byte : bytes) byte = static_cast<unsigned char>(124 + rng() % 7);
    return bytes;
}

// The element of `type` at `bytes`, exactly (every element type widens to double without loss).
double element_value(asyncgemm_dtype_t type, const unsigned char *bytes) {
    if (type == ASYNCGEMM_R_32F) {
        float value;
        memcpy(&value, bytes, sizeof value);
        return value;
    }
    uint16_t bits;
    memcpy(&bits, bytes, sizeof bits);
    if (type == ASYNCGEMM_R_16F) {
        __half_raw raw;
        raw.x = bits;
        return __half2float(__half(raw));
    }
    const uint32_t widened = static_cast<uint32_t>(bits) << 16;  // bf16 is the top half of an f32
    float value;
    memcpy(&value, &widened, sizeof value);
    return value;
}

// The m x n elements of every batch of D, from a copy of its whole buffer; padding is skipped.
std::vector<double> output_values(const GemmArgs &args, const std::vector<unsigned char> &d) {
    const size_t size = dtype_size(args.type_d);
    const MatrixExtent extent = storage_extent(args.order, ASYNCGEMM_OP_N, args.m, args.n, size);
    std::vector<double> values;
    values.reserve(static_cast<size_t>(args.batch_count * extent.lines * extent.contiguous));
    for (int64_t batch = 0; batch < args.batch_count; ++batch)
        for (int64_t line = 0; line < extent.lines; ++line)
            for (int64_t i = 0; i < extent.contiguous; ++i) {
                const int64_t element = batch * args.stride_d + line * args.ldd + i;
                values.push_back(element_value(args.type_d, &d[static_cast<size_t>(element) * size]));
            }
    return values;
}

void upload(const DriverApi &api, const DeviceBuffer &device, const std::vector<unsigned char> &host, CUstream stream) {
    check(api.cuMemcpyHtoDAsync(device.address(), host.data(), host.size(), stream), "cuMemcpyHtoDAsync");
}

void download(const DriverApi &api, std::vector<unsigned char> &host, const DeviceBuffer &device, CUstream stream) {
    check(api.cuMemcpyDtoHAsync(host.data(), device.address(), host.size(), stream), "cuMemcpyDtoHAsync");
}

// All-ones bytes are a NaN in f32, f16 and bf16 alike: an element the launch never writes stays one.
void poison(const DriverApi &api, const DeviceBuffer &device, size_t bytes, CUstream stream) {
    check(api.cuMemsetD32Async(device.address(), 0xFFFFFFFFu, bytes / 4, stream), "cuMemsetD32Async");
}

SelfCheckOutcome check_problem(const Handle &handle, const SelfCheckProblem &problem, std::mt19937 &rng,
                               CUstream stream) {
    GemmArgs args = self_check_args(problem);
    // Pointers from cuMemAlloc are 256-byte aligned, so the null ones of `args` stand for them here.
    const GemmParams layout = canonicalize(args);
    const std::string name = describe(problem, layout);
    const std::string obstacle = sm100_tma_obstacle(layout);
    if (!sm100_supports(layout, ASYNCGEMM_MATH_TF32) || !obstacle.empty())
        return {false, name + ": the family does not serve it" + (obstacle.empty() ? "" : " (" + obstacle + ")")};
    const asyncgemm_algo_t reference = reference_algo(problem);
    if (!handle.family_available(reference == ASYNCGEMM_ALGO_SIMT ? Family::Simt : Family::Sm80))
        return {false, name + ": " + algo_name(reference) + " has no kernels for this device in this build"};

    const std::vector<unsigned char> a = random_elements(args.type_a, args.stride_a * args.batch_count, rng);
    const std::vector<unsigned char> b = random_elements(args.type_b, args.stride_b * args.batch_count, rng);
    const std::vector<unsigned char> c =
        random_elements(args.type_c, problem.beta != 0.0f ? args.stride_c * args.batch_count : 0, rng);
    // Whole 32-bit words, for the poisoning memset.
    const size_t d_bytes =
        static_cast<size_t>(round_up(args.stride_d * args.batch_count * static_cast<int64_t>(dtype_size(args.type_d)), 4));
    std::vector<unsigned char> tested_d(d_bytes), reference_d(d_bytes);

    const DriverApi &api = driver();
    const DeviceBuffer a_device(api, static_cast<int64_t>(a.size())), b_device(api, static_cast<int64_t>(b.size()));
    std::optional<DeviceBuffer> c_device;
    if (!c.empty()) c_device.emplace(api, static_cast<int64_t>(c.size()));
    const DeviceBuffer tested_device(api, static_cast<int64_t>(d_bytes)), reference_device(api, static_cast<int64_t>(d_bytes));
    const DeviceBuffer scales_device(api, static_cast<int64_t>(sizeof kScales));
    // MX scales of every batch of A and B, padding included: 2^-3 .. 2^3, exact in every product.
    const std::vector<unsigned char> mx_a = problem.mx ? mx_scales(problem.m, problem.k, problem.batch_count, rng)
                                                       : std::vector<unsigned char>{};
    const std::vector<unsigned char> mx_b = problem.mx ? mx_scales(problem.n, problem.k, problem.batch_count, rng)
                                                       : std::vector<unsigned char>{};
    std::optional<DeviceBuffer> mx_a_device, mx_b_device;
    const int64_t bias_length = problem.bias == ASYNCGEMM_BIAS_PER_ROW ? problem.m : problem.n;
    const std::vector<unsigned char> bias = random_elements(
        args.type_d, problem.bias != ASYNCGEMM_BIAS_NONE ? bias_length * problem.batch_count : 0, rng);
    std::optional<DeviceBuffer> bias_device;
    if (!bias.empty()) bias_device.emplace(api, static_cast<int64_t>(bias.size()));
    const StreamDrain drain(api, stream);  // after the buffers: they outlive whatever is queued on them

    upload(api, a_device, a, stream);
    upload(api, b_device, b, stream);
    if (c_device) upload(api, *c_device, c, stream);
    if (problem.scaled) {
        check(api.cuMemcpyHtoDAsync(scales_device.address(), kScales, sizeof kScales, stream), "cuMemcpyHtoDAsync");
        args.scale_mode_a = args.scale_mode_b = ASYNCGEMM_SCALE_TENSOR;
        args.scale_a = scales_device.pointer();
        args.scale_b = static_cast<const float *>(scales_device.pointer()) + 1;
    }
    if (problem.mx) {
        mx_a_device.emplace(api, static_cast<int64_t>(mx_a.size()));
        mx_b_device.emplace(api, static_cast<int64_t>(mx_b.size()));
        upload(api, *mx_a_device, mx_a, stream);
        upload(api, *mx_b_device, mx_b, stream);
        args.scale_mode_a = args.scale_mode_b = ASYNCGEMM_SCALE_MX_32;
        args.scale_a = mx_a_device->pointer();
        args.scale_b = mx_b_device->pointer();
    }
    if (bias_device) {
        upload(api, *bias_device, bias, stream);
        args.bias_mode = problem.bias;
        args.bias = bias_device->pointer();
        args.type_bias = args.type_d;
        args.stride_bias = bias_length;
    }
    args.activation = problem.activation;
    poison(api, tested_device, d_bytes, stream);
    poison(api, reference_device, d_bytes, stream);
    args.a = a_device.pointer();
    args.b = b_device.pointer();
    args.c = c_device ? c_device->pointer() : nullptr;
    args.d = tested_device.pointer();
    launch_sm100(handle, canonicalize(args), stream);
    args.d = reference_device.pointer();
    if (reference == ASYNCGEMM_ALGO_SIMT)
        launch_simt(handle, canonicalize(args), 0, stream);
    else
        launch_sm80(handle, canonicalize(args), ASYNCGEMM_ALGO_PIPELINED, stream);
    download(api, tested_d, tested_device, stream);
    download(api, reference_d, reference_device, stream);
    check(api.cuStreamSynchronize(stream), "cuStreamSynchronize");
    return judge(name, output_values(args, tested_d), output_values(args, reference_d), tolerance(problem));
}

}  // namespace

const std::vector<SelfCheckProblem> &sm100_self_check_problems(Sm100Check check) {
    using P = SelfCheckProblem;
    constexpr auto row = ASYNCGEMM_ORDER_ROW, col = ASYNCGEMM_ORDER_COL;
    constexpr auto N = ASYNCGEMM_OP_N, T = ASYNCGEMM_OP_T;
    constexpr auto f32 = ASYNCGEMM_R_32F, f16 = ASYNCGEMM_R_16F, bf16 = ASYNCGEMM_R_16BF;
    constexpr auto e4m3 = ASYNCGEMM_R_8F_E4M3, e5m2 = ASYNCGEMM_R_8F_E5M2;
    // Canonical majors (A, B) in the comments.  Most sizes leave ragged edges on 128-wide tiles and on
    // 64- or 32-deep K-blocks.
    static const std::vector<SelfCheckProblem> problems{
        P{f16, f32, row, N, N, 200, 136, 520, 1, 1.0f, 1.0f},     // K, MN: C seeded into the accumulator as is
        P{f16, f32, row, T, N, 130, 260, 136, 1, 2.0f, 0.5f},     // MN, MN: C seeded, scaled by beta / alpha
        P{bf16, bf16, row, T, T, 128, 128, 256, 1, 1.0f, 0.0f},   // MN, K: whole tiles, no C
        P{f16, f16, col, N, T, 72, 200, 64, 1, 1.0f, -1.0f},      // MN, MN: f16 C, applied in the epilogue
        P{bf16, f32, row, N, T, 96, 64, 192, 3, 1.0f, 0.0f},      // K, K: a batch
        P{f32, f32, row, N, T, 136, 144, 96, 1, 1.0f, 0.25f},     // K, K: tf32, C seeded
        P{f32, f32, row, T, N, 136, 144, 96, 1, 1.0f, 0.25f},     // MN, MN: tf32, C seeded
        // kind::f8f6f4, K-major alone: 128-deep K-blocks, ragged; tensor scales; C seeded and not.
        P{e4m3, bf16, row, N, T, 200, 136, 520, 1, 1.0f, 0.0f, true},  // K, K: scaled
        P{e5m2, f32, row, N, T, 96, 264, 384, 2, 1.5f, 1.0f},          // K, K: a batch, C seeded
        P{e4m3, f16, col, T, N, 130, 72, 256, 1, 1.0f, -1.0f, true},   // K, K: scaled, f16 C
        // The fused epilogue after C seeded and after C applied in the epilogue, over ragged edges.
        P{bf16, f32, row, N, T, 136, 200, 192, 2, 1.5f, 0.5f, false, false, ASYNCGEMM_BIAS_PER_COL,
          ASYNCGEMM_ACT_GELU_TANH},  // K, K: C seeded, a batch with a bias each
        P{f16, f16, col, N, T, 200, 72, 136, 1, 1.0f, -1.0f, false, false, ASYNCGEMM_BIAS_PER_COL,
          ASYNCGEMM_ACT_SILU},  // MN, MN: f16 C, the bias along canonical rows
    };
    // kind::mxf8f6f4.block_scale: ragged tiles and K tiles, a batch, C seeded and not.
    static const std::vector<SelfCheckProblem> mx_problems{
        P{e4m3, bf16, row, N, T, 200, 136, 520, 1, 1.0f, 0.0f, false, true},  // K, K
        P{e5m2, f32, col, T, N, 130, 264, 384, 2, 1.5f, 1.0f, false, true},   // K, K: a batch, C seeded
    };
    return check == Sm100Check::Family ? problems : mx_problems;
}

GemmArgs self_check_args(const SelfCheckProblem &problem) {
    GemmArgs args;
    args.order = problem.order;
    args.op_a = problem.op_a;
    args.op_b = problem.op_b;
    args.m = problem.m;
    args.n = problem.n;
    args.k = problem.k;
    args.batch_count = problem.batch_count;
    args.alpha = problem.alpha;
    args.beta = problem.beta;
    args.type_a = args.type_b = problem.type_ab;
    args.type_c = args.type_d = problem.type_cd;
    const auto lay_out = [&](asyncgemm_op_t op, int64_t rows, int64_t cols, asyncgemm_dtype_t type, int64_t &ld,
                             int64_t &stride) {
        const MatrixExtent extent = storage_extent(problem.order, op, rows, cols, dtype_size(type));
        ld = round_up(extent.contiguous, ld_multiple(type)) + ld_multiple(type);
        stride = extent.lines * ld;
    };
    lay_out(problem.op_a, problem.m, problem.k, problem.type_ab, args.lda, args.stride_a);
    lay_out(problem.op_b, problem.k, problem.n, problem.type_ab, args.ldb, args.stride_b);
    lay_out(ASYNCGEMM_OP_N, problem.m, problem.n, problem.type_cd, args.ldc, args.stride_c);
    lay_out(ASYNCGEMM_OP_N, problem.m, problem.n, problem.type_cd, args.ldd, args.stride_d);
    return args;
}

SelfCheckOutcome run_sm100_self_check(const Handle &handle, CUstream stream, Sm100Check check) {
    const ContextScope scope(driver(), handle.context());
    std::mt19937 rng(kSeed);
    for (const SelfCheckProblem &problem : sm100_self_check_problems(check)) {
        SelfCheckOutcome outcome = check_problem(handle, problem, rng, stream);
        if (!outcome.passed) return outcome;
    }
    return {true, ""};
}

}  // namespace asyncgemm::plan
