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

TEST_CASE("a fatbin that is not one is refused") {
    const unsigned char junk[32] = {1, 2, 3};
    CHECK_THROWS(fatbin_entries({junk, sizeof junk}));
    CHECK_THROWS(fatbin_entries({junk, 4}));
}
