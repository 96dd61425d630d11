// What an embedded fatbin holds: one entry per image (SASS for an architecture, or PTX).
//
// The layout is the one nvcc's fatbinary writes (not documented by NVIDIA; read off its output): a
// 16-byte header (magic 0xBA55ED50, version, header size, size of the entries), then entries, each
// a header (kind, its own size, payload size, ..., architecture) followed by its payload.
#pragma once

#include <stdint.h>

#include <vector>

#include "runtime/fatbins.h"

namespace asyncgemm {

struct FatbinEntry {
    enum Kind : uint16_t { Ptx = 1, Sass = 2 } kind;
    uint32_t arch;  // 80 for sm_80 / compute_80, 100 for sm_100 and sm_100a
};

// The entries of a fatbin; throws INTERNAL_ERROR if the image is not a well-formed fatbin.
std::vector<FatbinEntry> fatbin_entries(FatbinImage image);

}  // namespace asyncgemm
