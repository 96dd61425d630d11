#include "plan/autotune_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <charconv>
#include <vector>

namespace asyncgemm::plan {
namespace {

// Bumped whenever a line's meaning changes; older and newer files are then foreign, never misread.
constexpr int kCacheFormat = 1;

constexpr int64_t kLargestBucket = int64_t{1} << 62;

// A cache file larger than this is not one this library wrote (a bucket line is under 64 bytes).
constexpr size_t kMaxFileBytes = size_t{16} << 20;

constexpr const char *kHeaderPrefix = "asyncgemm-autotune ";

const char *dtype_token(int32_t dtype) {
    switch (dtype) {
    case kF32: return "f32";
    case kF16: return "f16";
    case kBF16: return "bf16";
    default: return "?";
    }
}

std::optional<int32_t> parse_dtype(const std::string &token) {
    for (const int32_t dtype : {kF32, kF16, kBF16}) {
        if (token == dtype_token(dtype)) return dtype;
    }
    return std::nullopt;
}

// A whole decimal string as an integer; nullopt for anything else (signs, spaces, overflow).
template <typename Int>
std::optional<Int> parse_integer(const std::string &text) {
    Int value{};
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
    return value;
}

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts;
    size_t begin = 0;
    for (size_t end; (end = text.find(separator, begin)) != std::string::npos; begin = end + 1)
        parts.push_back(text.substr(begin, end - begin));
    parts.push_back(text.substr(begin));
    return parts;
}

bool quiet() {
    const char *value = getenv("ASYNCGEMM_QUIET");
    return value != nullptr && strcmp(value, "1") == 0;
}

}  // namespace

bool operator==(const ShapeBucket &x, const ShapeBucket &y) {
    return x.type_ab == y.type_ab && x.type_cd == y.type_cd && x.a_k_major == y.a_k_major &&
           x.b_k_major == y.b_k_major && x.m == y.m && x.n == y.n && x.k == y.k && x.batch_count == y.batch_count;
}

int64_t round_up_pow2(int64_t value) {
    if (value >= kLargestBucket) return kLargestBucket;
    int64_t power = 1;
    while (power < value) power *= 2;
    return power;
}

ShapeBucket bucket_of(const GemmParams &params) {
    ShapeBucket bucket;
    bucket.type_ab = params.type_ab;
    bucket.type_cd = params.type_cd;
    bucket.a_k_major = params.a_k_major != 0;
    bucket.b_k_major = params.b_k_major != 0;
    bucket.m = round_up_pow2(params.m);
    bucket.n = round_up_pow2(params.n);
    bucket.k = round_up_pow2(params.k);
    bucket.batch_count = round_up_pow2(params.batch_count);
    return bucket;
}

std::string bucket_key(const ShapeBucket &bucket) {
    return std::string(dtype_token(bucket.type_ab)) + "." + dtype_token(bucket.type_cd) +
           (bucket.a_k_major ? ".ak" : ".amn") + (bucket.b_k_major ? ".bk" : ".bmn") + ".m" +
           std::to_string(bucket.m) + ".n" + std::to_string(bucket.n) + ".k" + std::to_string(bucket.k) + ".b" +
           std::to_string(bucket.batch_count);
}

std::optional<ShapeBucket> parse_bucket_key(const std::string &key) {
    const std::vector<std::string> parts = split(key, '.');
    if (parts.size() != 8) return std::nullopt;
    const auto type_ab = parse_dtype(parts[0]);
    const auto type_cd = parse_dtype(parts[1]);
    if (!type_ab || !type_cd) return std::nullopt;
    ShapeBucket bucket;
    bucket.type_ab = *type_ab;
    bucket.type_cd = *type_cd;
    bucket.a_k_major = parts[2] == "ak";
    bucket.b_k_major = parts[3] == "bk";
    int64_t *const extents[] = {&bucket.m, &bucket.n, &bucket.k, &bucket.batch_count};
    for (int i = 0; i < 4; ++i) {
        const std::string &part = parts[4 + i];
        const auto value = parse_integer<int64_t>(part.empty() ? part : part.substr(1));
        if (!value || *value < 1 || round_up_pow2(*value) != *value) return std::nullopt;
        *extents[i] = *value;
    }
    // Anything bucket_key would not write (other prefixes, leading zeros, unknown majors) is refused.
    if (bucket_key(bucket) != key) return std::nullopt;
    return bucket;
}

std::string cache_header(const GpuIdentity &gpu, const ConfigTable &table) {
    std::string device = gpu.device_name;
    for (char &c : device) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    char fingerprint[17];
    snprintf(fingerprint, sizeof fingerprint, "%016llx", static_cast<unsigned long long>(table.fingerprint));
    return kHeaderPrefix + std::string("format=") + std::to_string(kCacheFormat) + " library=" + library_version() +
           " table=" + fingerprint + " cc=" + std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor) +
           " device=" + device;
}

std::string cache_file_name(const GpuIdentity &gpu, const ConfigTable &table) {
    return file_name_safe("autotune-" + std::string(table.family) + "-" + gpu.device_name + "-cc" +
                          std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor) + "-" + library_version() +
                          ".txt");
}

CacheFileContents read_cache_file(const std::string &path, const std::string &header, const ConfigTable &table) {
    CacheFileContents contents;
    bool missing = false;
    const std::optional<std::string> text = read_small_file(path, kMaxFileBytes, missing, contents.problem);
    if (!text) {
        contents.state = missing ? CacheFileContents::State::Missing : CacheFileContents::State::Foreign;
        return contents;
    }
    const auto foreign = [&](std::string problem) {
        CacheFileContents refused;
        refused.state = CacheFileContents::State::Foreign;
        refused.problem = std::move(problem);
        return refused;
    };
    // A last line without its newline is what a torn write leaves: the whole file is suspect.
    if (text->empty() || text->back() != '\n') return foreign("is empty or its last line is cut short");
    std::vector<std::string> lines = split(*text, '\n');
    lines.pop_back();  // the empty string after the final newline
    if (lines.front() != header) {
        if (lines.front().rfind(kHeaderPrefix, 0) == 0)
            return foreign("was written for another GPU, library version, kernel table or file format (\"" +
                           lines.front() + "\")");
        return foreign("is not an asyncgemm autotune cache");
    }
    for (size_t i = 1; i < lines.size(); ++i) {
        const std::vector<std::string> fields = split(lines[i], ' ');
        const auto config = fields.size() == 2 ? parse_integer<int>(fields[1]) : std::nullopt;
        if (!config || !parse_bucket_key(fields[0]))
            return foreign("line " + std::to_string(i + 1) + " is not \"<bucket> <configuration>\"");
        if (*config < 0 || *config >= table.count) {
            ++contents.dropped_entries;
            continue;
        }
        contents.entries[fields[0]] = *config;
    }
    contents.state = CacheFileContents::State::Valid;
    return contents;
}

AutotuneCache::AutotuneCache(std::string directory, GpuIdentity gpu, ConfigTable table)
    : directory_(std::move(directory)),
      path_(directory_.empty() ? "" : directory_ + "/" + cache_file_name(gpu, table)),
      header_(cache_header(gpu, table)),
      table_(table) {}

std::optional<int> AutotuneCache::find(const ShapeBucket &bucket) {
    const std::lock_guard<std::mutex> lock(mutex_);
    load_locked();
    const auto found = entries_.find(bucket_key(bucket));
    if (found == entries_.end()) return std::nullopt;
    return found->second;
}

void AutotuneCache::remember(const ShapeBucket &bucket, int config) {
    const std::string key = bucket_key(bucket);
    // Only what the file format can read back is written: one bad line would void the whole file.
    if (config < 0 || config >= table_.count || !parse_bucket_key(key)) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    load_locked();
    entries_[key] = config;
    if (!path_.empty()) write_locked();
}

bool AutotuneCache::warned() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return warned_;
}

void AutotuneCache::load_locked() {
    if (loaded_ || path_.empty()) return;
    loaded_ = true;
    const CacheFileContents contents = read_cache_file(path_, header_, table_);
    if (contents.state == CacheFileContents::State::Foreign) {
        warn_locked(path_ + " " + contents.problem + ": ignored, and replaced at the next tuning");
        return;
    }
    if (contents.dropped_entries > 0)
        warn_locked(path_ + ": ignored " + std::to_string(contents.dropped_entries) +
                    " entries naming a configuration outside 0.." + std::to_string(table_.count - 1));
    entries_.insert(contents.entries.begin(), contents.entries.end());
}

void AutotuneCache::write_locked() {
    const auto give_up = [&](const std::string &problem) {
        warn_locked(problem + ": tuned configurations are kept in memory only");
        path_.clear();
    };
    const std::string directory_problem = make_directories(directory_);
    if (!directory_problem.empty()) return give_up(directory_problem);

    // What other processes wrote since this one loaded joins this one's entries (which win a clash).
    const CacheFileContents on_disk = read_cache_file(path_, header_, table_);
    if (on_disk.state == CacheFileContents::State::Foreign)
        warn_locked(path_ + " " + on_disk.problem + ": replaced");
    entries_.insert(on_disk.entries.begin(), on_disk.entries.end());

    std::string text = header_ + "\n";
    for (const auto &[key, config] : entries_) text += key + " " + std::to_string(config) + "\n";
    const std::string problem = replace_file(path_, text);
    if (!problem.empty()) give_up(problem);
}

void AutotuneCache::warn_locked(const std::string &message) {
    if (warned_) return;
    warned_ = true;
    if (!quiet()) fprintf(stderr, "asyncgemm: autotune cache %s\n", message.c_str());
}

}  // namespace asyncgemm::plan
