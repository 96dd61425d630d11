// One asyncgemm_copy2d call as a test sees it: the case, src and dst on the device, inputs, the
// exact expectation and the verdict.  src ends exactly at its last element and has NaN padding;
// dst sits between poisoned guards, and everything outside its window must keep its bits.
#pragma once

#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "device_buffer.h"
#include "elements.h"
#include "matrix_layout.h"
#include "test_env.h"

namespace agtest {

struct CopyCase {
    asyncgemm_dtype_t dtype = ASYNCGEMM_R_32F;
    asyncgemm_order_t order = ASYNCGEMM_ORDER_ROW;
    asyncgemm_op_t op = ASYNCGEMM_OP_N;
    asyncgemm_copy_algo_t algo = ASYNCGEMM_COPY_AUTO;
    asyncgemm_smem_layout_t layout = ASYNCGEMM_SMEM_AUTO;
    int vector_bytes = 0;
    int64_t rows = 1, cols = 1;
    int64_t ld_src_pad = 0, ld_dst_pad = 0;  // leading dimension beyond the minimum
    bool offset_src = false, offset_dst = false;  // base pointer one element into its allocation
    float alpha = 1.0f;

    // The library must serve it: everything left to the library to choose.
    bool all_automatic() const {
        return algo == ASYNCGEMM_COPY_AUTO && layout == ASYNCGEMM_SMEM_AUTO && vector_bytes == 0;
    }
    std::string describe() const;
};

// Random odd shape (a tail size or uniform in [1, max_dim] each way), odd leading-dimension pads and
// offset pointers; the caller sets dtype, order, op, algorithm, layout, vector width and alpha.
CopyCase random_copy_case(Rng &rng, int64_t max_dim);

class CopyProblem {
public:
    explicit CopyProblem(const CopyCase &copy_case);

    const CopyCase &copy_case() const { return case_; }

    // New src (random bit patterns, NaNs and all, when alpha is 1, which must copy bits exactly;
    // random values in [-1, 1] otherwise) and a poisoned dst, uploaded on `stream`.
    void fill(Rng &rng, cudaStream_t stream);

    asyncgemm_status_t launch(asyncgemm_handle_t handle, cudaStream_t stream) const;

    // "" when dst's window holds alpha * op(src) bit for bit (fp32 product rounded to the dtype) and
    // nothing else changed.
    std::string verify(cudaStream_t stream) const;
    // "" when dst is byte-identical to what fill() left there.
    std::string verify_untouched(cudaStream_t stream) const;

private:
    CopyCase case_;
    MatrixLayout src_layout_, dst_layout_;
    int64_t src_front_, dst_front_;
    HostArray src_host_, dst_host_;
    DeviceBuffer src_device_, dst_device_;
};

// Runs one case on `stream` with fresh inputs: "" when the library did what it must (dst right; or,
// unless all choices were automatic, a refusal with INVALID_VALUE, MISALIGNED or NOT_SUPPORTED, a
// message and dst untouched), else what went wrong, starting with the case.
std::string run_copy(asyncgemm_handle_t handle, const CopyCase &copy_case, Rng &rng, cudaStream_t stream,
                     bool *refused);

}  // namespace agtest
