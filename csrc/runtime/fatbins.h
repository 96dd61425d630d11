// The kernel units' fatbins, embedded in the library's read-only data by the build.
//
// Every translation unit of kernels is a fatbin of its own (cmake/AsyncgemmKernels.cmake says why),
// embedded by an assembler .incbin between the hidden symbols asyncgemm_fatbin_<unit>_begin and
// _end, the begin aligned to 64 bytes (the header holds 64-bit fields).  The build also generates
// the table of every unit, kEmbeddedUnits.
#pragma once

#include <stddef.h>

#include "runtime/family.h"

namespace asyncgemm {

struct FatbinImage {
    const void *data;
    size_t size;  // bytes
};

struct EmbeddedUnit {
    Family family;
    const char *name;  // "<family>_<input type>_<configuration>", as the kernel table names it
    const unsigned char *begin, *end;

    FatbinImage image() const;
};

extern const EmbeddedUnit kEmbeddedUnits[];
extern const size_t kEmbeddedUnitCount;

// The index in kEmbeddedUnits of the unit called `name`; throws INTERNAL_ERROR if none is.
size_t embedded_unit_index(const char *name);

}  // namespace asyncgemm
