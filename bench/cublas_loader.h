// cuBLAS, the reference: opened at run time with dlopen("libcublas.so.13"), so the benchmark builds and
// starts without it and neither it nor the library ever links it.
#pragma once

#include <memory>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "workload.h"

namespace bench {

// The CUDA names of the library's element types and ops, and the compute type of a workload (fp32
// accumulation; FAST_TF32 for tf32 workloads): cuBLAS and cuBLASLt take the same.
cudaDataType_t cuda_type(asyncgemm_dtype_t dtype);
cublasOperation_t cublas_op(asyncgemm_op_t op);
cublasComputeType_t compute_type(const GemmWorkload &workload);

class Cublas {
public:
    // Opens the library and creates a handle that launches on stream, in the current context; null,
    // with why_not saying which step failed, where that cannot be done.
    static std::unique_ptr<Cublas> open(cudaStream_t stream, std::string &why_not);
    ~Cublas();
    Cublas(const Cublas &) = delete;
    Cublas &operator=(const Cublas &) = delete;

    std::string version() const;  // "13.1.0"

    // The row-major D = op_a(A) * op_b(B) + beta * D that asyncgemm gets for this workload (cuBLAS's
    // C is always its D: d holds C on entry where beta != 0), with fp32 accumulation (for f32 inputs
    // a true SGEMM: CUBLAS_COMPUTE_32F and the default math mode never use TF32; tf32 workloads ask
    // for CUBLAS_COMPUTE_32F_FAST_TF32); a strided batch through cublasGemmStridedBatchedEx.
    cublasStatus_t gemm(const GemmWorkload &workload, const void *a, const void *b, void *d) const;

    std::string status_string(cublasStatus_t status) const;

private:
    Cublas() = default;

    cublasHandle_t handle_ = nullptr;
    decltype(&cublasDestroy_v2) destroy_ = nullptr;
    decltype(&cublasGetVersion_v2) get_version_ = nullptr;
    decltype(&cublasGemmEx_64) gemm_ex_ = nullptr;
    decltype(&cublasGemmStridedBatchedEx_64) gemm_strided_batched_ex_ = nullptr;
    decltype(&cublasGetStatusString) get_status_string_ = nullptr;
};

}  // namespace bench
