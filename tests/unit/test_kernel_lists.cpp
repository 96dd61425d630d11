// The kernel table and the build agree: every kernel the planner can launch is in the fatbin of its
// unit, for every architecture that unit was compiled for.  Both come from one list per family
// (csrc/kernels/<family>/<family>_kernels.def), so a disagreement means the build is broken; at run
// time it fails handle creation (runtime/handle.h) instead of passing as "no code for this GPU".
//
// The cubins are read from the build tree (ASYNCGEMM_TEST_KERNEL_DIR): the embedded fatbins are
// compressed, the cubins are plain ELF, whose symbol table names every kernel.
#include <doctest/doctest.h>

#include <stdint.h>
#include <string.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "build_archs.h"
#include "plan/kernel_table.h"
#include "runtime/fatbins.h"
#include "runtime/handle.h"

using namespace asyncgemm;

namespace {

template <typename T>
T read_at(const std::vector<char> &bytes, uint64_t offset) {
    REQUIRE(offset + sizeof(T) <= bytes.size());
    T value;
    memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

// The names of the function symbols of a 64-bit little-endian ELF file (a cubin).
std::set<std::string> function_symbols(const std::filesystem::path &file) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> elf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(elf.size() > 64);
    REQUIRE(memcmp(elf.data(), "\x7f" "ELF", 4) == 0);
    REQUIRE(elf[4] == 2);  // ELFCLASS64
    const auto section_offset = read_at<uint64_t>(elf, 0x28);
    const auto section_size = read_at<uint16_t>(elf, 0x3a);
    const auto sections = read_at<uint16_t>(elf, 0x3c);
    const auto header = [&](uint32_t index, uint32_t field) { return section_offset + index * section_size + field; };
    std::set<std::string> names;
    for (uint32_t s = 0; s < sections; ++s) {
        if (read_at<uint32_t>(elf, header(s, 4)) != 2) continue;  // SHT_SYMTAB
        const auto symbols = read_at<uint64_t>(elf, header(s, 0x18));
        const auto symbols_size = read_at<uint64_t>(elf, header(s, 0x20));
        const auto strings = read_at<uint64_t>(elf, header(read_at<uint32_t>(elf, header(s, 0x28)), 0x18));
        for (uint64_t sym = symbols; sym + 24 <= symbols + symbols_size; sym += 24) {
            if ((read_at<uint8_t>(elf, sym + 4) & 0xf) != 2) continue;  // STT_FUNC
            names.insert(elf.data() + strings + read_at<uint32_t>(elf, sym));
        }
    }
    return names;
}

}  // namespace

TEST_CASE("every kernel of the table is in each cubin of its unit, and every unit of a built family is embedded") {
    const KernelTable &table = plan::kernel_table();
    REQUIRE(table.count > 0);
    // Every family is built but the architecture-specific ones, which are where the build's
    // architectures have theirs; a built family has every unit embedded.
    std::set<Family> built;
    for (size_t u = 0; u < kEmbeddedUnitCount; ++u) built.insert(kEmbeddedUnits[u].family);
    const std::set<uint32_t> archs = test::built_archs();
    for (size_t f = 0; f < static_cast<size_t>(Family::Count); ++f) {
        const Family family = static_cast<Family>(f);
        CAPTURE(family_name(family));
        const int architecture = family_architecture(family);
        const bool expected = architecture == 0 || archs.count(static_cast<uint32_t>(architecture)) == 1;
        CHECK(built.count(family) == (expected ? 1u : 0u));
    }
    std::set<std::string> names;
    for (size_t i = 0; i < table.count; ++i) {
        const KernelSpec &k = table.kernels[i];
        CAPTURE(k.name);
        CHECK(names.insert(k.name).second);  // names are unique
        if (built.count(k.family) == 0) continue;
        const EmbeddedUnit &unit = kEmbeddedUnits[embedded_unit_index(k.unit)];
        CHECK(unit.family == k.family);
        const std::filesystem::path dir = std::filesystem::path(ASYNCGEMM_TEST_KERNEL_DIR) / family_name(k.family);
        int cubins = 0;
        for (const auto &entry : std::filesystem::directory_iterator(dir)) {
            const std::string file = entry.path().filename().string();
            if (file.rfind(std::string(k.unit) + ".sm_", 0) != 0 || entry.path().extension() != ".cubin") continue;
            CAPTURE(file);
            ++cubins;
            CHECK(function_symbols(entry.path()).count(k.name) == 1);
        }
        CHECK(cubins > 0);
    }
    // And no unit is embedded that the table never names.
    for (size_t u = 0; u < kEmbeddedUnitCount; ++u) {
        bool named = false;
        for (size_t i = 0; i < table.count; ++i) named = named || strcmp(table.kernels[i].unit, kEmbeddedUnits[u].name) == 0;
        CHECK_MESSAGE(named, kEmbeddedUnits[u].name);
    }
}

TEST_CASE("a kernel missing from its unit's fatbin is an error that names both") {
    const KernelSpec spec{Family::Sm90, "sm90_f16_128x256_s4", "asyncgemm_sm90_gemm_f16_128x256_s4_kx", 0};
    const std::string message = missing_kernel_message(spec);
    CHECK(message.find("asyncgemm_sm90_gemm_f16_128x256_s4_kx") != std::string::npos);
    CHECK(message.find("sm90_f16_128x256_s4") != std::string::npos);
    CHECK_THROWS(embedded_unit_index("sm90_no_such_unit"));
}
