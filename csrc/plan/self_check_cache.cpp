#include "plan/self_check_cache.h"

#include <stdio.h>

#include "plan/cache_files.h"

namespace asyncgemm::plan {
namespace {

// Bumped whenever the file's meaning changes; older and newer files are then foreign, never misread.
constexpr int kVerdictFormat = 1;

// A verdict file is two short lines; one larger than this is not one this library wrote.
constexpr size_t kMaxVerdictBytes = 64 * 1024;

constexpr const char *kHeaderPrefix = "asyncgemm-selfcheck ";
constexpr const char *kPassLine = "pass";
constexpr const char *kFailPrefix = "fail ";

// The verdict `text` holds under `header`, else nullopt and `problem` says why it holds none.
std::optional<SelfCheckOutcome> parse_verdict(const std::string &text, const std::string &header,
                                              std::string &problem) {
    const size_t header_end = text.find('\n');
    const size_t verdict_end = header_end == std::string::npos ? header_end : text.find('\n', header_end + 1);
    // Two lines, each ended by its line break: a missing last one is what a torn write leaves.
    if (verdict_end == std::string::npos || verdict_end != text.size() - 1) {
        problem = "is not two whole lines";
        return std::nullopt;
    }
    const std::string first = text.substr(0, header_end);
    const std::string verdict = text.substr(header_end + 1, verdict_end - header_end - 1);
    const size_t prefix = std::char_traits<char>::length(kFailPrefix);
    if (first != header)
        problem = first.rfind(kHeaderPrefix, 0) == 0
                      ? "was written for another GPU, driver, kernel build or file format (\"" + first + "\")"
                      : "is not an asyncgemm self-check verdict";
    else if (verdict == kPassLine)
        return SelfCheckOutcome{true, "", false};
    else if (verdict.size() > prefix && verdict.compare(0, prefix, kFailPrefix) == 0)
        return SelfCheckOutcome{false, verdict.substr(prefix), false};
    else
        problem = "holds no verdict";
    return std::nullopt;
}

}  // namespace

std::string verdict_header(const VerdictKey &key) {
    char kernels[17];
    snprintf(kernels, sizeof kernels, "%016llx", static_cast<unsigned long long>(key.kernels));
    return kHeaderPrefix + std::string("format=") + std::to_string(kVerdictFormat) + " family=" + key.check + " library=" +
           library_version() + " kernels=" + kernels + " driver=" + std::to_string(key.driver_version) +
           " uuid=" + one_line(key.uuid) + " device=" + one_line(key.device_name);
}

std::string verdict_file_name(const VerdictKey &key) {
    return file_name_safe("selfcheck-" + key.check + "-" + key.device_name + "-" + key.uuid + "-driver" +
                          std::to_string(key.driver_version) + "-" + library_version() + ".txt");
}

VerdictCache::VerdictCache(std::string directory, const VerdictKey &key, Warn warn)
    : directory_(std::move(directory)),
      path_(directory_.empty() ? "" : directory_ + "/" + verdict_file_name(key)),
      header_(verdict_header(key)),
      warn_(std::move(warn)) {}

std::optional<SelfCheckOutcome> VerdictCache::find() {
    if (path_.empty()) return std::nullopt;
    bool missing = false;
    std::string problem;
    const std::optional<std::string> text = read_small_file(path_, kMaxVerdictBytes, missing, problem);
    if (missing) return std::nullopt;
    if (text) {
        std::optional<SelfCheckOutcome> verdict = parse_verdict(*text, header_, problem);
        if (verdict) return verdict;
    }
    warn_once("asyncgemm: self-check cache " + path_ + " " + problem + ": ignored, and replaced after the check");
    return std::nullopt;
}

void VerdictCache::remember(const SelfCheckOutcome &outcome) {
    if (path_.empty()) return;
    std::string problem = make_directories(directory_);
    if (problem.empty())
        problem = replace_file(path_, header_ + "\n" +
                                          (outcome.passed ? kPassLine : kFailPrefix + one_line(outcome.detail)) + "\n");
    if (problem.empty()) return;
    warn_once("asyncgemm: self-check cache: " + problem + ": the verdict is kept in memory only");
    path_.clear();
}

void VerdictCache::warn_once(const std::string &message) {
    if (warned_) return;
    warned_ = true;
    warn_(message);
}

}  // namespace asyncgemm::plan
