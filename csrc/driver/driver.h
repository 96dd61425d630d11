// The CUDA driver, opened at run time: the library has no link dependency on libcuda or libcudart.
//
// libcuda.so.1 is opened with dlopen on the first call of driver(), never at library load, and only
// cuGetProcAddress_v2 is looked up in it by name; every other entry point comes through cuGetProcAddress
// at one fixed ABI version (driver/versions.h), so the types below are exactly what the driver hands
// back.  The soname is libcuda.so.1 so that a driver already loaded by CUDA.jl or PyTorch is reused.
//
// Test hook: when the environment variable ASYNCGEMM_LIBCUDA is set, the first driver() opens the
// file it names instead of libcuda.so.1 (a missing file, or the toolkit's stub libcuda.so, shows the
// no-driver path on a machine that has one).  It is read once, at the first call.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

#include "asyncgemm.h"

namespace asyncgemm {

// Every entry point the library calls, with the PFN type of its ABI at kDriverApiVersion: where a
// name has several ABIs (cuCtxGetDevice, cuStreamGetCtx, cuEventElapsedTime) it
// is the newest one.
#define ASYNCGEMM_DRIVER_ENTRY_POINTS(X)                                                \
    X(cuInit, PFN_cuInit_v2000)                                                         \
    X(cuDriverGetVersion, PFN_cuDriverGetVersion_v2020)                                 \
    X(cuGetErrorName, PFN_cuGetErrorName_v6000)                                         \
    X(cuGetErrorString, PFN_cuGetErrorString_v6000)                                     \
    X(cuDeviceGetCount, PFN_cuDeviceGetCount_v2000)                                     \
    X(cuDeviceGet, PFN_cuDeviceGet_v2000)                                               \
    X(cuDeviceGetAttribute, PFN_cuDeviceGetAttribute_v2000)                             \
    X(cuDeviceGetName, PFN_cuDeviceGetName_v2000)                                       \
    X(cuDeviceGetUuid, PFN_cuDeviceGetUuid_v11040)                                      \
    X(cuDevicePrimaryCtxRetain, PFN_cuDevicePrimaryCtxRetain_v7000)                     \
    X(cuDevicePrimaryCtxRelease, PFN_cuDevicePrimaryCtxRelease_v11000)                  \
    X(cuCtxGetCurrent, PFN_cuCtxGetCurrent_v4000)                                       \
    X(cuCtxPushCurrent, PFN_cuCtxPushCurrent_v4000)                                     \
    X(cuCtxPopCurrent, PFN_cuCtxPopCurrent_v4000)                                       \
    X(cuCtxGetDevice, PFN_cuCtxGetDevice_v13000)                                        \
    X(cuStreamGetCtx, PFN_cuStreamGetCtx_v12050)                                        \
    X(cuStreamIsCapturing, PFN_cuStreamIsCapturing_v10000)                              \
    X(cuStreamCreate, PFN_cuStreamCreate_v2000)                                         \
    X(cuStreamDestroy, PFN_cuStreamDestroy_v4000)                                       \
    X(cuStreamSynchronize, PFN_cuStreamSynchronize_v2000)                               \
    X(cuStreamWaitEvent, PFN_cuStreamWaitEvent_v3020)                                   \
    X(cuEventCreate, PFN_cuEventCreate_v2000)                                           \
    X(cuEventRecord, PFN_cuEventRecord_v2000)                                           \
    X(cuEventSynchronize, PFN_cuEventSynchronize_v2000)                                 \
    X(cuEventElapsedTime, PFN_cuEventElapsedTime_v12080)                                \
    X(cuEventDestroy, PFN_cuEventDestroy_v4000)                                         \
    X(cuLibraryLoadData, PFN_cuLibraryLoadData_v12000)                                  \
    X(cuLibraryUnload, PFN_cuLibraryUnload_v12000)                                      \
    X(cuLibraryGetKernel, PFN_cuLibraryGetKernel_v12000)                                \
    X(cuKernelGetFunction, PFN_cuKernelGetFunction_v12000)                              \
    X(cuFuncLoad, PFN_cuFuncLoad_v12040)                                                \
    X(cuFuncGetAttribute, PFN_cuFuncGetAttribute_v2020)                                 \
    X(cuFuncSetAttribute, PFN_cuFuncSetAttribute_v9000)                                 \
    X(cuFuncGetParamInfo, PFN_cuFuncGetParamInfo_v12040)                                \
    X(cuLaunchKernelEx, PFN_cuLaunchKernelEx_v11060)                                    \
    X(cuTensorMapEncodeTiled, PFN_cuTensorMapEncodeTiled_v12000)                        \
    X(cuMemAlloc, PFN_cuMemAlloc_v3020)                                                 \
    X(cuMemFree, PFN_cuMemFree_v3020)                                                   \
    X(cuMemsetD32Async, PFN_cuMemsetD32Async_v3020)                                     \
    X(cuPointerGetAttributes, PFN_cuPointerGetAttributes_v7000)                         \
    X(cuMemcpyHtoDAsync, PFN_cuMemcpyHtoDAsync_v3020)                                   \
    X(cuMemcpyDtoHAsync, PFN_cuMemcpyDtoHAsync_v3020)

// The driver's entry points, named like the driver functions: api.cuLaunchKernelEx(...).
struct DriverApi {
#define ASYNCGEMM_DRIVER_MEMBER(name, type) type name = nullptr;
    ASYNCGEMM_DRIVER_ENTRY_POINTS(ASYNCGEMM_DRIVER_MEMBER)
#undef ASYNCGEMM_DRIVER_MEMBER
};

// The outcome of opening one driver library: every entry point resolved and cuInit(0) done, or the
// status and message that say why not.
struct DriverLoad {
    DriverApi api;
    asyncgemm_status_t status = ASYNCGEMM_STATUS_SUCCESS;
    std::string message;
};

// Opens `path`, checks its version, resolves every entry point and calls cuInit(0).  Never throws for
// a driver problem; on failure the library is closed again (a stub left open would be handed back for
// every later dlopen of libcuda.so.1, its soname).  driver() caches one call of this; tests call it
// directly to see each failure.
DriverLoad load_driver(const char *path);

// The library driver() opens: $ASYNCGEMM_LIBCUDA if set, else "libcuda.so.1".
const char *driver_library_path();

// The process's driver, loaded at the first call.  Throws asyncgemm::Error with NO_DRIVER,
// DRIVER_TOO_OLD, NO_DEVICE or CUDA_ERROR when it cannot be used; the first outcome is kept, so later
// calls throw the same error without trying again.
const DriverApi &driver();

}  // namespace asyncgemm
