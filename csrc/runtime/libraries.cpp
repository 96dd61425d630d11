#include "runtime/libraries.h"

#include <mutex>

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

CUlibrary load_library(Family family) {
    const DriverApi &api = driver();
    const FatbinImage fatbin = embedded_fatbin(family);
    // No CU_LIBRARY_BINARY_IS_PRESERVED: the driver copies the image, so nothing breaks if the
    // library's file is unmapped (dlclose) while the process runs on.
    CUlibrary library = nullptr;
    const CUresult result =
        api.cuLibraryLoadData(&library, fatbin.data, nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (result == CUDA_ERROR_NO_BINARY_FOR_GPU) return nullptr;
    check(result, "cuLibraryLoadData");
    return library;
}

}  // namespace

CUlibrary family_library(Family family) {
    constexpr int kFamilies = static_cast<int>(Family::Count);
    const int index = static_cast<int>(family);
    if (index < 0 || index >= kFamilies)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "family_library: no such family");
    static LoadedLibrary loaded[kFamilies];
    LoadedLibrary &slot = loaded[index];
    std::call_once(slot.once, [&] { slot.library = load_library(family); });
    return slot.library;
}

}  // namespace asyncgemm
