// How the Blackwell family's verdict is reached, without a GPU: ASYNCGEMM_SM100's values, the
// verdict on disk used without a helper run, lasting verdicts written and passing ones not, and the
// whole path from the registry through the cache to stub helpers.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "plan/self_check_policy.h"
#include "runtime/last_error.h"
#include "scratch.h"

namespace asyncgemm::plan {
namespace {

using test::read_text;
using test::TempDir;
using test::write_stub;

const VerdictKey kB200{"NVIDIA B200", "GPU-01234567-89ab-cdef-0123-456789abcdef", 13000, 42};

DeviceInfo blackwell() {
    DeviceInfo info;
    info.ordinal = 0;
    info.cc_major = 10;
    info.name = kB200.device_name;
    info.uuid = kB200.uuid;
    return info;
}

// Counts the caches opened, the helper runs and the warnings of a decision.
struct Decider {
    Decider(std::string cache_directory, HelperVerdict helper_verdict)
        : directory(std::move(cache_directory)), verdict(std::move(helper_verdict)) {}

    std::string directory;
    HelperVerdict verdict;
    int caches = 0, runs = 0;
    std::vector<std::string> warnings;

    SelfCheckOutcome decide(Sm100Mode mode) {
        return decide_sm100(
            mode,
            [&] {
                ++caches;
                return VerdictCache(directory, kB200, [&](const std::string &m) { warnings.push_back(m); });
            },
            [&] {
                ++runs;
                return verdict;
            });
    }
};

}  // namespace

TEST_CASE("ASYNCGEMM_SM100: on, off and check; unset or empty checks; anything else checks, with a warning") {
    CHECK(parse_sm100_setting(nullptr).mode == Sm100Mode::Check);
    CHECK(parse_sm100_setting("").mode == Sm100Mode::Check);
    CHECK(parse_sm100_setting("check").mode == Sm100Mode::Check);
    CHECK(parse_sm100_setting("on").mode == Sm100Mode::On);
    CHECK(parse_sm100_setting("off").mode == Sm100Mode::Off);
    for (const char *value : {"", "check", "on", "off"}) CHECK(parse_sm100_setting(value).warning.empty());
    for (const char *bad : {"ON", "1", "yes", "off "}) {
        CAPTURE(bad);
        const Sm100Setting setting = parse_sm100_setting(bad);
        CHECK(setting.mode == Sm100Mode::Check);
        CHECK(setting.warning == "asyncgemm: ASYNCGEMM_SM100=" + std::string(bad) + " is not on, off or check: taken as check");
    }
}

TEST_CASE("ASYNCGEMM_SM100=off and on decide without a cache or a helper run") {
    const TempDir temp;
    Decider decider{temp.path(), {{false, "never asked", false}, true}};
    const SelfCheckOutcome off = decider.decide(Sm100Mode::Off);
    CHECK_FALSE(off.passed);
    CHECK(off.switched_off);
    const SelfCheckOutcome on = decider.decide(Sm100Mode::On);
    CHECK(on.passed);
    CHECK_FALSE(on.switched_off);
    CHECK(decider.caches == 0);
    CHECK(decider.runs == 0);
}

TEST_CASE("checking: a lasting verdict is written once and then read without a helper run") {
    const TempDir temp;
    SUBCASE("a pass") {
        Decider decider{temp.path(), {{true, "", false}, true}};
        CHECK(decider.decide(Sm100Mode::Check).passed);
        CHECK(decider.decide(Sm100Mode::Check).passed);
        CHECK(decider.runs == 1);
        CHECK(decider.caches == 2);
        CHECK(read_text(temp.path() + "/" + verdict_file_name(kB200)) == verdict_header(kB200) + "\npass\n");
    }
    SUBCASE("a failure, whose cached detail says where it is kept") {
        Decider decider{temp.path(), {{false, "hung", false}, true}};
        CHECK(decider.decide(Sm100Mode::Check).detail == "hung");
        const SelfCheckOutcome cached = decider.decide(Sm100Mode::Check);
        CHECK_FALSE(cached.passed);
        CHECK(cached.detail == "hung (the verdict of an earlier run, kept in " + temp.path() + "/" +
                                   verdict_file_name(kB200) + ": delete it to check again)");
        CHECK(decider.runs == 1);
        // ASYNCGEMM_SM100=on overrides a failure on disk.
        CHECK(decider.decide(Sm100Mode::On).passed);
        CHECK(decider.warnings.empty());
    }
}

TEST_CASE("checking: a verdict that does not last is not written, and the next decision runs the helper again") {
    const TempDir temp;
    Decider decider{temp.path(), {{false, "asyncgemm-selfcheck, the helper that runs it, is not installed", false}, false}};
    CHECK_FALSE(decider.decide(Sm100Mode::Check).passed);
    CHECK_FALSE(decider.decide(Sm100Mode::Check).passed);
    CHECK(decider.runs == 2);
    CHECK_FALSE(std::filesystem::exists(temp.path() + "/" + verdict_file_name(kB200)));
}

TEST_CASE("checking: a foreign file is warned about once, and replaced by the helper's verdict") {
    const TempDir temp;
    test::write_file(temp.path() + "/" + verdict_file_name(kB200), "pass\n");
    Decider decider{temp.path(), {{true, "", false}, true}};
    CHECK(decider.decide(Sm100Mode::Check).passed);
    CHECK(decider.runs == 1);
    CHECK(decider.warnings.size() == 1);
    CHECK(read_text(temp.path() + "/" + verdict_file_name(kB200)) == verdict_header(kB200) + "\npass\n");
}

TEST_CASE("the whole path: a crashing helper disables the family once per process and once on disk") {
    const TempDir temp;
    const std::string runs = temp.path() + "/runs";
    const std::string helper = write_stub(temp.path(), "asyncgemm-selfcheck", "echo run >> " + runs + "\nkill -s SEGV $$");
    // One process's decisions: the registry of plan/self_check.h around decide_sm100, as in production.
    const auto process = [&](std::vector<std::string> &warnings) {
        SelfCheckRegistry registry;
        const auto warn = [&](const std::string &message) { warnings.push_back(message); };
        const SelfCheckRegistry::Runner decide = [&] {
            return decide_sm100(
                Sm100Mode::Check, [&] { return VerdictCache(temp.path() + "/cache", kB200, warn); },
                [&] {
                    return check_in_helper({helper}, blackwell(), std::chrono::milliseconds(20 * 1000),
                                           Sm100Check::Family);
                });
        };
        set_last_error("");
        const bool first = registry.passed(blackwell(), decide, warn);
        const std::string message = last_error();
        const bool second = registry.passed(blackwell(), decide, warn);
        CHECK_FALSE(first);
        CHECK_FALSE(second);
        CHECK(std::string(last_error()) == message);
        return message;
    };

    std::vector<std::string> warnings;
    const std::string message = process(warnings);
    CHECK(message == "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 disabled on NVIDIA B200 (sm_100): its self-check "
                     "failed: asyncgemm-selfcheck (" + helper + ") crashed (SIGSEGV)");
    CHECK(warnings == std::vector<std::string>{message});
    CHECK(read_text(runs) == "run\n");

    // The next process finds the verdict on disk and runs nothing.
    std::vector<std::string> later_warnings;
    const std::string later = process(later_warnings);
    CHECK(later == message + " (the verdict of an earlier run, kept in " + temp.path() + "/cache/" +
                       verdict_file_name(kB200) + ": delete it to check again)");
    CHECK(later_warnings == std::vector<std::string>{later});
    CHECK(read_text(runs) == "run\n");
}

}  // namespace asyncgemm::plan
