#include "runtime/fatbin_contents.h"

#include <string.h>

#include <string>

#include "common/error.h"

namespace asyncgemm {
namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50u;

struct FileHeader {
    uint32_t magic;
    uint16_t version;
    uint16_t header_bytes;
    uint64_t entries_bytes;
};

struct EntryHeader {
    uint16_t kind;
    uint16_t flags;
    uint32_t header_bytes;
    uint64_t payload_bytes;
    uint32_t compressed_bytes;
    uint32_t reserved;
    uint16_t minor, major;
    uint32_t arch;
};

template <typename T>
T read_at(const unsigned char *bytes, size_t size, size_t offset) {
    if (offset > size || size - offset < sizeof(T))
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "fatbin truncated at byte " + std::to_string(offset));
    T value;
    memcpy(&value, bytes + offset, sizeof value);
    return value;
}

}  // namespace

std::vector<FatbinEntry> fatbin_entries(FatbinImage image) {
    const auto *bytes = static_cast<const unsigned char *>(image.data);
    const auto file = read_at<FileHeader>(bytes, image.size, 0);
    if (file.magic != kFatbinMagic) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "not a fatbin: bad magic");
    const uint64_t end = file.header_bytes + file.entries_bytes;
    if (end > image.size) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "fatbin entries run past the image");
    std::vector<FatbinEntry> entries;
    for (uint64_t offset = file.header_bytes; offset < end;) {
        const auto entry = read_at<EntryHeader>(bytes, image.size, offset);
        if (entry.kind != FatbinEntry::Ptx && entry.kind != FatbinEntry::Sass)
            fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "fatbin entry of unknown kind " + std::to_string(entry.kind));
        if (entry.header_bytes == 0) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "fatbin entry with an empty header");
        entries.push_back({static_cast<FatbinEntry::Kind>(entry.kind), entry.arch});
        offset += entry.header_bytes + entry.payload_bytes;
    }
    return entries;
}

bool may_run_on(const std::vector<FatbinEntry> &entries, int cc_major, int cc_minor) {
    const auto device = static_cast<uint32_t>(cc_major * 10 + cc_minor);
    for (const FatbinEntry &e : entries) {
        if (e.kind == FatbinEntry::Ptx && e.arch <= device) return true;
        if (e.kind == FatbinEntry::Sass && e.arch / 10 == device / 10 && e.arch <= device) return true;
    }
    return false;
}

}  // namespace asyncgemm
