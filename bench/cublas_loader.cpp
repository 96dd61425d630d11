#include "cublas_loader.h"

#include <dlfcn.h>

namespace bench {

namespace {

constexpr const char *kSoname = "libcublas.so.13";

template <typename Function>
bool resolve(void *library, const char *name, Function *&function, std::string &why_not) {
    function = reinterpret_cast<Function *>(dlsym(library, name));
    if (function == nullptr) why_not = std::string(kSoname) + " has no " + name;
    return function != nullptr;
}

}  // namespace

cudaDataType_t cuda_type(asyncgemm_dtype_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_16F: return CUDA_R_16F;
    case ASYNCGEMM_R_16BF: return CUDA_R_16BF;
    case ASYNCGEMM_R_8F_E4M3: return CUDA_R_8F_E4M3;
    case ASYNCGEMM_R_8F_E5M2: return CUDA_R_8F_E5M2;
    case ASYNCGEMM_R_32F: break;
    }
    return CUDA_R_32F;
}

cublasOperation_t cublas_op(asyncgemm_op_t op) {
    return op == ASYNCGEMM_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N;
}

cublasComputeType_t compute_type(const GemmWorkload &w) {
    return w.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

std::unique_ptr<Cublas> Cublas::open(cudaStream_t stream, std::string &why_not) {
    // Never dlclose'd: cuBLAS keeps exit-time state of its own, and the process ends soon after.
    void *library = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        why_not = dlerror();
        return nullptr;
    }

    std::unique_ptr<Cublas> cublas(new Cublas);
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasSetStream_v2) set_stream = nullptr;
    if (!resolve(library, "cublasCreate_v2", create, why_not) ||
        !resolve(library, "cublasSetStream_v2", set_stream, why_not) ||
        !resolve(library, "cublasDestroy_v2", cublas->destroy_, why_not) ||
        !resolve(library, "cublasGetVersion_v2", cublas->get_version_, why_not) ||
        !resolve(library, "cublasGemmEx_64", cublas->gemm_ex_, why_not) ||
        !resolve(library, "cublasGemmStridedBatchedEx_64", cublas->gemm_strided_batched_ex_, why_not) ||
        !resolve(library, "cublasGetStatusString", cublas->get_status_string_, why_not))
        return nullptr;

    cublasStatus_t status = create(&cublas->handle_);
    if (status != CUBLAS_STATUS_SUCCESS) {
        why_not = "cublasCreate: " + cublas->status_string(status);
        cublas->handle_ = nullptr;
        return nullptr;
    }
    status = set_stream(cublas->handle_, stream);
    if (status != CUBLAS_STATUS_SUCCESS) {
        why_not = "cublasSetStream: " + cublas->status_string(status);
        return nullptr;
    }
    return cublas;
}

Cublas::~Cublas() {
    if (handle_ != nullptr) destroy_(handle_);
}

std::string Cublas::version() const {
    int version = 0;
    if (get_version_(handle_, &version) != CUBLAS_STATUS_SUCCESS) return "of unknown version";
    return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
           std::to_string(version % 100);
}

cublasStatus_t Cublas::gemm(const GemmWorkload &w, const void *a, const void *b, void *d) const {
    // A row-major matrix is the column-major matrix of its transpose, so row-major D = op_a(A) op_b(B)
    // is column-major D^T = op_b(B)^T op_a(A)^T: B comes first, the ops stay, m and n swap.
    const float alpha = 1.0f, beta = w.beta;
    const cudaDataType_t in = cuda_type(w.dtype), out = cuda_type(w.out);
    const cublasComputeType_t compute = compute_type(w);
    if (w.batch == 1)
        return gemm_ex_(handle_, cublas_op(w.op_b), cublas_op(w.op_a), w.n, w.m, w.k, &alpha, b, in, w.ldb(), a, in,
                        w.lda(), &beta, d, out, w.ldd(), compute, CUBLAS_GEMM_DEFAULT);
    return gemm_strided_batched_ex_(handle_, cublas_op(w.op_b), cublas_op(w.op_a), w.n, w.m, w.k, &alpha, b, in,
                                    w.ldb(), w.b_stride(), a, in, w.lda(), w.a_stride(), &beta, d, out, w.ldd(),
                                    w.d_stride(), w.batch, compute, CUBLAS_GEMM_DEFAULT);
}

std::string Cublas::status_string(cublasStatus_t status) const {
    return get_status_string_(status);
}

}  // namespace bench
