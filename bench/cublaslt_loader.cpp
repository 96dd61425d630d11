#include "cublaslt_loader.h"

#include <dlfcn.h>

#include "cublas_loader.h"

namespace bench {

namespace {

// The versioned name first; the unversioned one (a development install's link) only where it is of
// the major version whose header the benchmark was compiled against (checked after opening).
constexpr const char *kSonames[] = {"libcublasLt.so.13", "libcublasLt.so"};

template <typename Function>
bool resolve(void *library, const char *soname, const char *name, Function *&function, std::string &why_not) {
    function = reinterpret_cast<Function *>(dlsym(library, name));
    if (function == nullptr) why_not = std::string(soname) + " has no " + name;
    return function != nullptr;
}

// cuBLASLt's epilogue for a bias and an activation: the bias flag ORed into the activation's.
std::optional<cublasLtEpilogue_t> epilogue(const GemmWorkload &w) {
    const bool bias = w.bias != ASYNCGEMM_BIAS_NONE;
    switch (w.activation) {
    case ASYNCGEMM_ACT_NONE: return bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
    case ASYNCGEMM_ACT_RELU: return bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    case ASYNCGEMM_ACT_GELU_TANH: return bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    case ASYNCGEMM_ACT_GELU_ERF:
    case ASYNCGEMM_ACT_SILU: break;
    }
    return std::nullopt;
}

const char *operation_name(cublasOperation_t op) {
    return op == CUBLAS_OP_T ? "T" : "N";
}

}  // namespace

struct CublasLt::Api {
    const char *soname = nullptr;
    decltype(&cublasLtDestroy) destroy = nullptr;
    decltype(&cublasLtGetVersion) get_version = nullptr;
    decltype(&cublasLtGetStatusString) get_status_string = nullptr;
    decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
    decltype(&cublasLtMatmulDescDestroy) desc_destroy = nullptr;
    decltype(&cublasLtMatmulDescSetAttribute) desc_set = nullptr;
    decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
    decltype(&cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
    decltype(&cublasLtMatrixLayoutSetAttribute) layout_set = nullptr;
    decltype(&cublasLtMatmulPreferenceCreate) preference_create = nullptr;
    decltype(&cublasLtMatmulPreferenceDestroy) preference_destroy = nullptr;
    decltype(&cublasLtMatmulPreferenceSetAttribute) preference_set = nullptr;
    decltype(&cublasLtMatmulAlgoGetHeuristic) get_heuristic = nullptr;
    decltype(&cublasLtMatmul) matmul = nullptr;

    bool resolve_all(void *library, std::string &why_not) {
        return resolve(library, soname, "cublasLtDestroy", destroy, why_not) &&
               resolve(library, soname, "cublasLtGetVersion", get_version, why_not) &&
               resolve(library, soname, "cublasLtGetStatusString", get_status_string, why_not) &&
               resolve(library, soname, "cublasLtMatmulDescCreate", desc_create, why_not) &&
               resolve(library, soname, "cublasLtMatmulDescDestroy", desc_destroy, why_not) &&
               resolve(library, soname, "cublasLtMatmulDescSetAttribute", desc_set, why_not) &&
               resolve(library, soname, "cublasLtMatrixLayoutCreate", layout_create, why_not) &&
               resolve(library, soname, "cublasLtMatrixLayoutDestroy", layout_destroy, why_not) &&
               resolve(library, soname, "cublasLtMatrixLayoutSetAttribute", layout_set, why_not) &&
               resolve(library, soname, "cublasLtMatmulPreferenceCreate", preference_create, why_not) &&
               resolve(library, soname, "cublasLtMatmulPreferenceDestroy", preference_destroy, why_not) &&
               resolve(library, soname, "cublasLtMatmulPreferenceSetAttribute", preference_set, why_not) &&
               resolve(library, soname, "cublasLtMatmulAlgoGetHeuristic", get_heuristic, why_not) &&
               resolve(library, soname, "cublasLtMatmul", matmul, why_not);
    }
};

LtMatmul::~LtMatmul() {
    const CublasLt::Api &api = *lt_.api_;
    for (cublasLtMatrixLayout_t layout : {a_, b_, d_})
        if (layout != nullptr) api.layout_destroy(layout);
    if (desc_ != nullptr) api.desc_destroy(desc_);
}

std::unique_ptr<CublasLt> CublasLt::open(cudaStream_t stream, std::string &why_not) {
    // Never dlclose'd, like cuBLAS: the process ends soon after.
    void *library = nullptr;
    const char *soname = nullptr;
    std::string why_not_opened;
    for (const char *name : kSonames) {
        library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (library != nullptr) {
            soname = name;
            break;
        }
        if (why_not_opened.empty()) why_not_opened = dlerror();
    }
    if (library == nullptr) {
        why_not = why_not_opened;
        return nullptr;
    }

    std::unique_ptr<CublasLt> lt(new CublasLt);
    lt->api_ = std::make_unique<Api>();
    lt->api_->soname = soname;
    lt->stream_ = stream;
    decltype(&cublasLtCreate) create = nullptr;
    if (!resolve(library, soname, "cublasLtCreate", create, why_not) || !lt->api_->resolve_all(library, why_not))
        return nullptr;
    // The enum values this file passes are those of the header it was compiled with.
    const std::size_t major = lt->api_->get_version() / 10000;
    if (major != CUBLAS_VER_MAJOR) {
        why_not = std::string(soname) + " is of version " + std::to_string(major) + ", not " +
                  std::to_string(CUBLAS_VER_MAJOR);
        return nullptr;
    }

    const cublasStatus_t status = create(&lt->handle_);
    if (status != CUBLAS_STATUS_SUCCESS) {
        why_not = "cublasLtCreate: " + lt->status_string(status);
        lt->handle_ = nullptr;
        return nullptr;
    }
    lt->workspace_ = std::make_unique<DeviceBuffer>(kWorkspaceBytes);
    return lt;
}

CublasLt::~CublasLt() {
    if (handle_ != nullptr) api_->destroy(handle_);
}

std::string CublasLt::version() const {
    const std::size_t version = api_->get_version();
    return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
           std::to_string(version % 100);
}

std::optional<std::string> CublasLt::missing_epilogue(const GemmWorkload &w) {
    if (epilogue(w)) return std::nullopt;
    return std::string("no cuBLASLt epilogue for ") + activation_text(w.activation);
}

std::unique_ptr<LtMatmul> CublasLt::plan(const GemmWorkload &w, const void *bias, const float *scale_a,
                                         const float *scale_b, std::string &why_not) const {
    const std::optional<cublasLtEpilogue_t> fused = epilogue(w);
    if (!fused) {
        why_not = *missing_epilogue(w);
        return nullptr;
    }
    std::unique_ptr<LtMatmul> plan(new LtMatmul(*this));
    plan->row_major_ = w.bias == ASYNCGEMM_BIAS_PER_ROW;
    plan->beta_ = w.beta;
    // Each step's failure names the step; the first one ends the plan.
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    const char *step = nullptr;
    auto ok = [&](cublasStatus_t result, const char *what) {
        if (result != CUBLAS_STATUS_SUCCESS && step == nullptr) status = result, step = what;
        return step == nullptr;
    };

    // Row-major: cuBLASLt's A, B and D are ours, laid out by rows.  Column-major: they are our B, A
    // and D^T (cublas_loader.cpp): the stored matrices are the same, read by columns, m and n swapped.
    const bool row_major = plan->row_major_;
    const cublasOperation_t trans_a = cublas_op(row_major ? w.op_a : w.op_b),
                            trans_b = cublas_op(row_major ? w.op_b : w.op_a);
    struct Stored {
        int64_t rows, cols, ld, stride;
    };
    // Our A and B as stored, row-major: A is m x k (k x m transposed), B is k x n (n x k).
    const Stored a{w.op_a == ASYNCGEMM_OP_N ? w.m : w.k, w.op_a == ASYNCGEMM_OP_N ? w.k : w.m, w.lda(), w.a_stride()};
    const Stored b{w.op_b == ASYNCGEMM_OP_N ? w.k : w.n, w.op_b == ASYNCGEMM_OP_N ? w.n : w.k, w.ldb(), w.b_stride()};
    const Stored d{w.m, w.n, w.ldd(), w.d_stride()};
    const cudaDataType_t in_a = cuda_type(w.dtype), in_b = cuda_type(w.b_dtype()), out = cuda_type(w.out);
    auto layout = [&](cublasLtMatrixLayout_t &made, const Stored &matrix, cudaDataType_t type) {
        // A row-major rows x cols matrix is a column-major cols x rows one with the same ld.
        const uint64_t lt_rows = uint64_t(row_major ? matrix.rows : matrix.cols);
        const uint64_t lt_cols = uint64_t(row_major ? matrix.cols : matrix.rows);
        if (!ok(api_->layout_create(&made, type, lt_rows, lt_cols, matrix.ld), "cublasLtMatrixLayoutCreate")) return;
        if (row_major) {
            const int32_t order = CUBLASLT_ORDER_ROW;
            ok(api_->layout_set(made, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order),
               "CUBLASLT_MATRIX_LAYOUT_ORDER");
        }
        if (w.batch > 1) {
            const int32_t count = int32_t(w.batch);
            ok(api_->layout_set(made, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
               "CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT");
            ok(api_->layout_set(made, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &matrix.stride,
                                sizeof matrix.stride),
               "CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET");
        }
    };
    layout(plan->a_, row_major ? a : b, row_major ? in_a : in_b);
    layout(plan->b_, row_major ? b : a, row_major ? in_b : in_a);
    layout(plan->d_, d, out);

    if (ok(api_->desc_create(&plan->desc_, compute_type(w), CUDA_R_32F), "cublasLtMatmulDescCreate")) {
        const int32_t ta = trans_a, tb = trans_b;
        const uint32_t mode = *fused;
        ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "CUBLASLT_MATMUL_DESC_TRANSA");
        ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "CUBLASLT_MATMUL_DESC_TRANSB");
        ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_EPILOGUE, &mode, sizeof mode),
           "CUBLASLT_MATMUL_DESC_EPILOGUE");
        if (w.bias != ASYNCGEMM_BIAS_NONE) {
            // One bias for every matrix of a batch: CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE stays 0.
            const int32_t bias_type = cuda_type(w.bias_type());
            ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias),
               "CUBLASLT_MATMUL_DESC_BIAS_POINTER");
            ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof bias_type),
               "CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE");
        }
        if (w.fp8()) {
            // An 8-bit workload has no bias, so it goes column-major: cuBLASLt's A is our B and its B
            // our A, and the scales swap with them.  Fast accumulation (partial sums not promoted to
            // fp32 along K) is cuBLASLt's fastest FP8 path, the one FP8 kernels are measured against.
            const int8_t fast_accumulation = 1;
            ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof scale_b),
               "CUBLASLT_MATMUL_DESC_A_SCALE_POINTER");
            ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof scale_a),
               "CUBLASLT_MATMUL_DESC_B_SCALE_POINTER");
            ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accumulation,
                              sizeof fast_accumulation),
               "CUBLASLT_MATMUL_DESC_FAST_ACCUM");
            if (w.block_scales) {
                // Our A's scales are 1x128 and our B's 128x128 (the activations' and the weights'), in
                // asyncgemm.h's layout: cuBLASLt's B and A, swapped as the pointers are above.
                const int32_t a_mode = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F,
                              b_mode = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
                ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &a_mode, sizeof a_mode),
                   "CUBLASLT_MATMUL_DESC_A_SCALE_MODE");
                ok(api_->desc_set(plan->desc_, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &b_mode, sizeof b_mode),
                   "CUBLASLT_MATMUL_DESC_B_SCALE_MODE");
            }
        }
    }

    cublasLtMatmulPreference_t preference = nullptr;
    if (step == nullptr && ok(api_->preference_create(&preference), "cublasLtMatmulPreferenceCreate")) {
        const uint64_t workspace_bytes = workspace_->bytes();
        ok(api_->preference_set(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                sizeof workspace_bytes),
           "CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES");
        cublasLtMatmulHeuristicResult_t best{};
        int found = 0;
        if (ok(api_->get_heuristic(handle_, plan->desc_, plan->a_, plan->b_, plan->d_, plan->d_, preference, 1, &best,
                                   &found),
               "cublasLtMatmulAlgoGetHeuristic") &&
            found == 0)
            ok(CUBLAS_STATUS_NOT_SUPPORTED, "cublasLtMatmulAlgoGetHeuristic (no algorithm)");
        plan->algo_ = best.algo;
        api_->preference_destroy(preference);
    }
    if (step != nullptr) {
        why_not = std::string(step) + ": " + status_string(status) + " (" + (row_major ? "row-major, " : "") +
                  operation_name(trans_a) + operation_name(trans_b) + ")";
        return nullptr;
    }
    return plan;
}

cublasStatus_t CublasLt::matmul(const LtMatmul &plan, const void *a, const void *b, void *d) const {
    const float alpha = 1.0f;
    const void *first = plan.row_major_ ? a : b, *second = plan.row_major_ ? b : a;
    return api_->matmul(handle_, plan.desc_, &alpha, first, plan.a_, second, plan.b_, &plan.beta_, d, plan.d_, d,
                        plan.d_, &plan.algo_, workspace_->data(), workspace_->bytes(), stream_);
}

std::string CublasLt::status_string(cublasStatus_t status) const {
    return api_->get_status_string(status);
}

}  // namespace bench
