// The separate pass the fused epilogue is measured against: D = act(D + bias) in place over a product
// asyncgemm has already written, as a framework without fused epilogues runs a bias and an activation
// after its GEMM.  The one CUDA source of the benchmark (epilogue_pass.cu); this header is plain C++.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "workload.h"

namespace bench {

struct EpiloguePass {
    void *d;                      // the workload's D, row-major, batches stride_d elements apart
    asyncgemm_dtype_t type_d;
    int64_t m, n, ldd, stride_d, batch;
    asyncgemm_bias_t bias_mode;   // NONE: no bias
    const void *bias;             // m or n values of type_bias, one vector for every batch
    asyncgemm_dtype_t type_bias;
    asyncgemm_activation_t activation;
};

// The pass of a workload over d with its bias vector.
EpiloguePass epilogue_pass(const GemmWorkload &workload, void *d, const void *bias);

// Enqueues the pass on stream: each element widened to fp32, the bias added, the activation applied
// (the formulas of asyncgemm.h), rounded once back to D's type; 16-byte loads and stores where D's
// rows allow them.  Returns the launch's error.
cudaError_t launch_epilogue_pass(const EpiloguePass &pass, cudaStream_t stream);

}  // namespace bench
