// Driver results as library errors: the status a CUresult maps to and the one-line message.
#pragma once

#include <cuda.h>

#include <string>

#include "asyncgemm.h"
#include "driver/driver.h"

namespace asyncgemm {

// OUT_OF_MEMORY, NO_DEVICE and NO_DRIVER (the toolkit's stub library) where the result says so;
// every other failure is CUDA_ERROR.
asyncgemm_status_t status_of(CUresult result);

// "cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE (invalid argument)"; with no name from the
// driver, "cuLaunchKernelEx failed: CUDA error 1".
std::string driver_error_message(const char *call, CUresult result, const char *error_name,
                                 const char *error_description);

// The same, with the name and description asked of `api` (whose cuGetErrorName may still be null
// while the driver loads).
std::string failed_call_message(const DriverApi &api, const char *call, CUresult result);

// Throws the Error for a failed call, named through the driver's cuGetErrorName/cuGetErrorString.
[[noreturn]] void throw_driver_error(CUresult result, const std::string &call);

// `call` names the driver function (and, where it helps, its subject: "cuLibraryGetKernel(name)").
inline void check(CUresult result, const char *call) {
    if (result != CUDA_SUCCESS) throw_driver_error(result, call);
}

}  // namespace asyncgemm
