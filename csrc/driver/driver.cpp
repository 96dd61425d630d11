#include "driver/driver.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "common/error.h"
#include "driver/errors.h"
#include "driver/versions.h"

namespace asyncgemm {
namespace {

constexpr const char *kDriverLibrary = "libcuda.so.1";

DriverLoad failure(asyncgemm_status_t status, std::string message) {
    DriverLoad load;
    load.status = status;
    load.message = std::move(message);
    return load;
}

// The toolkit's stub answers every call with CUDA_ERROR_STUB_LIBRARY: a link-time stand-in that
// names itself libcuda.so.1, found when no driver is installed.
DriverLoad stub_failure(const char *path) {
    return failure(ASYNCGEMM_STATUS_NO_DRIVER,
                   std::string(path) + " is the CUDA toolkit's stub library, not a driver: no NVIDIA driver");
}

// A library without cuGetProcAddress_v2 is either no CUDA driver at all or one older than CUDA 12.0;
// its cuDriverGetVersion, if any, tells which.
DriverLoad no_get_proc_address_failure(void *library, const char *path) {
    auto get_version = reinterpret_cast<PFN_cuDriverGetVersion_v2020>(dlsym(library, "cuDriverGetVersion"));
    int version = 0;
    if (get_version != nullptr && get_version(&version) == CUDA_SUCCESS)
        return failure(ASYNCGEMM_STATUS_DRIVER_TOO_OLD, driver_too_old_message(version));
    return failure(ASYNCGEMM_STATUS_NO_DRIVER,
                   std::string(path) + " has no cuGetProcAddress_v2: not an NVIDIA driver");
}

// Looks up `name` at ABI `version`; *entry_point is nullptr when the driver has no such entry point.
CUresult resolve(PFN_cuGetProcAddress_v12000 get_proc_address, const char *name, int version,
                 void **entry_point) {
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    // LEGACY_STREAM: the NULL stream is the legacy default stream, as the public API promises.
    const CUresult result =
        get_proc_address(name, entry_point, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    if (result != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS) *entry_point = nullptr;
    return result;
}

// Everything after dlopen: version check, entry points, cuInit.  The caller closes `library` on failure.
DriverLoad load_from(void *library, const char *path) {
    auto get_proc_address =
        reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(library, "cuGetProcAddress_v2"));
    if (get_proc_address == nullptr) return no_get_proc_address_failure(library, path);

    // cuDriverGetVersion needs no cuInit and its ABI has not changed since CUDA 2.2: it is taken first,
    // at that version, to learn which version to ask for everything else.  The stub fails right here.
    void *get_version = nullptr;
    if (resolve(get_proc_address, "cuDriverGetVersion", 2020, &get_version) == CUDA_ERROR_STUB_LIBRARY)
        return stub_failure(path);
    if (get_version == nullptr)
        return failure(ASYNCGEMM_STATUS_NO_DRIVER,
                       std::string(path) + " has no entry point cuDriverGetVersion");
    int driver_version = 0;
    CUresult result = reinterpret_cast<PFN_cuDriverGetVersion_v2020>(get_version)(&driver_version);
    if (result != CUDA_SUCCESS)
        return failure(status_of(result),
                       driver_error_message("cuDriverGetVersion", result, nullptr, nullptr));
    if (driver_version < kMinimumDriverVersion)
        return failure(ASYNCGEMM_STATUS_DRIVER_TOO_OLD, driver_too_old_message(driver_version));

    const int version = requested_api_version(driver_version);
    const char *missing = nullptr;
    auto entry_point = [&](const char *name) {
        void *found = nullptr;
        resolve(get_proc_address, name, version, &found);
        if (found == nullptr && missing == nullptr) missing = name;
        return found;
    };
    DriverLoad load;
#define ASYNCGEMM_RESOLVE(name, type) load.api.name = reinterpret_cast<type>(entry_point(#name));
    ASYNCGEMM_DRIVER_ENTRY_POINTS(ASYNCGEMM_RESOLVE)
#undef ASYNCGEMM_RESOLVE
    if (missing != nullptr)
        return failure(ASYNCGEMM_STATUS_NO_DRIVER, std::string(path) + " (CUDA " +
                                                       cuda_version_string(driver_version) +
                                                       ") has no entry point " + missing);

    result = load.api.cuInit(0);
    if (result != CUDA_SUCCESS)
        return failure(status_of(result), failed_call_message(load.api, "cuInit", result));
    return load;
}

}  // namespace

DriverLoad load_driver(const char *path) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char *reason = dlerror();
        return failure(ASYNCGEMM_STATUS_NO_DRIVER, std::string(path) + " not found: no NVIDIA driver (" +
                                                       (reason != nullptr ? reason : "dlopen failed") + ")");
    }
    DriverLoad load = load_from(library, path);
    // On success the driver stays open for the life of the process: it is never closed, since the
    // context and library handles the process holds live inside it.
    if (load.status != ASYNCGEMM_STATUS_SUCCESS) dlclose(library);
    return load;
}

const char *driver_library_path() {
    const char *path = getenv("ASYNCGEMM_LIBCUDA");
    return path != nullptr ? path : kDriverLibrary;
}

const DriverApi &driver() {
    // Loaded once (a function-local static is initialised exactly once, even under concurrent first
    // calls) and never destroyed, so handles released by static destructors at exit still find it.
    static const DriverLoad &load = *new DriverLoad(load_driver(driver_library_path()));
    if (load.status != ASYNCGEMM_STATUS_SUCCESS) fail(load.status, load.message);
    return load.api;
}

}  // namespace asyncgemm
