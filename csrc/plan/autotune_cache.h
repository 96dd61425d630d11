// The autotuner's memory: which configuration won each shape bucket on one kind of GPU, held in a
// map and in one text file per (GPU name, compute capability, library version) on disk.
//
// Needs no GPU and no Handle (the timing lives in plan/autotune.h), so tests/unit exercises all of it.
//
// The file, in the cache directory, is named by the GPU and library version and reads
//
//   asyncgemm-autotune format=1 library=0.1.0 table=3c2f0a9d41b7e655 cc=9.0 device=NVIDIA H100 80GB HBM3
//
// (one file per kernel family whose configurations are tuned, named autotune-<family>-...)
//   f16.f32.ak.bmn.m1024.n1024.k4096.b1 0
//   ...
//
// a header line, then one "<bucket key> <configuration index>" line per bucket, every line ending
// in '\n'.  A file is trusted whole or not at all: one malformed line, a missing final newline or a
// header naming anything else makes it foreign, ignored with one warning and replaced at the next
// write.  Entries naming a configuration out of range are dropped one by one.
//
// Writers never lock: each reads the file, merges its own entries over it and renames a private
// temporary file over it (plan/cache_files.h), so readers always see a whole file and concurrent
// writers can at worst lose each other's newest entries (which the loser's process re-tunes some day).
#pragma once

#include <stdint.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "kernels/common/params.h"
#include "plan/cache_files.h"  // default_cache_directory(), the directory of the file

namespace asyncgemm::plan {

// Problems that share a bucket share a tuned configuration: the same types and majors, and m, n, k
// and batch_count each rounded up to a power of two.  Between a size and its double the tile counts
// change by at most 2x per dimension, which moves a winner rarely, while finer buckets would time
// nearly every new shape of a workload whose sizes drift (sequence lengths, batch sizes).
struct ShapeBucket {
    int32_t type_ab = 0, type_cd = 0;  // DType values
    bool a_k_major = true, b_k_major = true;
    int64_t m = 1, n = 1, k = 1, batch_count = 1;  // powers of two
};

bool operator==(const ShapeBucket &x, const ShapeBucket &y);

// The smallest power of two >= value; 1 for value <= 1, and 2^62 for anything larger.
int64_t round_up_pow2(int64_t value);

// The bucket of a canonical problem.
ShapeBucket bucket_of(const GemmParams &params);

// "f16.f32.ak.bmn.m1024.n1024.k4096.b1": types of A/B and C/D, majors of A and B (k: K-major, mn:
// M- or N-major), then the rounded extents.  One token, no spaces.
std::string bucket_key(const ShapeBucket &bucket);

// The bucket a key names; nullopt unless `key` is exactly what bucket_key writes for some bucket.
std::optional<ShapeBucket> parse_bucket_key(const std::string &key);

// The GPU a cache file belongs to.
struct GpuIdentity {
    std::string device_name;  // as cuDeviceGetName reports it
    int cc_major = 0, cc_minor = 0;
};

// The configurations a cache's entries index: how many, and a fingerprint of what they are, so
// that a file written for another table (a build that changed a tile shape or a stage count but not
// the version) is foreign rather than trusted.
struct ConfigTable {
    int count = 0;
    uint64_t fingerprint = 0;
    const char *family = "sm80";  // whose configurations: each family has a file of its own
};

// The first line of the GPU's cache file for this library version, file format and table.
std::string cache_header(const GpuIdentity &gpu, const ConfigTable &table);

// The cache file's name (no directory): the table's family, the GPU, compute capability and library
// version, with every character but letters, digits, '.', '-' and '_' replaced by '_'.
std::string cache_file_name(const GpuIdentity &gpu, const ConfigTable &table);

// What a cache file holds.
struct CacheFileContents {
    enum class State { Missing, Valid, Foreign } state = State::Missing;
    std::map<std::string, int> entries;  // bucket key -> configuration, when Valid
    int dropped_entries = 0;             // lines of a Valid file naming a configuration out of range
    std::string problem;                 // why the file is Foreign, or why it could not be read
};

// Reads and checks a cache file against `header`; configurations must lie in [0, table.count).
CacheFileContents read_cache_file(const std::string &path, const std::string &header, const ConfigTable &table);

class AutotuneCache {
public:
    // The cache of `gpu` in `directory` ("": in memory only), for the configurations of `table`.
    // Touches no file until the first find or remember.
    AutotuneCache(std::string directory, GpuIdentity gpu, ConfigTable table);
    AutotuneCache(const AutotuneCache &) = delete;
    AutotuneCache &operator=(const AutotuneCache &) = delete;

    // The remembered configuration of the bucket, loading the file at the first call.
    std::optional<int> find(const ShapeBucket &bucket);
    // Remembers the bucket's winner in memory and, unless the directory cannot be written, on disk
    // (merged with whatever other processes wrote since).  I/O failures never throw: they warn once
    // and leave the cache in memory only.
    void remember(const ShapeBucket &bucket, int config);

    // The file, "" when in memory only.
    const std::string &path() const { return path_; }
    // True once this cache printed (or, under ASYNCGEMM_QUIET=1, would have printed) its warning.
    bool warned() const;

private:
    void load_locked();
    void write_locked();
    void warn_locked(const std::string &message);

    mutable std::mutex mutex_;
    std::string directory_;
    std::string path_;
    std::string header_;
    ConfigTable table_;
    bool loaded_ = false;
    bool warned_ = false;
    std::map<std::string, int> entries_;  // bucket key -> configuration
};

}  // namespace asyncgemm::plan
