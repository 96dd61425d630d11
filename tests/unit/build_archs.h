// The architectures the build compiled for, as CMake hands them to the unit tests
// (ASYNCGEMM_TEST_ARCHS: "80,90,...", ASYNCGEMM_ARCHS without the letters).
#pragma once

#include <stdint.h>

#include <set>
#include <sstream>
#include <string>

namespace asyncgemm::test {

inline std::set<uint32_t> built_archs() {
    std::set<uint32_t> archs;
    std::istringstream list(ASYNCGEMM_TEST_ARCHS);
    for (std::string arch; std::getline(list, arch, ',');) archs.insert(static_cast<uint32_t>(std::stoul(arch)));
    return archs;
}

}  // namespace asyncgemm::test
