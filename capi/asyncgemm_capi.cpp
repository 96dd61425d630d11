// The exported C entry points: null checks of the handle and output pointers, then planning; every
// C++ exception becomes a status and a one-line message for asyncgemm_last_error().
#include <exception>
#include <memory>
#include <new>
#include <string>

#include "asyncgemm.h"
#include "capi/handle.h"
#include "common/error.h"
#include "plan/copy_plan.h"
#include "plan/gemm_plan.h"
#include "plan/kernel_table.h"
#include "plan/matmul_desc.h"
#include "runtime/handle.h"
#include "runtime/last_error.h"

namespace {

using asyncgemm::Error;
using asyncgemm::fail;
using asyncgemm::set_last_error;

// Runs body(); an exception becomes the returned status and this thread's last error, prefixed with
// the entry point's name.
template <typename Body>
asyncgemm_status_t guarded(const char *function, Body &&body) noexcept {
    try {
        body();
        return ASYNCGEMM_STATUS_SUCCESS;
    } catch (const Error &e) {
        try { set_last_error(std::string(function) + ": " + e.what()); } catch (...) {}
        return e.status();
    } catch (const std::bad_alloc &) {
        try { set_last_error(std::string(function) + ": out of host memory"); } catch (...) {}
        return ASYNCGEMM_STATUS_OUT_OF_MEMORY;
    } catch (const std::exception &e) {
        try { set_last_error(std::string(function) + ": internal error: " + e.what()); } catch (...) {}
        return ASYNCGEMM_STATUS_INTERNAL_ERROR;
    } catch (...) {
        try { set_last_error(std::string(function) + ": internal error"); } catch (...) {}
        return ASYNCGEMM_STATUS_INTERNAL_ERROR;
    }
}

const asyncgemm::Handle &checked(asyncgemm_handle_t handle) {
    if (handle == nullptr) fail(ASYNCGEMM_STATUS_INVALID_VALUE, "handle is NULL");
    return *handle->impl;
}

// The version 0 GEMM calls, as the descriptors they stand for, planned as asyncgemm_matmul plans
// (their arguments named as they are: "lda", not "desc->lda").
void gemm_as_matmul(asyncgemm_handle_t handle, const asyncgemm_matmul_desc_t &desc, void *stream) {
    asyncgemm::plan::GemmArgs args = asyncgemm::plan::matmul_args(&desc);
    args.names = "";
    asyncgemm::plan::gemm(checked(handle), args, stream);
}

void require_output(const void *ptr, const char *name) {
    if (ptr == nullptr) fail(ASYNCGEMM_STATUS_INVALID_VALUE, std::string(name) + " is NULL");
}

}  // namespace

extern "C" {

void asyncgemm_get_version(int *major, int *minor, int *patch) {
    if (major) *major = ASYNCGEMM_VERSION_MAJOR;
    if (minor) *minor = ASYNCGEMM_VERSION_MINOR;
    if (patch) *patch = ASYNCGEMM_VERSION_PATCH;
}

const char *asyncgemm_status_string(asyncgemm_status_t status) {
    switch (status) {
    case ASYNCGEMM_STATUS_SUCCESS: return "ASYNCGEMM_STATUS_SUCCESS";
    case ASYNCGEMM_STATUS_INVALID_VALUE: return "ASYNCGEMM_STATUS_INVALID_VALUE";
    case ASYNCGEMM_STATUS_MISALIGNED: return "ASYNCGEMM_STATUS_MISALIGNED";
    case ASYNCGEMM_STATUS_NOT_SUPPORTED: return "ASYNCGEMM_STATUS_NOT_SUPPORTED";
    case ASYNCGEMM_STATUS_NO_DRIVER: return "ASYNCGEMM_STATUS_NO_DRIVER";
    case ASYNCGEMM_STATUS_DRIVER_TOO_OLD: return "ASYNCGEMM_STATUS_DRIVER_TOO_OLD";
    case ASYNCGEMM_STATUS_NO_DEVICE: return "ASYNCGEMM_STATUS_NO_DEVICE";
    case ASYNCGEMM_STATUS_CUDA_ERROR: return "ASYNCGEMM_STATUS_CUDA_ERROR";
    case ASYNCGEMM_STATUS_OUT_OF_MEMORY: return "ASYNCGEMM_STATUS_OUT_OF_MEMORY";
    case ASYNCGEMM_STATUS_INTERNAL_ERROR: return "ASYNCGEMM_STATUS_INTERNAL_ERROR";
    }
    return "unknown status";
}

const char *asyncgemm_last_error(void) { return asyncgemm::last_error(); }

asyncgemm_status_t asyncgemm_create(asyncgemm_handle_t *handle) {
    return guarded("asyncgemm_create", [&] {
        require_output(handle, "handle");
        auto created = std::make_unique<asyncgemm_handle_st>();
        created->impl = asyncgemm::Handle::create_current(asyncgemm::plan::kernel_table());
        *handle = created.release();
    });
}

asyncgemm_status_t asyncgemm_create_for_device(asyncgemm_handle_t *handle, int device) {
    return guarded("asyncgemm_create_for_device", [&] {
        require_output(handle, "handle");
        if (device < 0) fail(ASYNCGEMM_STATUS_INVALID_VALUE, "device must be >= 0 (got " + std::to_string(device) + ")");
        auto created = std::make_unique<asyncgemm_handle_st>();
        created->impl = asyncgemm::Handle::create_for_device(device, asyncgemm::plan::kernel_table());
        *handle = created.release();
    });
}

asyncgemm_status_t asyncgemm_destroy(asyncgemm_handle_t handle) {
    return guarded("asyncgemm_destroy", [&] { delete handle; });
}

asyncgemm_status_t asyncgemm_set_math_mode(asyncgemm_handle_t handle, asyncgemm_math_t mode) {
    return guarded("asyncgemm_set_math_mode", [&] {
        checked(handle);
        if (mode != ASYNCGEMM_MATH_DEFAULT && mode != ASYNCGEMM_MATH_TF32)
            fail(ASYNCGEMM_STATUS_INVALID_VALUE, "mode: unknown value " + std::to_string(mode));
        handle->impl->set_math_mode(mode);
    });
}

asyncgemm_status_t asyncgemm_set_autotune(asyncgemm_handle_t handle, int enable) {
    return guarded("asyncgemm_set_autotune", [&] {
        checked(handle);
        handle->impl->set_autotune(enable != 0);
    });
}

asyncgemm_status_t asyncgemm_set_workspace(asyncgemm_handle_t handle, void *workspace, size_t bytes) {
    return guarded("asyncgemm_set_workspace", [&] { checked(handle).set_workspace(workspace, bytes); });
}

asyncgemm_status_t asyncgemm_algo_available(asyncgemm_handle_t handle, asyncgemm_algo_t algo, int *available) {
    return guarded("asyncgemm_algo_available", [&] {
        const asyncgemm::Handle &h = checked(handle);
        require_output(available, "available");
        if (algo < ASYNCGEMM_ALGO_AUTO || algo > ASYNCGEMM_ALGO_SM100_TCGEN05)
            fail(ASYNCGEMM_STATUS_INVALID_VALUE, "algo: unknown value " + std::to_string(algo));
        *available = asyncgemm::plan::algo_available(h, algo) ? 1 : 0;
    });
}

asyncgemm_status_t asyncgemm_gemm_strided_batched(
    asyncgemm_handle_t handle, asyncgemm_order_t order, asyncgemm_op_t op_a, asyncgemm_op_t op_b,
    int64_t m, int64_t n, int64_t k,
    float alpha, const void *a, asyncgemm_dtype_t type_a, int64_t lda, int64_t stride_a,
                 const void *b, asyncgemm_dtype_t type_b, int64_t ldb, int64_t stride_b,
    float beta,  const void *c, asyncgemm_dtype_t type_c, int64_t ldc, int64_t stride_c,
                 void *d,       asyncgemm_dtype_t type_d, int64_t ldd, int64_t stride_d,
    int64_t batch_count, asyncgemm_algo_t algo, void *stream) {
    return guarded("asyncgemm_gemm_strided_batched", [&] {
        asyncgemm_matmul_desc_t desc = asyncgemm::plan::default_matmul_desc();
        desc.order = order, desc.op_a = op_a, desc.op_b = op_b;
        desc.m = m, desc.n = n, desc.k = k, desc.batch_count = batch_count;
        desc.alpha = alpha, desc.beta = beta;
        desc.a = a, desc.type_a = type_a, desc.lda = lda, desc.stride_a = stride_a;
        desc.b = b, desc.type_b = type_b, desc.ldb = ldb, desc.stride_b = stride_b;
        desc.c = c, desc.type_c = type_c, desc.ldc = ldc, desc.stride_c = stride_c;
        desc.d = d, desc.type_d = type_d, desc.ldd = ldd, desc.stride_d = stride_d;
        desc.algo = algo;
        gemm_as_matmul(handle, desc, stream);
    });
}

asyncgemm_status_t asyncgemm_gemm(
    asyncgemm_handle_t handle, asyncgemm_order_t order, asyncgemm_op_t op_a, asyncgemm_op_t op_b,
    int64_t m, int64_t n, int64_t k,
    float alpha, const void *a, asyncgemm_dtype_t type_a, int64_t lda,
                 const void *b, asyncgemm_dtype_t type_b, int64_t ldb,
    float beta,  const void *c, asyncgemm_dtype_t type_c, int64_t ldc,
                 void *d,       asyncgemm_dtype_t type_d, int64_t ldd,
    asyncgemm_algo_t algo, void *stream) {
    return guarded("asyncgemm_gemm", [&] {
        asyncgemm_matmul_desc_t desc = asyncgemm::plan::default_matmul_desc();
        desc.order = order, desc.op_a = op_a, desc.op_b = op_b;
        desc.m = m, desc.n = n, desc.k = k;
        desc.alpha = alpha, desc.beta = beta;
        desc.a = a, desc.type_a = type_a, desc.lda = lda;
        desc.b = b, desc.type_b = type_b, desc.ldb = ldb;
        desc.c = c, desc.type_c = type_c, desc.ldc = ldc;
        desc.d = d, desc.type_d = type_d, desc.ldd = ldd;
        desc.algo = algo;
        gemm_as_matmul(handle, desc, stream);
    });
}

void asyncgemm_matmul_desc_init(asyncgemm_matmul_desc_t *desc) {
    if (desc != nullptr) *desc = asyncgemm::plan::default_matmul_desc();
}

asyncgemm_status_t asyncgemm_matmul(asyncgemm_handle_t handle, const asyncgemm_matmul_desc_t *desc, void *stream) {
    return guarded("asyncgemm_matmul", [&] {
        const asyncgemm::Handle &h = checked(handle);
        asyncgemm::plan::gemm(h, asyncgemm::plan::matmul_args(desc), stream);
    });
}

asyncgemm_status_t asyncgemm_copy2d(asyncgemm_handle_t handle, asyncgemm_order_t order, asyncgemm_op_t op,
                                    int64_t rows, int64_t cols, float alpha,
                                    const void *src, int64_t ld_src, void *dst, int64_t ld_dst,
                                    asyncgemm_dtype_t dtype, asyncgemm_copy_algo_t algo,
                                    asyncgemm_smem_layout_t layout, int vector_bytes, void *stream) {
    return guarded("asyncgemm_copy2d", [&] {
        asyncgemm::plan::CopyArgs args{};
        args.order = order;
        args.op = op;
        args.rows = rows;
        args.cols = cols;
        args.alpha = alpha;
        args.src = src;
        args.ld_src = ld_src;
        args.dst = dst;
        args.ld_dst = ld_dst;
        args.dtype = dtype;
        args.algo = algo;
        args.layout = layout;
        args.vector_bytes = vector_bytes;
        asyncgemm::plan::copy2d(checked(handle), args, stream);
    });
}

}  // extern "C"
