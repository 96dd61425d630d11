#include "runtime/libraries.h"

#include <mutex>
#include <string>

#include "common/error.h"
#include "driver/driver.h"
#include "driver/errors.h"
#include "runtime/fatbins.h"

namespace asyncgemm {
namespace {

struct LoadedLibrary {
    std::once_flag once;
    CUlibrary library = nullptr;
};

CUlibrary load_library(const EmbeddedUnit &unit) {
    const DriverApi &api = driver();
    const FatbinImage fatbin = unit.image();
    // No CU_LIBRARY_BINARY_IS_PRESERVED: the driver copies the image, so nothing breaks if the
    // library's file is unmapped (dlclose) while the process runs on.
    CUlibrary library = nullptr;
    const CUresult result = api.cuLibraryLoadData(&library, fatbin.data, nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (result == CUDA_ERROR_NO_BINARY_FOR_GPU) return nullptr;
    if (result != CUDA_SUCCESS) throw_driver_error(result, std::string("cuLibraryLoadData(") + unit.name + ")");
    return library;
}

}  // namespace

CUlibrary unit_library(size_t unit) {
    if (unit >= kEmbeddedUnitCount) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "unit_library: no such unit");
    // Never destroyed, like the libraries themselves.
    static LoadedLibrary *const loaded = new LoadedLibrary[kEmbeddedUnitCount];
    LoadedLibrary &slot = loaded[unit];
    std::call_once(slot.once, [&] { slot.library = load_library(kEmbeddedUnits[unit]); });
    return slot.library;
}

}  // namespace asyncgemm
