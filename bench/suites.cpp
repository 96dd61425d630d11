#include "suites.h"

namespace bench {

namespace {

// The projections of a transformer block as y = x·Wᵀ (x: tokens x hidden, W: out x in, row-major):
// m = tokens, n = out, k = in.  q, k and v are one fused projection, as are gate and up.
struct Projection {
    const char *name;
    int64_t out, in;
};
struct Model {
    const char *name;
    std::vector<Projection> projections;
};

// Llama-3-8B: hidden 4096, 32 query and 8 key/value heads of 128, MLP 14336, vocabulary 128256.
const Model kLlama3_8B{"Llama-3-8B", {{"qkv", 6144, 4096}, {"o", 4096, 4096}, {"gate_up", 28672, 4096},
                                     {"down", 4096, 14336}}};
// Llama-3-70B: hidden 8192, 64 query and 8 key/value heads of 128, MLP 28672.
const Model kLlama3_70B{"Llama-3-70B", {{"qkv", 10240, 8192}, {"o", 8192, 8192}, {"gate_up", 57344, 8192},
                                       {"down", 8192, 28672}}};
// Qwen2.5-7B: hidden 3584, 28 query and 4 key/value heads of 128, MLP 18944.
const Model kQwen25_7B{"Qwen2.5-7B", {{"qkv", 4608, 3584}, {"gate_up", 37888, 3584}, {"down", 3584, 18944}}};
constexpr int64_t kLlama3Vocabulary = 128256;

GemmWorkload labelled(GemmWorkload w, std::string label) {
    w.label = std::move(label);
    return w;
}

// y = x·Wᵀ for each projection of the model at each token count.
void add_projections(std::vector<GemmWorkload> &out, const Model &model, std::initializer_list<int64_t> tokens) {
    for (const Projection &p : model.projections)
        for (int64_t t : tokens)
            out.push_back(labelled(gemm_workload(t, p.out, p.in, ASYNCGEMM_R_16BF, "NT"),
                                   std::string(model.name) + " " + p.name + ", " + std::to_string(t) + " tokens"));
}

std::vector<GemmWorkload> llm_prefill() {
    std::vector<GemmWorkload> w;
    add_projections(w, kLlama3_8B, {128, 512, 2048, 8192});
    add_projections(w, kLlama3_70B, {128, 1024, 4096});
    add_projections(w, kQwen25_7B, {256, 2048});
    return w;
}

std::vector<GemmWorkload> llm_decode() {
    std::vector<GemmWorkload> w;
    add_projections(w, kLlama3_8B, {1, 4, 16, 64});
    add_projections(w, kLlama3_70B, {1, 16});
    for (int64_t t : {1, 16})
        w.push_back(labelled(gemm_workload(t, kLlama3Vocabulary, 4096, ASYNCGEMM_R_16BF, "NT"),
                             "Llama-3-8B lm_head, " + std::to_string(t) + " tokens"));
    return w;
}

// The backward products of y = x·Wᵀ: dX = dY·W (m = tokens, n = in, k = out) and dW = dYᵀ·X
// (m = out, n = in, k = tokens; dY is stored tokens x out, so A is transposed).
std::vector<GemmWorkload> training() {
    std::vector<GemmWorkload> w;
    const auto add = [&](const Model &model, const Projection &p, int64_t tokens) {
        const std::string where = std::string(model.name) + " " + p.name + ", " + std::to_string(tokens) + " tokens";
        w.push_back(labelled(gemm_workload(tokens, p.in, p.out, ASYNCGEMM_R_16BF, "NN"), "dX " + where));
        w.push_back(labelled(gemm_workload(p.out, p.in, tokens, ASYNCGEMM_R_16BF, "TN"), "dW " + where));
    };
    for (const Projection &p : kLlama3_8B.projections) add(kLlama3_8B, p, 4096);
    add(kLlama3_70B, kLlama3_70B.projections[0], 4096);
    add(kLlama3_70B, kLlama3_70B.projections[3], 4096);
    return w;
}

GemmWorkload batched(int64_t batch, int64_t m, int64_t n, int64_t k, const char *ops, std::string label) {
    GemmWorkload w = gemm_workload(m, n, k, ASYNCGEMM_R_16BF, ops);
    w.batch = batch;
    return labelled(w, std::move(label));
}

// Attention's two products per head (S = Q·Kᵀ, O = P·V) over a batch of heads, and a mixture of
// experts' projections over equal groups of tokens.
std::vector<GemmWorkload> batched_products() {
    std::vector<GemmWorkload> w;
    for (int64_t seq : {512, 1024, 2048, 4096}) {
        const std::string where = std::to_string(seq) + " tokens, 32 heads of 128";
        w.push_back(batched(32, seq, seq, 128, "NT", "attention Q·Kᵀ, " + where));
        w.push_back(batched(32, seq, 128, seq, "NN", "attention P·V, " + where));
    }
    w.push_back(batched(96, 1024, 1024, 64, "NT", "attention Q·Kᵀ, 1024 tokens, 8 x 12 heads of 64"));
    w.push_back(batched(96, 1024, 64, 1024, "NN", "attention P·V, 1024 tokens, 8 x 12 heads of 64"));
    w.push_back(batched(8, 512, 28672, 4096, "NT", "Mixtral-8x7B experts gate_up, 512 tokens each"));
    w.push_back(batched(8, 512, 4096, 14336, "NT", "Mixtral-8x7B experts down, 512 tokens each"));
    return w;
}

GemmWorkload padded(GemmWorkload w, int64_t pad) {
    w.pad = pad;
    return w;
}

std::vector<GemmWorkload> odd() {
    return {
        labelled(gemm_workload(4095, 4097, 4093, ASYNCGEMM_R_16F, "NN"), "odd sizes, rows not 16-byte aligned"),
        labelled(gemm_workload(3000, 5000, 77, ASYNCGEMM_R_16BF, "NN"), "k = 77"),
        labelled(gemm_workload(1000, 1000, 1000, ASYNCGEMM_R_16BF, "NN"), "1000 cubed"),
        labelled(gemm_workload(997, 1009, 1013, ASYNCGEMM_R_16F, "NT"), "primes"),
        labelled(padded(gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_16BF, "NN"), 3), "leading dimensions + 3"),
        labelled(padded(gemm_workload(2048, 2048, 2048, ASYNCGEMM_R_16F, "TN"), 1), "leading dimensions + 1"),
        labelled(gemm_workload(4096, 4096, 64, ASYNCGEMM_R_16BF, "NT"), "k = 64"),
        labelled(gemm_workload(8192, 8192, 32, ASYNCGEMM_R_16F, "NN"), "k = 32"),
        labelled(gemm_workload(512, 50257, 768, ASYNCGEMM_R_16BF, "NT"), "GPT-2 lm_head, vocabulary 50257"),
        labelled(gemm_workload(2048, 32000, 4096, ASYNCGEMM_R_16BF, "NT"), "Llama-2 lm_head, vocabulary 32000"),
        labelled(gemm_workload(7, 4096, 4096, ASYNCGEMM_R_16BF, "NT"), "m = 7"),
        labelled(gemm_workload(100, 100, 100, ASYNCGEMM_R_16F, "NN"), "100 cubed"),
    };
}

GemmWorkload tf32(GemmWorkload w) {
    w.tf32 = true;
    return w;
}

std::vector<GemmWorkload> fp32() {
    std::vector<GemmWorkload> w;
    for (const char *ops : {"NN", "NT", "TN", "TT"})
        w.push_back(labelled(gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_32F, ops), "SGEMM"));
    w.push_back(labelled(gemm_workload(2048, 2048, 256, ASYNCGEMM_R_32F, "NT"), "SGEMM, k = 256"));
    w.push_back(labelled(gemm_workload(1024, 1024, 1024, ASYNCGEMM_R_32F, "NN"), "SGEMM"));
    for (const char *ops : {"NN", "NT", "TN", "TT"})
        w.push_back(labelled(tf32(gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_32F, ops)), "TF32"));
    w.push_back(labelled(tf32(gemm_workload(2048, 8192, 1024, ASYNCGEMM_R_32F, "NT")), "TF32"));
    return w;
}

GemmWorkload with_output(GemmWorkload w, asyncgemm_dtype_t out, float beta, bool in_place) {
    w.out = out;
    w.beta = beta;
    w.in_place = in_place;
    return w;
}

std::vector<GemmWorkload> epilogue() {
    const GemmWorkload square = gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_16BF, "NT");
    return {
        labelled(with_output(square, ASYNCGEMM_R_16BF, 1.0f, false), "beta = 1, C of its own"),
        labelled(with_output(square, ASYNCGEMM_R_16BF, 1.0f, true), "C is D (residual add)"),
        labelled(with_output(square, ASYNCGEMM_R_32F, 0.0f, false), "f32 D from bf16"),
        labelled(with_output(gemm_workload(4096, 4096, 4096, ASYNCGEMM_R_16F, "NN"), ASYNCGEMM_R_32F, 1.0f, false),
                 "f32 D from f16, beta = 1"),
        labelled(with_output(gemm_workload(2048, 2048, 2048, ASYNCGEMM_R_16F, "NN"), ASYNCGEMM_R_16F, 0.5f, true),
                 "C is D, beta = 0.5"),
        labelled(with_output(gemm_workload(16, 4096, 4096, ASYNCGEMM_R_16BF, "NT"), ASYNCGEMM_R_32F, 0.0f, false),
                 "f32 D, 16 tokens"),
        labelled(with_output(gemm_workload(1024, 1024, 14336, ASYNCGEMM_R_16BF, "NN"), ASYNCGEMM_R_16BF, 1.0f, true),
                 "C is D, long K"),
        labelled(with_output(gemm_workload(8192, 8192, 1024, ASYNCGEMM_R_16BF, "NT"), ASYNCGEMM_R_32F, 1.0f, true),
                 "f32 accumulation in place (gradient accumulation)"),
    };
}

GemmWorkload fused(GemmWorkload w, asyncgemm_bias_t bias, asyncgemm_activation_t activation, bool bias_f32 = false) {
    w.bias = bias;
    w.activation = activation;
    w.bias_f32 = bias_f32;
    return w;
}

// A bias and an activation fused into the product (issue 45): the projections of the llm-prefill
// suite as y = act(x·Wᵀ + b), a bias per output feature (bias=col); SiLU without a bias, as Llama's
// gate runs it; GELU-erf, as BERT's MLP runs it; and the training suite's dW and dX shapes with a bias
// per row and ReLU, for the per-row path (cuBLASLt's row-major layouts).
std::vector<GemmWorkload> epilogue_fused() {
    constexpr asyncgemm_bias_t kNone = ASYNCGEMM_BIAS_NONE, kRow = ASYNCGEMM_BIAS_PER_ROW,
                               kCol = ASYNCGEMM_BIAS_PER_COL;
    const auto bf16 = [](int64_t m, int64_t n, int64_t k, const char *ops) {
        return gemm_workload(m, n, k, ASYNCGEMM_R_16BF, ops);
    };
    return {
        labelled(fused(bf16(4096, 14336, 4096, "NT"), kCol, ASYNCGEMM_ACT_GELU_TANH),
                 "MLP up 4096 -> 14336, 4096 tokens: bias + GELU"),
        labelled(fused(bf16(128, 14336, 4096, "NT"), kCol, ASYNCGEMM_ACT_GELU_TANH),
                 "MLP up 4096 -> 14336, 128 tokens: bias + GELU"),
        labelled(fused(bf16(4096, 4096, 4096, "NT"), kCol, ASYNCGEMM_ACT_NONE), "Llama-3-8B o, 4096 tokens: bias"),
        labelled(fused(bf16(2048, 4608, 3584, "NT"), kCol, ASYNCGEMM_ACT_NONE), "Qwen2.5-7B qkv, 2048 tokens: bias"),
        labelled(fused(bf16(8192, 4096, 14336, "NT"), kCol, ASYNCGEMM_ACT_NONE),
                 "Llama-3-8B down, 8192 tokens: bias"),
        labelled(fused(bf16(2048, 11008, 4096, "NT"), kNone, ASYNCGEMM_ACT_SILU), "Llama-2-7B gate, 2048 tokens: SiLU"),
        labelled(fused(bf16(512, 14336, 4096, "NT"), kNone, ASYNCGEMM_ACT_SILU), "Llama-3-8B gate, 512 tokens: SiLU"),
        labelled(fused(bf16(4096, 4096, 1024, "NT"), kCol, ASYNCGEMM_ACT_GELU_ERF),
                 "BERT-large MLP up 1024 -> 4096, 4096 tokens: bias + GELU (erf)"),
        labelled(fused(bf16(4096, 4096, 4096, "TN"), kRow, ASYNCGEMM_ACT_RELU),
                 "dW of Llama-3-8B o, 4096 tokens: bias per row + ReLU"),
        labelled(fused(bf16(6144, 4096, 4096, "TN"), kRow, ASYNCGEMM_ACT_RELU),
                 "dW of Llama-3-8B qkv, 4096 tokens: bias per row + ReLU"),
        labelled(fused(bf16(4096, 14336, 4096, "NN"), kRow, ASYNCGEMM_ACT_RELU),
                 "dX of Llama-3-8B down, 4096 tokens: bias per row + ReLU"),
        labelled(fused(gemm_workload(2048, 14336, 4096, ASYNCGEMM_R_16F, "NT"), kCol, ASYNCGEMM_ACT_GELU_TANH, true),
                 "MLP up, 2048 tokens, f16: f32 bias + GELU"),
    };
}

GemmWorkload block_scaled(GemmWorkload w) {
    w.block_scales = true;
    return w;
}

// 8-bit y = x·Wᵀ (e4m3, D in bf16) against cuBLASLt's FP8 matmul, each product tensor-scaled, then
// block-scaled (1x128 activations, 128x128 weights), then in bf16 against cuBLAS: the summary sets
// AUTO's tensor-scaled FP8 against cuBLASLt's and AUTO's own bf16 (the goal: at least 1.00x and 1.6x),
// and its block-scaled FP8 against cuBLASLt's block-scaled and AUTO's own tensor-scaled FP8 (issue
// 46's goal: at least 1.00x and 0.90x).
std::vector<GemmWorkload> fp8() {
    std::vector<GemmWorkload> w;
    const auto add = [&](int64_t tokens, int64_t out, int64_t in, const std::string &label) {
        const GemmWorkload e4m3 = gemm_workload(tokens, out, in, ASYNCGEMM_R_8F_E4M3, "NT");
        const GemmWorkload bf16 = gemm_workload(tokens, out, in, ASYNCGEMM_R_16BF, "NT");
        for (const GemmWorkload &each : {e4m3, block_scaled(e4m3), bf16}) w.push_back(labelled(each, label));
    };
    add(4096, 4096, 4096, "Llama-3-8B o, 4096 tokens");
    add(8192, 8192, 8192, "Llama-3-70B o, 8192 tokens");
    add(4096, 14336, 4096, "Llama-3-8B up, 4096 tokens");
    return w;
}

std::vector<Suite> make_suites() {
    std::vector<Suite> suites = {
        {"llm-prefill", "y = x·Wᵀ of Llama-3-8B/70B and Qwen2.5-7B projections at 128-8192 tokens, bf16",
         llm_prefill()},
        {"llm-decode", "the same projections at 1-64 tokens, and a vocabulary-sized lm_head", llm_decode()},
        {"training", "dX = dY·W and dW = dYᵀ·X of Llama-3 projections at 4096 tokens, bf16", training()},
        {"batched", "strided batches: attention products per head, equal groups of experts", batched_products()},
        {"odd", "sizes and leading dimensions off every multiple of 8, short K, primes, vocabularies", odd()},
        {"fp32", "SGEMM and TF32 in every op pair", fp32()},
        {"epilogue", "beta != 0, C == D, f32 D from 16-bit inputs", epilogue()},
        {"epilogue-fused", "bias and activation fused (asyncgemm_matmul) against cuBLASLt's epilogues and GEMM+pass",
         epilogue_fused()},
        {"fp8",
         "e4m3 y = x·Wᵀ, tensor- and block-scaled, against cuBLASLt's FP8 matmul, and the same products in bf16 "
         "against cuBLAS",
         fp8()},
    };
    for (Suite &suite : suites)
        for (GemmWorkload &w : suite.workloads) w.suite = suite.name;
    return suites;
}

}  // namespace

const std::vector<Suite> &all_suites() {
    static const std::vector<Suite> suites = make_suites();
    return suites;
}

const Suite *find_suite(const std::string &name) {
    for (const Suite &suite : all_suites())
        if (suite.name == name) return &suite;
    return nullptr;
}

}  // namespace bench
