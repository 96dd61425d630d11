#include "plan/self_check_helper.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

// Set by csrc/selfcheck/CMakeLists.txt from GNUInstallDirs, for this file alone.
#ifndef ASYNCGEMM_HELPER_DIR_FROM_LIBDIR
#error "ASYNCGEMM_HELPER_DIR_FROM_LIBDIR (the helper's install directory relative to the library's) is not defined"
#endif

namespace asyncgemm::plan {
namespace {

constexpr const char *kPassLine = "pass";
constexpr const char *kFailPrefix = "fail: ";
constexpr const char *kErrorPrefix = "error: ";

// How much of an output that is no verdict the message quotes.
constexpr size_t kQuotedOutput = 120;

struct SignalName {
    int number;
    const char *name;
    bool crash;  // raised by the process's own fault, not sent by someone
};

constexpr SignalName kSignals[] = {
    {SIGSEGV, "SIGSEGV", true},  {SIGBUS, "SIGBUS", true},   {SIGILL, "SIGILL", true},   {SIGFPE, "SIGFPE", true},
    {SIGABRT, "SIGABRT", true},  {SIGTRAP, "SIGTRAP", true}, {SIGSYS, "SIGSYS", true},   {SIGKILL, "SIGKILL", false},
    {SIGTERM, "SIGTERM", false}, {SIGINT, "SIGINT", false},  {SIGHUP, "SIGHUP", false}, {SIGQUIT, "SIGQUIT", false},
    {SIGPIPE, "SIGPIPE", false},
};

// The helper's line, parsed: its exit status and what follows the prefix.
struct HelperLine {
    int status;
    std::string text;
};

// The one line of `output`, ended by its only line break, starting as verdict_line or error_line
// start theirs and with something after the prefix of a failure or error; nullopt for anything else.
std::optional<HelperLine> parse_line(const std::string &output) {
    if (output.empty() || output.find('\n') != output.size() - 1) return std::nullopt;
    const std::string line = output.substr(0, output.size() - 1);
    if (line == kPassLine) return HelperLine{kHelperPassed, ""};
    for (const auto &[prefix, status] : {std::pair{kFailPrefix, kHelperFailed}, std::pair{kErrorPrefix, kHelperError}}) {
        const size_t length = std::char_traits<char>::length(prefix);
        if (line.size() > length && line.compare(0, length, prefix) == 0) return HelperLine{status, line.substr(length)};
    }
    return std::nullopt;
}

// The start of an output that is no verdict, for a message: line breaks as "\n", other control
// characters and bytes beyond ASCII as '?'.
std::string quoted(const std::string &output) {
    if (output.empty()) return "nothing";
    std::string text = "\"";
    for (size_t i = 0; i < output.size() && i < kQuotedOutput; ++i) {
        const unsigned char c = static_cast<unsigned char>(output[i]);
        if (c == '\n')
            text += "\\n";
        else
            text += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
    }
    return text + (output.size() > kQuotedOutput ? "\"..." : "\"");
}

std::string duration_text(std::chrono::milliseconds limit) {
    if (limit.count() % 1000 == 0) return std::to_string(limit.count() / 1000) + " s";
    return std::to_string(limit.count()) + " ms";
}

}  // namespace

std::string verdict_line(const SelfCheckOutcome &outcome) {
    return outcome.passed ? kPassLine : kFailPrefix + one_line(outcome.detail);
}

std::string error_line(const std::string &message) { return kErrorPrefix + one_line(message); }

HelperVerdict judge_helper_run(const std::string &path, const ChildResult &run, std::chrono::milliseconds limit) {
    const std::string helper = std::string(kHelperName) + " (" + path + ")";
    switch (run.end) {
    case ChildResult::End::NotStarted: return {{false, run.problem}, false};
    case ChildResult::End::TimedOut:
        return {{false, helper + " did not finish within " + duration_text(limit) + " and was killed"}, true};
    case ChildResult::End::Signaled:
        for (const SignalName &signal : kSignals) {
            if (signal.number != run.code) continue;
            if (signal.crash) return {{false, helper + " crashed (" + signal.name + ")"}, true};
            return {{false, helper + " was killed by " + signal.name}, false};
        }
        return {{false, helper + " was killed by signal " + std::to_string(run.code)}, false};
    case ChildResult::End::Exited:
    case ChildResult::End::StatusLost: break;
    }
    const std::optional<HelperLine> line = parse_line(run.output);
    // Without the status (someone else reaped the helper), the line alone speaks.
    const bool status_known = run.end == ChildResult::End::Exited;
    if (line && (!status_known || run.code == line->status)) {
        if (line->status == kHelperPassed) return {{true, ""}, true};
        if (line->status == kHelperFailed) return {{false, line->text}, true};
        return {{false, helper + " could not run the check: " + line->text}, false};
    }
    const std::string status = status_known ? "exit status " + std::to_string(run.code) : "exit status unknown";
    return {{false, helper + " gave no verdict (" + status + ", output " + quoted(run.output) + ")"}, false};
}

std::vector<std::string> helper_locations(const std::string &library_file) {
    if (library_file.empty()) return {};
    const std::filesystem::path directory = std::filesystem::path(library_file).parent_path();
    // The directory is a real path, so ".." may be resolved by the text alone.
    return {(directory / ASYNCGEMM_HELPER_DIR_FROM_LIBDIR / kHelperName).lexically_normal().string(),
            (directory / "libexec" / "asyncgemm" / kHelperName).string()};
}

std::string loaded_library_file() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void *>(&loaded_library_file), &info) == 0 || info.dli_fname == nullptr)
        return "";
    char *resolved = realpath(info.dli_fname, nullptr);
    if (resolved == nullptr) return "";
    std::string file = resolved;
    free(resolved);
    return file;
}

std::vector<std::string> helper_arguments(const DeviceInfo &device, Sm100Check check) {
    std::vector<std::string> arguments;
    if (check == Sm100Check::MxScales) arguments.push_back(kMxScalesOption);
    arguments.push_back(std::to_string(device.ordinal));
    arguments.push_back(device.uuid);
    return arguments;
}

HelperVerdict check_in_helper(const std::vector<std::string> &locations, const DeviceInfo &device,
                              std::chrono::milliseconds limit, Sm100Check check) {
    for (const std::string &path : locations) {
        struct stat info {};
        if (stat(path.c_str(), &info) != 0) continue;
        return judge_helper_run(path, run_child(path, helper_arguments(device, check), limit), limit);
    }
    std::string tried;
    for (const std::string &path : locations) tried += (tried.empty() ? "" : ", ") + path;
    return {{false, std::string(kHelperName) + ", the helper that runs it, is not installed " +
                        (tried.empty() ? "(the library cannot tell where it was loaded from)" : "(looked for " + tried + ")")},
            false};
}

}  // namespace asyncgemm::plan
