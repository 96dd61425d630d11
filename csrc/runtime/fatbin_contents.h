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

// Whether any entry may run on a GPU of compute capability cc_major.cc_minor: SASS of the same major
// and a minor no higher, or PTX of an architecture no higher (the driver compiles it).  A filter, not
// the final word: sm_90a/sm_100a SASS runs on x.0 alone, which the entry does not record, so the
// driver still decides for such a GPU; where this answers false no driver call is needed (a failing
// one would be reported by compute-sanitizer as an error).
bool may_run_on(const std::vector<FatbinEntry> &entries, int cc_major, int cc_minor);

}  // namespace asyncgemm
