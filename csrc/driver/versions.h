// Which CUDA driver the library accepts and which entry-point ABIs it asks the driver for.
//
// Versions are the driver's encoding: 1000 * major + 10 * minor (13000 is CUDA 13.0).
#pragma once

#include <cuda.h>

#include <algorithm>
#include <string>

namespace asyncgemm {

// The fatbins are built by nvcc 13.0: an older driver cannot load their SASS or PTX.
constexpr int kMinimumDriverVersion = 13000;

// The CUDA version whose entry-point ABIs the PFN types of DriverApi describe.  cuGetProcAddress
// returns, for a name, the ABI current at the version asked for, so this is the ceiling of every
// request.  It is not CUDA_VERSION itself: a newer header may bring a new ABI under an old name (13.0
// did so for cuCtxGetDevice and cuCtxSynchronize) and DriverApi's pointer types would silently stop
// matching what the driver hands back.
constexpr int kDriverApiVersion = 13000;
static_assert(CUDA_VERSION >= kDriverApiVersion, "DriverApi is written against the CUDA 13.0 headers");

// The version to pass to cuGetProcAddress: never newer than the driver or than DriverApi's types.
constexpr int requested_api_version(int driver_version) {
    return std::min(driver_version, kDriverApiVersion);
}

// "13.0" for 13000, "12.8" for 12080.
inline std::string cuda_version_string(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

inline std::string driver_too_old_message(int driver_version) {
    return "the NVIDIA driver supports CUDA " + cuda_version_string(driver_version) + " (version " +
           std::to_string(driver_version) + "); asyncgemm needs CUDA " +
           cuda_version_string(kMinimumDriverVersion) + " (version " + std::to_string(kMinimumDriverVersion) +
           ") or newer";
}

}  // namespace asyncgemm
