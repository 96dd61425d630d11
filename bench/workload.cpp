#include "workload.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "enums.h"

namespace bench {

namespace {

constexpr int64_t kMaxDimension = std::numeric_limits<int32_t>::max();

// 2^38 elements is 1 TiB of f32, beyond any GPU; the bound keeps every byte count of the benchmark,
// sums of a few matrices included, far inside size_t.
constexpr int64_t kMaxMatrixElements = int64_t(1) << 38;
constexpr int64_t kMaxPad = 1 << 16;

// A decimal integer in [low, high] filling the whole text, or a message naming `what`.
int64_t parse_integer(const std::string &text, int64_t low, int64_t high, const std::string &what,
                      const std::string &spec) {
    bool digits_only = !text.empty() && text.size() <= 10;
    for (char c : text) digits_only = digits_only && std::isdigit(static_cast<unsigned char>(c));
    const int64_t value = digits_only ? std::stoll(text) : -1;
    if (value < low || value > high)
        throw std::invalid_argument("workload '" + spec + "': " + what + " '" + text + "' is not an integer in [" +
                                    std::to_string(low) + ", " + std::to_string(high) + "]");
    return value;
}

// "tf32" is f32 data in TF32 math.
asyncgemm_dtype_t parse_dtype(const std::string &text, const std::string &spec) {
    if (text == "tf32") return ASYNCGEMM_R_32F;
    for (asyncgemm_dtype_t dtype : {ASYNCGEMM_R_32F, ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF, ASYNCGEMM_R_8F_E4M3,
                                    ASYNCGEMM_R_8F_E5M2})
        if (text == dtype_name(dtype)) return dtype;
    throw std::invalid_argument("workload '" + spec + "': dtype '" + text +
                                "' is not one of f16, bf16, f32, tf32, e4m3, e5m2");
}

// 8-bit floats are inputs only: their products go to bf16 unless out= says otherwise.
asyncgemm_dtype_t default_out(asyncgemm_dtype_t dtype) {
    return dtype == ASYNCGEMM_R_8F_E4M3 || dtype == ASYNCGEMM_R_8F_E5M2 ? ASYNCGEMM_R_16BF : dtype;
}

// 8-bit workloads take any ops and pads (on Hopper the library multiplies NT with 16-byte rows on the
// 8-bit tensor cores, NN and TN there on K-major 8-bit copies, and every other form on f16 copies;
// cuBLASLt's FP8 matmul, the reference, takes NT alone: README), and no epilogue of this benchmark's.
void check_fp8(const GemmWorkload &w, const std::string &spec) {
    if (w.has_epilogue())
        throw std::invalid_argument("workload '" + spec + "': " + dtype_name(w.dtype) + " takes no bias= or act=");
}

asyncgemm_op_t parse_op(char letter, const std::string &spec) {
    switch (std::toupper(static_cast<unsigned char>(letter))) {
    case 'N': return ASYNCGEMM_OP_N;
    case 'T': return ASYNCGEMM_OP_T;
    }
    throw std::invalid_argument("workload '" + spec + "': ops must be two letters N or T (NN, NT, TN, TT)");
}

float parse_beta(const std::string &text, const std::string &spec) {
    char *end = nullptr;
    const float value = std::strtof(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
        throw std::invalid_argument("workload '" + spec + "': beta '" + text + "' is not a finite number");
    return value;
}

constexpr asyncgemm_activation_t kActivations[] = {ASYNCGEMM_ACT_RELU, ASYNCGEMM_ACT_GELU_TANH,
                                                    ASYNCGEMM_ACT_GELU_ERF, ASYNCGEMM_ACT_SILU};

// row, col, row32, col32: the 32 asks for an f32 bias where D is 16-bit.
void parse_bias(const std::string &text, GemmWorkload &w, const std::string &spec) {
    const bool f32 = text.size() > 2 && text.compare(text.size() - 2, 2, "32") == 0;
    const std::string side = f32 ? text.substr(0, text.size() - 2) : text;
    if (side == "row") w.bias = ASYNCGEMM_BIAS_PER_ROW;
    else if (side == "col") w.bias = ASYNCGEMM_BIAS_PER_COL;
    else throw std::invalid_argument("workload '" + spec + "': bias '" + text + "' is not row, col, row32 or col32");
    w.bias_f32 = f32;
}

asyncgemm_activation_t parse_activation(const std::string &text, const std::string &spec) {
    for (asyncgemm_activation_t activation : kActivations)
        if (text == activation_text(activation)) return activation;
    throw std::invalid_argument("workload '" + spec + "': act '" + text + "' is not relu, gelu, gelu_erf or silu");
}

// Tensor scales are the default, and have no spelling.
bool parse_block_scales(const std::string &text, const std::string &spec) {
    if (text != "block")
        throw std::invalid_argument("workload '" + spec + "': scales '" + text +
                                    "' is not block (tensor scales are the default)");
    return true;
}

void parse_option(const std::string &option, GemmWorkload &w, bool &beta_given, const std::string &spec) {
    if (option == "inplace") {
        w.in_place = true;
        return;
    }
    const std::size_t equals = option.find('=');
    const std::string key = option.substr(0, equals);
    const std::string value = equals == std::string::npos ? std::string() : option.substr(equals + 1);
    if (equals == std::string::npos || value.empty())
        throw std::invalid_argument("workload '" + spec + "': option '" + option +
                                    "' is not b=N, out=TYPE, pad=P, beta=X, inplace, bias=B, act=F, "
                                    "scales=block or typeb=TYPE");
    if (key == "b") {
        w.batch = parse_integer(value, 1, kMaxDimension, "batch", spec);
    } else if (key == "out") {
        w.out = parse_dtype(value, spec);
        if (value == "tf32" || w.out == ASYNCGEMM_R_8F_E4M3 || w.out == ASYNCGEMM_R_8F_E5M2)
            throw std::invalid_argument("workload '" + spec + "': out is f32, f16 or bf16");
    } else if (key == "pad") {
        w.pad = parse_integer(value, 0, kMaxPad, "pad", spec);
    } else if (key == "beta") {
        w.beta = parse_beta(value, spec);
        beta_given = true;
    } else if (key == "bias") {
        parse_bias(value, w, spec);
    } else if (key == "act") {
        w.activation = parse_activation(value, spec);
    } else if (key == "scales") {
        w.block_scales = parse_block_scales(value, spec);
    } else if (key == "typeb") {
        w.b_other_format = true;
        if (!w.fp8() || parse_dtype(value, spec) != w.b_dtype())
            throw std::invalid_argument("workload '" + spec + "': typeb is the other 8-bit format of an e4m3 or "
                                        "e5m2 workload (e4m3 by e5m2: e4m3 with typeb=e5m2)");
    } else {
        throw std::invalid_argument("workload '" + spec + "': unknown option '" + key +
                                    "' (b=N, out=TYPE, pad=P, beta=X, inplace, bias=B, act=F, scales=block, "
                                    "typeb=TYPE)");
    }
}

std::string number_text(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(value));
    return text;
}

}  // namespace

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == separator) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

GemmWorkload gemm_workload(int64_t m, int64_t n, int64_t k, asyncgemm_dtype_t dtype, const char *ops) {
    GemmWorkload w;
    w.m = m, w.n = n, w.k = k;
    w.dtype = dtype;
    w.out = default_out(dtype);
    w.op_a = parse_op(ops[0], ops);
    w.op_b = parse_op(ops[1], ops);
    return w;
}

std::string describe(const GemmWorkload &w) {
    std::string text = std::to_string(w.m) + "x" + std::to_string(w.n) + "x" + std::to_string(w.k) + ":" +
                       (w.tf32 ? "tf32" : dtype_name(w.dtype)) + ":" + op_letter(w.op_a) + op_letter(w.op_b);
    if (w.batch != 1) text += ":b=" + std::to_string(w.batch);
    if (w.out != default_out(w.dtype)) text += std::string(":out=") + dtype_name(w.out);
    if (w.pad != 0) text += ":pad=" + std::to_string(w.pad);
    if (w.in_place) {
        text += ":inplace";
        if (w.beta != 1.0f) text += ":beta=" + number_text(w.beta);
    } else if (w.beta != 0.0f) {
        text += ":beta=" + number_text(w.beta);
    }
    if (w.bias != ASYNCGEMM_BIAS_NONE) text += ":bias=" + bias_text(w);
    if (w.activation != ASYNCGEMM_ACT_NONE) text += std::string(":act=") + activation_text(w.activation);
    if (w.block_scales) text += ":scales=block";
    if (w.b_other_format) text += std::string(":typeb=") + dtype_name(w.b_dtype());
    return text;
}

std::string bias_text(const GemmWorkload &w) {
    switch (w.bias) {
    case ASYNCGEMM_BIAS_PER_ROW: return w.bias_f32 ? "row32" : "row";
    case ASYNCGEMM_BIAS_PER_COL: return w.bias_f32 ? "col32" : "col";
    case ASYNCGEMM_BIAS_NONE: break;
    }
    return "";
}

const char *activation_text(asyncgemm_activation_t activation) {
    switch (activation) {
    case ASYNCGEMM_ACT_RELU: return "relu";
    case ASYNCGEMM_ACT_GELU_TANH: return "gelu";
    case ASYNCGEMM_ACT_GELU_ERF: return "gelu_erf";
    case ASYNCGEMM_ACT_SILU: return "silu";
    case ASYNCGEMM_ACT_NONE: break;
    }
    return "";
}

std::string type_text(const GemmWorkload &w) {
    if (w.tf32) return "tf32";
    const std::string a = dtype_name(w.dtype);
    return w.b_other_format ? a + "x" + dtype_name(w.b_dtype()) : a;
}

GemmWorkload parse_workload(const std::string &spec) {
    const std::vector<std::string> fields = split(spec, ':');
    if (fields.size() < 3)
        throw std::invalid_argument("workload '" + spec + "' is not MxNxK:dtype:ops[:option...] (4096x4096x4096:f16:NN)");
    const std::vector<std::string> dims = split(fields[0], 'x');
    if (dims.size() != 3) throw std::invalid_argument("workload '" + spec + "': '" + fields[0] + "' is not MxNxK");
    if (fields[2].size() != 2)
        throw std::invalid_argument("workload '" + spec + "': ops must be two letters N or T (NN, NT, TN, TT)");

    GemmWorkload w;
    w.m = parse_integer(dims[0], 1, kMaxDimension, "dimension", spec);
    w.n = parse_integer(dims[1], 1, kMaxDimension, "dimension", spec);
    w.k = parse_integer(dims[2], 1, kMaxDimension, "dimension", spec);
    w.dtype = parse_dtype(fields[1], spec);
    w.out = default_out(w.dtype);
    w.tf32 = fields[1] == "tf32";
    w.op_a = parse_op(fields[2][0], spec);
    w.op_b = parse_op(fields[2][1], spec);
    bool beta_given = false;
    for (std::size_t i = 3; i < fields.size(); ++i) parse_option(fields[i], w, beta_given, spec);
    if (w.in_place) {
        if (!beta_given) w.beta = 1.0f;
        if (w.beta == 0.0f) throw std::invalid_argument("workload '" + spec + "': inplace needs beta != 0");
    }
    if (w.block_scales && !w.fp8())
        throw std::invalid_argument("workload '" + spec + "': scales=block is for e4m3 and e5m2 alone");
    // The type pairs cublasGemmEx takes with fp32 accumulation: D of the input type, or f32 (any of
    // f16, bf16 and f32 for 8-bit inputs, as cuBLASLt's FP8 matmul takes them).
    if (w.fp8()) check_fp8(w, spec);
    else if (w.out != w.dtype && w.out != ASYNCGEMM_R_32F)
        throw std::invalid_argument("workload '" + spec + "': out must be f32 or the input type");
    // An f32 D's bias is f32 already: row32 is row there, and is written so.
    if (w.out == ASYNCGEMM_R_32F) w.bias_f32 = false;
    for (int64_t elements : {w.a_elements(), w.b_elements(), w.d_elements()})
        if (elements > kMaxMatrixElements)
            throw std::invalid_argument("workload '" + spec + "' has a matrix of more than 2^38 elements");
    return w;
}

SuiteEpilogue parse_fused_epilogue(const std::string &text) {
    GemmWorkload parsed;
    bool beta_given = false;
    const std::string spec = "--fuse " + text;
    for (const std::string &option : split(text, ':')) {
        const std::size_t equals = option.find('=');
        const std::string key = option.substr(0, equals);
        if ((key != "bias" && key != "act") || equals == std::string::npos || equals + 1 == option.size())
            throw std::invalid_argument("--fuse '" + text + "': '" + option + "' is not bias=B or act=F");
        parse_option(option, parsed, beta_given, spec);
    }
    return {parsed.bias, parsed.bias_f32, parsed.activation};
}

GemmWorkload with_epilogue(GemmWorkload w, const SuiteEpilogue &epilogue) {
    // The fp8 suite's bf16 rows are the 8-bit rows' twins, compared with them as they are.
    if (w.has_epilogue() || w.fp8() || w.suite == "fp8") return w;
    w.bias = epilogue.bias;
    // An f32 D's bias is f32 already, as parse_workload writes it.
    w.bias_f32 = epilogue.bias_f32 && w.out != ASYNCGEMM_R_32F;
    w.activation = epilogue.activation;
    return w;
}

std::vector<GemmWorkload> default_workloads() {
    return {
        gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_16F, "NN"),
        gemm_workload(1024, 1024, 14336, ASYNCGEMM_R_16F, "NN"),
        gemm_workload(2048, 2048, 256, ASYNCGEMM_R_32F, "NT"),
        gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_32F, "NN"),
    };
}

}  // namespace bench
