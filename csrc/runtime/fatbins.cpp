#include "runtime/fatbins.h"

#include <stdint.h>
#include <string.h>

#include <string>

#include "common/error.h"

namespace asyncgemm {

// The symbols are distinct objects to the compiler, so the size is taken on addresses, not pointers.
FatbinImage EmbeddedUnit::image() const {
    return {begin, static_cast<size_t>(reinterpret_cast<uintptr_t>(end) - reinterpret_cast<uintptr_t>(begin))};
}

size_t embedded_unit_index(const char *name) {
    for (size_t i = 0; i < kEmbeddedUnitCount; ++i)
        if (strcmp(kEmbeddedUnits[i].name, name) == 0) return i;
    fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string("no kernel unit ") + name + " is embedded in the library");
}

const char *family_name(Family family) {
    switch (family) {
    case Family::Copy: return "copy";
    case Family::Simt: return "simt";
    case Family::Sm80: return "sm80";
    case Family::Sm90: return "sm90";
    case Family::Sm100: return "sm100";
    case Family::Skinny: return "skinny";
    case Family::Count: break;
    }
    return "unknown";
}

int family_architecture(Family family) {
    switch (family) {
    case Family::Sm90: return 90;
    case Family::Sm100: return 100;
    default: return 0;
    }
}

// The Hopper family; the skinny family, whose short launches a model's decode step queues back to
// back; and the Ampere family, whose small-problem units (PipelinedSmall, ShortM: less than a wave of
// tiles, a few microseconds each) are also compiled from compute_90 for it (CMakeLists.txt) -- its
// other units, and the other portable families, are not, and the runtime launches only code that
// has the wait so.  The Blackwell family's kernels, which no GPU of this project's tests runs, are
// left as they are.
bool family_overlaps_prior_grids(Family family) {
    return family == Family::Sm90 || family == Family::Skinny || family == Family::Sm80;
}

}  // namespace asyncgemm
