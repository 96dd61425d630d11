// The driver layer without a GPU: version policy, CUresult -> status, messages, and the no-driver path.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "common/error.h"
#include "driver/device_uuid.h"
#include "driver/driver.h"
#include "driver/errors.h"
#include "driver/versions.h"
#include "scratch.h"

namespace asyncgemm {
namespace {

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

using test::ScopedEnv;

TEST_CASE("entry points are requested at the older of the driver's version and DriverApi's") {
    CHECK(kMinimumDriverVersion == 13000);
    CHECK(requested_api_version(13000) == 13000);
    CHECK(requested_api_version(13020) == kDriverApiVersion);
    CHECK(requested_api_version(14000) == kDriverApiVersion);
    CHECK(requested_api_version(12080) == 12080);
}

TEST_CASE("GPU UUIDs print as nvidia-smi prints them") {
    CUuuid uuid{};
    for (int i = 0; i < 16; ++i) uuid.bytes[i] = static_cast<char>(i == 15 ? 0xef : i);
    CHECK(uuid_string(uuid) == "GPU-00010203-0405-0607-0809-0a0b0c0d0eef");
}

TEST_CASE("driver versions print as CUDA major.minor") {
    CHECK(cuda_version_string(13000) == "13.0");
    CHECK(cuda_version_string(12080) == "12.8");
    CHECK(cuda_version_string(13010) == "13.1");
    CHECK(cuda_version_string(11040) == "11.4");
}

TEST_CASE("a too-old driver's message names both versions") {
    const std::string message = driver_too_old_message(12080);
    CHECK(contains(message, "CUDA 12.8"));
    CHECK(contains(message, "12080"));
    CHECK(contains(message, "CUDA 13.0"));
    CHECK(contains(message, "13000"));
}

TEST_CASE("CUresult maps to a status") {
    CHECK(status_of(CUDA_SUCCESS) == ASYNCGEMM_STATUS_SUCCESS);
    CHECK(status_of(CUDA_ERROR_OUT_OF_MEMORY) == ASYNCGEMM_STATUS_OUT_OF_MEMORY);
    CHECK(status_of(CUDA_ERROR_NO_DEVICE) == ASYNCGEMM_STATUS_NO_DEVICE);
    CHECK(status_of(CUDA_ERROR_STUB_LIBRARY) == ASYNCGEMM_STATUS_NO_DRIVER);
    CHECK(status_of(CUDA_ERROR_INVALID_VALUE) == ASYNCGEMM_STATUS_CUDA_ERROR);
    CHECK(status_of(CUDA_ERROR_INVALID_HANDLE) == ASYNCGEMM_STATUS_CUDA_ERROR);
    CHECK(status_of(CUDA_ERROR_INVALID_CONTEXT) == ASYNCGEMM_STATUS_CUDA_ERROR);
    CHECK(status_of(CUDA_ERROR_LAUNCH_FAILED) == ASYNCGEMM_STATUS_CUDA_ERROR);
    CHECK(status_of(CUDA_ERROR_UNKNOWN) == ASYNCGEMM_STATUS_CUDA_ERROR);
}

TEST_CASE("a failed call's message names the call and the error") {
    CHECK(driver_error_message("cuLaunchKernelEx", CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE",
                               "invalid argument") ==
          "cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE (invalid argument)");
    CHECK(driver_error_message("cuInit", CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", nullptr) ==
          "cuInit failed: CUDA_ERROR_NO_DEVICE");
    CHECK(driver_error_message("cuMemAlloc", static_cast<CUresult>(12345), nullptr, nullptr) ==
          "cuMemAlloc failed: CUDA error 12345");
}

TEST_CASE("a driver without names still gives a message") {
    const DriverApi none{};
    CHECK(failed_call_message(none, "cuInit", CUDA_ERROR_NO_DEVICE) == "cuInit failed: CUDA error 100");
}

TEST_CASE("ASYNCGEMM_LIBCUDA names the driver library") {
    {
        ScopedEnv env("ASYNCGEMM_LIBCUDA", "/nonexistent/libcuda.so.1");
        CHECK(std::string(driver_library_path()) == "/nonexistent/libcuda.so.1");
    }
    const char *set_outside = getenv("ASYNCGEMM_LIBCUDA");
    CHECK(std::string(driver_library_path()) == (set_outside != nullptr ? set_outside : "libcuda.so.1"));
}

TEST_CASE("a missing driver library is NO_DRIVER") {
    ScopedEnv env("ASYNCGEMM_LIBCUDA", "/nonexistent/libcuda.so.1");
    const DriverLoad load = load_driver(driver_library_path());
    CHECK(load.status == ASYNCGEMM_STATUS_NO_DRIVER);
    CHECK(contains(load.message, "/nonexistent/libcuda.so.1 not found: no NVIDIA driver ("));
    const bool resolved_nothing = load.api.cuInit == nullptr;  // doctest cannot print a function pointer
    CHECK(resolved_nothing);
}

TEST_CASE("the toolkit's stub library is NO_DRIVER") {
    const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    if (access(stub, R_OK) != 0) {
        MESSAGE("no CUDA toolkit stub at " << stub << "; case not run");
        return;
    }
    const DriverLoad load = load_driver(stub);
    CHECK(load.status == ASYNCGEMM_STATUS_NO_DRIVER);
    CHECK(contains(load.message, "stub library"));
}

TEST_CASE("driver() keeps its first outcome") {
    // On a machine with a GPU this succeeds; without one it throws a driver status, the same twice.
    auto outcome = []() -> std::string {
        try {
            driver();
            return "loaded";
        } catch (const Error &error) {
            CHECK((error.status() == ASYNCGEMM_STATUS_NO_DRIVER ||
                   error.status() == ASYNCGEMM_STATUS_NO_DEVICE ||
                   error.status() == ASYNCGEMM_STATUS_DRIVER_TOO_OLD ||
                   error.status() == ASYNCGEMM_STATUS_CUDA_ERROR));
            return std::to_string(error.status()) + ": " + error.what();
        }
    };
    const std::string first = outcome();
    CHECK(outcome() == first);
}

}  // namespace
}  // namespace asyncgemm
