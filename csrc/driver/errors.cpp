#include "driver/errors.h"

#include "common/error.h"

namespace asyncgemm {

asyncgemm_status_t status_of(CUresult result) {
    switch (result) {
    case CUDA_SUCCESS: return ASYNCGEMM_STATUS_SUCCESS;
    case CUDA_ERROR_OUT_OF_MEMORY: return ASYNCGEMM_STATUS_OUT_OF_MEMORY;
    case CUDA_ERROR_NO_DEVICE: return ASYNCGEMM_STATUS_NO_DEVICE;
    case CUDA_ERROR_STUB_LIBRARY: return ASYNCGEMM_STATUS_NO_DRIVER;
    default: return ASYNCGEMM_STATUS_CUDA_ERROR;
    }
}

std::string driver_error_message(const char *call, CUresult result, const char *error_name,
                                 const char *error_description) {
    std::string message = std::string(call) + " failed: ";
    if (error_name == nullptr) return message + "CUDA error " + std::to_string(result);
    message += error_name;
    if (error_description != nullptr) message += std::string(" (") + error_description + ")";
    return message;
}

std::string failed_call_message(const DriverApi &api, const char *call, CUresult result) {
    const char *name = nullptr;
    const char *description = nullptr;
    if (api.cuGetErrorName == nullptr || api.cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
    if (api.cuGetErrorString == nullptr || api.cuGetErrorString(result, &description) != CUDA_SUCCESS)
        description = nullptr;
    return driver_error_message(call, result, name, description);
}

void throw_driver_error(CUresult result, const std::string &call) {
    // A CUresult exists only once driver() has succeeded, so this call returns and never throws.
    fail(status_of(result), failed_call_message(driver(), call.c_str(), result));
}

}  // namespace asyncgemm
