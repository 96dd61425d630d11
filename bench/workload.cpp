#include "workload.h"

#include <cctype>
#include <limits>
#include <stdexcept>

#include "enums.h"

namespace bench {

namespace {

constexpr int64_t kMaxDimension = std::numeric_limits<int32_t>::max();

// 2^38 elements is 1 TiB of f32, beyond any GPU; the bound keeps every byte count of the benchmark,
// sums of a few matrices included, far inside size_t.
constexpr int64_t kMaxMatrixElements = int64_t(1) << 38;

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == separator) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

int64_t parse_dimension(const std::string &text, const std::string &spec) {
    bool digits_only = !text.empty() && text.size() <= 10;
    for (char c : text) digits_only = digits_only && std::isdigit(static_cast<unsigned char>(c));
    const int64_t value = digits_only ? std::stoll(text) : 0;
    if (value < 1 || value > kMaxDimension)
        throw std::invalid_argument("workload '" + spec + "': dimension '" + text +
                                    "' is not an integer in [1, 2^31-1]");
    return value;
}

// "tf32" is f32 data in TF32 math.
asyncgemm_dtype_t parse_dtype(const std::string &text, const std::string &spec) {
    if (text == "tf32") return ASYNCGEMM_R_32F;
    for (asyncgemm_dtype_t dtype : {ASYNCGEMM_R_32F, ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF})
        if (text == dtype_name(dtype)) return dtype;
    throw std::invalid_argument("workload '" + spec + "': dtype '" + text +
                                "' is not one of f16, bf16, f32, tf32");
}

asyncgemm_op_t parse_op(char letter, const std::string &spec) {
    switch (std::toupper(static_cast<unsigned char>(letter))) {
    case 'N': return ASYNCGEMM_OP_N;
    case 'T': return ASYNCGEMM_OP_T;
    }
    throw std::invalid_argument("workload '" + spec + "': ops must be two letters N or T (NN, NT, TN, TT)");
}

}  // namespace

std::string describe(const GemmWorkload &w) {
    return std::to_string(w.m) + "x" + std::to_string(w.n) + "x" + std::to_string(w.k) + " " +
           (w.tf32 ? "tf32" : dtype_name(w.dtype)) + " " + op_letter(w.op_a) + op_letter(w.op_b);
}

GemmWorkload parse_workload(const std::string &spec) {
    const std::vector<std::string> fields = split(spec, ':');
    if (fields.size() != 3)
        throw std::invalid_argument("workload '" + spec + "' is not MxNxK:dtype:ops (4096x4096x4096:f16:NN)");
    const std::vector<std::string> dims = split(fields[0], 'x');
    if (dims.size() != 3)
        throw std::invalid_argument("workload '" + spec + "': '" + fields[0] + "' is not MxNxK");
    if (fields[2].size() != 2)
        throw std::invalid_argument("workload '" + spec + "': ops must be two letters N or T (NN, NT, TN, TT)");

    GemmWorkload w;
    w.m = parse_dimension(dims[0], spec);
    w.n = parse_dimension(dims[1], spec);
    w.k = parse_dimension(dims[2], spec);
    w.dtype = parse_dtype(fields[1], spec);
    w.tf32 = fields[1] == "tf32";
    w.op_a = parse_op(fields[2][0], spec);
    w.op_b = parse_op(fields[2][1], spec);
    for (int64_t elements : {w.a_elements(), w.b_elements(), w.d_elements()})
        if (elements > kMaxMatrixElements)
            throw std::invalid_argument("workload '" + spec + "' has a matrix of more than 2^38 elements");
    return w;
}

std::vector<GemmWorkload> default_workloads() {
    return {
        {4096, 4096, 4096, ASYNCGEMM_R_16F, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N},
        {1024, 1024, 14336, ASYNCGEMM_R_16F, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N},
        {2048, 2048, 256, ASYNCGEMM_R_32F, ASYNCGEMM_OP_N, ASYNCGEMM_OP_T},
        {4096, 4096, 4096, ASYNCGEMM_R_32F, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N},
    };
}

}  // namespace bench
