// The embedded fatbins carry SASS for every architecture the build was asked for, plus the PTX
// fallback, so no supported GPU compiles PTX at load.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "build_archs.h"
#include "runtime/fatbin_contents.h"
#include "runtime/fatbins.h"

using namespace asyncgemm;

namespace {

// ASYNCGEMM_TEST_ARCHS (build_archs.h) and ASYNCGEMM_TEST_PTX come from the build: what it compiled.
std::set<uint32_t> expected_sass() { return test::built_archs(); }

// The SASS and the PTX architectures of an embedded unit's fatbin (runtime/fatbins.h).
struct Images {
    std::set<uint32_t> sass, ptx;
};
Images images_of(const EmbeddedUnit &unit) {
    Images images;
    for (const FatbinEntry &e : fatbin_entries(unit.image()))
        (e.kind == FatbinEntry::Sass ? images.sass : images.ptx).insert(e.arch);
    return images;
}

}  // namespace

TEST_CASE("every unit of the portable families holds SASS for each built architecture and compute_80 PTX") {
    int units = 0;
    for (size_t u = 0; u < kEmbeddedUnitCount; ++u) {
        const EmbeddedUnit &unit = kEmbeddedUnits[u];
        if (unit.family != Family::Copy && unit.family != Family::Simt && unit.family != Family::Sm80) continue;
        CAPTURE(unit.name);
        ++units;
        const Images images = images_of(unit);
        CHECK(images.sass == expected_sass());
        if (ASYNCGEMM_TEST_PTX) {
            CHECK(images.ptx == std::set<uint32_t>{80});
        } else {
            CHECK(images.ptx.empty());
        }
    }
    CHECK(units > 0);
}

TEST_CASE("every unit of the Hopper family holds sm_90a SASS alone, of the Blackwell family sm_100a") {
    // sm_90a and sm_100a code is not forward compatible, not even as PTX: anything else would be a JIT
    // trap.  The Blackwell family is compiled but never run in this project: with the check that each
    // family is built where the build's architectures have its own (test_kernel_lists.cpp), this is
    // the proof that its tcgen05 kernels are in the library.  An entry's architecture field reads 100
    // for sm_100a.
    for (size_t u = 0; u < kEmbeddedUnitCount; ++u) {
        const EmbeddedUnit &unit = kEmbeddedUnits[u];
        if (unit.family != Family::Sm90 && unit.family != Family::Sm100) continue;
        CAPTURE(unit.name);
        const Images images = images_of(unit);
        CHECK(images.sass == std::set<uint32_t>{unit.family == Family::Sm90 ? 90u : 100u});
        CHECK(images.ptx.empty());
    }
}

TEST_CASE("which GPUs a fatbin's entries may run on: SASS within its major, PTX from its architecture up") {
    using E = FatbinEntry;
    const std::vector<FatbinEntry> portable{{E::Sass, 80}, {E::Sass, 90}, {E::Ptx, 80}};
    CHECK(may_run_on(portable, 8, 6));   // sm_80 SASS
    CHECK(may_run_on(portable, 12, 0));  // compute_80 PTX, compiled by the driver
    const std::vector<FatbinEntry> sass_only{{E::Sass, 80}, {E::Sass, 90}};
    CHECK(may_run_on(sass_only, 9, 0));
    CHECK_FALSE(may_run_on(sass_only, 10, 0));  // no SASS of major 10, no PTX
    CHECK_FALSE(may_run_on(sass_only, 7, 5));
    const std::vector<FatbinEntry> blackwell{{E::Sass, 100}};
    CHECK_FALSE(may_run_on(blackwell, 9, 0));  // the H100: no driver call for the sm100 family
    CHECK(may_run_on(blackwell, 10, 0));
    CHECK_FALSE(may_run_on(blackwell, 12, 0));
    CHECK_FALSE(may_run_on({{E::Sass, 86}}, 8, 0));  // SASS runs on its own minor and later ones
}

TEST_CASE("a fatbin that is not one is refused") {
    const unsigned char junk[32] = {1, 2, 3};
    CHECK_THROWS(fatbin_entries({junk, sizeof junk}));
    CHECK_THROWS(fatbin_entries({junk, 4}));
}
