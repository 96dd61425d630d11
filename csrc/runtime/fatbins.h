// The kernel families' fatbins, embedded in the library's read-only data by the build.
//
// The build assembles, for each family, an object whose .incbin defines the hidden symbols
// asyncgemm_fatbin_<family_name>_begin and _end around the fatbin, the begin aligned to 8 bytes or
// more as nvcc places its own fatbins (the header holds 64-bit fields).
#pragma once

#include <stddef.h>

#include "runtime/family.h"

namespace asyncgemm {

struct FatbinImage {
    const void *data;
    size_t size;  // bytes
};

// Throws INTERNAL_ERROR for a value that names no family.
FatbinImage embedded_fatbin(Family family);

}  // namespace asyncgemm
