// cuBLASLt, the reference of the workloads with a bias or an activation, whose epilogues fuse them
// into the GEMM as asyncgemm_matmul does, and of those with 8-bit inputs (its FP8 matmul, with a
// scale for A and one for B).  Opened at run time like cuBLAS (cublas_loader.h), as
// libcublasLt.so.13 or else libcublasLt.so of the same major version, so neither the benchmark nor
// the library ever links it.
//
// cuBLASLt's bias is one value per row of its column-major D.  The benchmark's problems are row-major,
// which cuBLAS gets as the column-major D^T = op_b(B)^T op_a(A)^T: there a bias per row of cuBLASLt's
// D is one per column of ours, so bias=col (and no bias) goes that way.  bias=row goes as the
// row-major problem itself (CUBLASLT_ORDER_ROW layouts, no swap), where cuBLASLt's rows are ours.
// FP8 goes the first way: cuBLASLt multiplies 8-bit inputs in its "TN" form alone, A transposed and B
// not, both K-major, and the benchmark's NT (A m x k, B n x k, both row-major) is exactly that as
// D^T (n x m) = B^T A: cuBLASLt's A is our B, read as the column-major k x n it is and transposed,
// its B our A, the column-major k x m, not transposed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include "device_memory.h"
#include "workload.h"

namespace bench {

class CublasLt;

// One workload's product as cuBLASLt runs it: its descriptors and the algorithm its heuristic chose.
class LtMatmul {
public:
    ~LtMatmul();
    LtMatmul(const LtMatmul &) = delete;
    LtMatmul &operator=(const LtMatmul &) = delete;

    bool row_major() const { return row_major_; }  // the bias=row form (CUBLASLT_ORDER_ROW)

private:
    friend class CublasLt;
    explicit LtMatmul(const CublasLt &lt) : lt_(lt) {}

    const CublasLt &lt_;
    bool row_major_ = false;
    float beta_ = 0.0f;
    cublasLtMatmulDesc_t desc_ = nullptr;
    cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;  // cuBLASLt's A, B and C = D
    cublasLtMatmulAlgo_t algo_{};
};

class CublasLt {
public:
    // Opens the library, creates a handle and a workspace (kWorkspaceBytes, as frameworks give it)
    // in the current context; the products run on stream.  Null, with why_not saying which step
    // failed, where that cannot be done.
    static std::unique_ptr<CublasLt> open(cudaStream_t stream, std::string &why_not);
    ~CublasLt();
    CublasLt(const CublasLt &) = delete;
    CublasLt &operator=(const CublasLt &) = delete;

    static constexpr std::size_t kWorkspaceBytes = std::size_t(32) << 20;

    std::string version() const;  // "13.1.0"

    // Why cuBLASLt has no epilogue for the workload's activation (GELU-erf and SiLU); none if it has.
    static std::optional<std::string> missing_epilogue(const GemmWorkload &workload);

    // The workload's D = act(sa sb op_a(A) op_b(B) + beta D + bias) with cuBLASLt's epilogue (bias:
    // the workload's bias vector, one for every matrix of a batch; scale_a and scale_b: sa and sb, one
    // fp32 each in device memory, or with scales=block A's 1x128 and B's 128x128 scales in asyncgemm.h's
    // layout (VEC128_32F and BLK128x128_32F), for 8-bit inputs alone, with fast accumulation), its
    // algorithm chosen once here; null, with why_not, where cuBLASLt has no epilogue or no algorithm
    // for it.
    std::unique_ptr<LtMatmul> plan(const GemmWorkload &workload, const void *bias, const float *scale_a,
                                   const float *scale_b, std::string &why_not) const;

    // Runs a plan on these inputs; d holds C on entry where beta != 0, as for Cublas::gemm.
    cublasStatus_t matmul(const LtMatmul &plan, const void *a, const void *b, void *d) const;

    std::string status_string(cublasStatus_t status) const;

private:
    friend class LtMatmul;
    struct Api;  // the functions read from the library
    CublasLt() = default;

    std::unique_ptr<Api> api_;
    cublasLtHandle_t handle_ = nullptr;
    cudaStream_t stream_ = nullptr;
    std::unique_ptr<DeviceBuffer> workspace_;
};

}  // namespace bench
