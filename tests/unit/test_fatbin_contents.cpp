// The embedded fatbins carry SASS for every architecture the build was asked for, plus the PTX
// fallback, so no supported GPU compiles PTX at load.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/fatbin_contents.h"

using namespace asyncgemm;

namespace {

// ASYNCGEMM_TEST_ARCHS ("80,90,...") and ASYNCGEMM_TEST_PTX come from the build: what it compiled.
std::set<uint32_t> expected_sass() {
    std::set<uint32_t> archs;
    std::istringstream list(ASYNCGEMM_TEST_ARCHS);
    for (std::string arch; std::getline(list, arch, ',');) archs.insert(static_cast<uint32_t>(std::stoul(arch)));
    return archs;
}

}  // namespace

TEST_CASE("portable families hold SASS for each built architecture and compute_80 PTX") {
    for (Family family : {Family::Copy, Family::Simt, Family::Sm80}) {
        CAPTURE(family_name(family));
        std::set<uint32_t> sass, ptx;
        for (const FatbinEntry &e : fatbin_entries(embedded_fatbin(family)))
            (e.kind == FatbinEntry::Sass ? sass : ptx).insert(e.arch);
        CHECK(sass == expected_sass());
        if (ASYNCGEMM_TEST_PTX) {
            CHECK(ptx == std::set<uint32_t>{80});
        } else {
            CHECK(ptx.empty());
        }
    }
}

TEST_CASE("the Hopper family holds sm_90a SASS alone") {
    // sm_90a code is not forward compatible, not even as PTX: anything else would be a JIT trap.
    const std::vector<FatbinEntry> entries = fatbin_entries(embedded_fatbin(Family::Sm90));
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].kind == FatbinEntry::Sass);
    CHECK(entries[0].arch == 90);
}

TEST_CASE("the Blackwell family holds sm_100a SASS alone") {
    // Compiled (CMakeLists.txt: ARCHS 100a) but never run in this project: this is the proof that the
    // tcgen05 kernels are in the library.  The entry's architecture field reads 100 for sm_100a.
    const std::vector<FatbinEntry> entries = fatbin_entries(embedded_fatbin(Family::Sm100));
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].kind == FatbinEntry::Sass);
    CHECK(entries[0].arch == 100);
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
