#include "runtime/fatbins.h"

#include <stdint.h>

#include <string>

#include "common/error.h"

// Defined by the build's .incbin objects.  Hidden: they resolve inside libasyncgemm.so without a GOT
// entry and are never exported.
extern "C" {
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_copy_begin[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_copy_end[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_simt_begin[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_simt_end[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_sm80_begin[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_sm80_end[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_sm90_begin[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_sm90_end[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_sm100_begin[];
__attribute__((visibility("hidden"))) extern const unsigned char asyncgemm_fatbin_sm100_end[];
}

namespace asyncgemm {
namespace {

// The symbols are distinct objects to the compiler, so the size is taken on addresses, not pointers.
FatbinImage image(const unsigned char *begin, const unsigned char *end) {
    return {begin,
            static_cast<size_t>(reinterpret_cast<uintptr_t>(end) - reinterpret_cast<uintptr_t>(begin))};
}

}  // namespace

const char *family_name(Family family) {
    switch (family) {
    case Family::Copy: return "copy";
    case Family::Simt: return "simt";
    case Family::Sm80: return "sm80";
    case Family::Sm90: return "sm90";
    case Family::Sm100: return "sm100";
    case Family::Count: break;
    }
    return "unknown";
}

FatbinImage embedded_fatbin(Family family) {
    switch (family) {
    case Family::Copy: return image(asyncgemm_fatbin_copy_begin, asyncgemm_fatbin_copy_end);
    case Family::Simt: return image(asyncgemm_fatbin_simt_begin, asyncgemm_fatbin_simt_end);
    case Family::Sm80: return image(asyncgemm_fatbin_sm80_begin, asyncgemm_fatbin_sm80_end);
    case Family::Sm90: return image(asyncgemm_fatbin_sm90_begin, asyncgemm_fatbin_sm90_end);
    case Family::Sm100: return image(asyncgemm_fatbin_sm100_begin, asyncgemm_fatbin_sm100_end);
    case Family::Count: break;
    }
    fail(ASYNCGEMM_STATUS_INTERNAL_ERROR,
         "no embedded fatbin for family " + std::to_string(static_cast<int>(family)));
}

}  // namespace asyncgemm
