// The self-check's bookkeeping without a GPU: a registry of its own per test, stubbed runs (passing,
// failing, switched off, throwing) from one or many threads, and the comparison of results.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/error.h"
#include "plan/self_check.h"
#include "runtime/last_error.h"

using namespace asyncgemm;
using namespace asyncgemm::plan;

namespace {

const std::string kDetail = "f16 row N/N 200x136x520 alpha=1 beta=1 f32 C/D: relative error 3.1e-01 > 1.0e-02";

DeviceInfo device(int ordinal) {
    DeviceInfo info;
    info.ordinal = ordinal;
    info.cc_major = 10;
    info.cc_minor = 0;
    info.name = "NVIDIA B200";
    return info;
}

// A stubbed check that counts its runs and gives `outcome`.
struct StubRun {
    SelfCheckOutcome outcome;
    std::atomic<int> runs{0};
    std::chrono::milliseconds duration{0};

    SelfCheckRegistry::Runner runner() {
        return [this]() {
            ++runs;
            std::this_thread::sleep_for(duration);
            return outcome;
        };
    }
};

// Collects the warnings instead of printing them.
struct Warnings {
    std::mutex mutex;
    std::vector<std::string> messages;

    SelfCheckRegistry::Warn warn() {
        return [this](const std::string &message) {
            const std::lock_guard<std::mutex> lock(mutex);
            messages.push_back(message);
        };
    }
};

const SelfCheckOutcome kPass{true, "", false};
const SelfCheckOutcome kFail{false, kDetail, false};

}  // namespace

TEST_CASE("a passing self-check runs once and answers true from then on") {
    SelfCheckRegistry registry;
    StubRun run{kPass};
    Warnings warnings;
    for (int call = 0; call < 3; ++call) CHECK(registry.passed(device(0), run.runner(), warnings.warn()));
    CHECK(run.runs.load() == 1);
    CHECK(warnings.messages.empty());
}

TEST_CASE("a failing self-check warns once, explains itself in the last error and never runs again") {
    SelfCheckRegistry registry;
    StubRun run{kFail};
    Warnings warnings;
    set_last_error("");
    CHECK_FALSE(registry.passed(device(0), run.runner(), warnings.warn()));
    REQUIRE(warnings.messages.size() == 1);
    const std::string message = warnings.messages[0];
    CHECK(message == "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 disabled on NVIDIA B200 (sm_100): its self-check "
                     "failed: " + kDetail);
    CHECK(std::string(last_error()) == message);

    // Later calls (another handle on the same device, say) answer from the record, and say why again.
    set_last_error("an unrelated failure");
    CHECK_FALSE(registry.passed(device(0), run.runner(), warnings.warn()));
    CHECK(std::string(last_error()) == message);
    CHECK(run.runs.load() == 1);
    CHECK(warnings.messages.size() == 1);
}

TEST_CASE("threads using one device at once share a single run of the self-check") {
    constexpr int kThreads = 8;
    for (const bool passes : {true, false}) {
        CAPTURE(passes);
        SelfCheckRegistry registry;
        StubRun run{passes ? kPass : kFail};
        run.duration = std::chrono::milliseconds(50);  // long enough for every thread to arrive while it runs
        Warnings warnings;
        std::vector<int> answers(kThreads, -1);
        std::vector<std::string> thread_errors(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                set_last_error("");
                answers[t] = registry.passed(device(3), run.runner(), warnings.warn()) ? 1 : 0;
                thread_errors[t] = last_error();
            });
        for (std::thread &thread : threads) thread.join();
        CHECK(run.runs.load() == 1);
        CHECK(warnings.messages.size() == (passes ? 0u : 1u));
        for (int t = 0; t < kThreads; ++t) {
            CHECK(answers[t] == (passes ? 1 : 0));
            // Every thread refused the family learns why in its own last error.
            CHECK(thread_errors[t] == (passes ? "" : warnings.messages.at(0)));
        }
    }
}

TEST_CASE("a family switched off says so in the last error, names the variable and warns no one") {
    SelfCheckRegistry registry;
    StubRun off{SelfCheckOutcome{false, "", true}};
    Warnings warnings;
    set_last_error("");
    CHECK_FALSE(registry.passed(device(0), off.runner(), warnings.warn()));
    const std::string message = last_error();
    CHECK(message == "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 is switched off on NVIDIA B200 (sm_100) by "
                     "ASYNCGEMM_SM100=off");
    CHECK(warnings.messages.empty());
    set_last_error("");
    CHECK_FALSE(registry.passed(device(0), off.runner(), warnings.warn()));
    CHECK(std::string(last_error()) == message);
    CHECK(off.runs.load() == 1);
}

TEST_CASE("a self-check that throws propagates the error and leaves the device unchecked") {
    SelfCheckRegistry registry;
    Warnings warnings;
    int throws = 0;
    const SelfCheckRegistry::Runner out_of_memory = [&]() -> SelfCheckOutcome {
        ++throws;
        fail(ASYNCGEMM_STATUS_OUT_OF_MEMORY, "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY");
    };
    try {
        registry.passed(device(0), out_of_memory, warnings.warn());
        FAIL("no exception");
    } catch (const Error &e) {
        CHECK(e.status() == ASYNCGEMM_STATUS_OUT_OF_MEMORY);
    }
    CHECK(throws == 1);
    CHECK(warnings.messages.empty());

    // Nothing was decided, and the lock was let go: the next call decides.
    StubRun run{kPass};
    CHECK(registry.passed(device(0), run.runner(), warnings.warn()));
    CHECK(run.runs.load() == 1);
}

TEST_CASE("each device has its own self-check") {
    SelfCheckRegistry registry;
    StubRun failing{kFail}, passing{kPass};
    Warnings warnings;
    CHECK_FALSE(registry.passed(device(0), failing.runner(), warnings.warn()));
    CHECK(registry.passed(device(1), passing.runner(), warnings.warn()));
    // Decided: each device keeps its own outcome, whichever check is offered.
    CHECK_FALSE(registry.passed(device(0), passing.runner(), warnings.warn()));
    CHECK(registry.passed(device(1), failing.runner(), warnings.warn()));
    CHECK(failing.runs.load() == 1);
    CHECK(passing.runs.load() == 1);
    CHECK(warnings.messages.size() == 1);
}

TEST_CASE("device labels name the GPU and its architecture") {
    DeviceInfo info = device(0);
    CHECK(device_label(info) == "NVIDIA B200 (sm_100)");
    info.cc_minor = 3;
    info.name = "NVIDIA B300";
    CHECK(device_label(info) == "NVIDIA B300 (sm_103)");
    CHECK(disabled_message(Sm100Check::Family, "GPU (sm_120)", "why") ==
          "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 disabled on GPU (sm_120): its self-check failed: why");
    CHECK(disabled_message(Sm100Check::MxScales, "GPU (sm_120)", "why") ==
          "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05's MX-scaled products disabled on GPU (sm_120): their "
          "self-check failed: why");
    CHECK(std::string(check_name(Sm100Check::Family)) == "sm100");
    CHECK(std::string(check_name(Sm100Check::MxScales)) == "sm100-mx");
    CHECK(switched_off_message("GPU (sm_120)") ==
          "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 is switched off on GPU (sm_120) by ASYNCGEMM_SM100=off");
}

TEST_CASE("relative error is the Frobenius norm of the difference over the reference's") {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    CHECK(relative_error({1.0, -2.0, 3.0}, {1.0, -2.0, 3.0}) == 0.0);
    CHECK(relative_error({3.0, 4.5}, {3.0, 4.0}) == doctest::Approx(0.1));  // 0.5 / 5
    CHECK(relative_error({0.0, 5.0}, {0.0, 4.0}) == 0.25);                   // exact: 1 / 4
    CHECK(relative_error({0.0, 0.0}, {3.0, 4.0}) == doctest::Approx(1.0));
    CHECK(relative_error({}, {}) == 0.0);
    CHECK(relative_error({0.0, 0.0}, {0.0, 0.0}) == 0.0);
    CHECK(relative_error({0.0, 1e-30}, {0.0, 0.0}) == kInf);
    // An element left poisoned (or overflowed) fails any tolerance, however large the others.
    CHECK(relative_error({3.0, kNaN}, {3.0, 4.0}) == kInf);
    CHECK(relative_error({kInf, 4.0}, {3.0, 4.0}) == kInf);
    CHECK(relative_error({-kInf, 4.0}, {3.0, 4.0}) == kInf);
    CHECK(std::isnan(relative_error({3.0, 4.0}, {3.0, kNaN})));
    CHECK_THROWS_AS(relative_error({1.0}, {1.0, 2.0}), Error);
}

TEST_CASE("the verdict on one problem names it and says what went wrong") {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    const SelfCheckOutcome close = judge("p", {3.0, 4.001}, {3.0, 4.0}, 1e-3);
    CHECK(close.passed);
    CHECK(close.detail.empty());
    CHECK(judge("p", {0.0, 5.0}, {0.0, 4.0}, 0.25).passed);  // exactly at the tolerance
    const SelfCheckOutcome far = judge("f16 row N/N 8x8x8", {3.0, 4.5}, {3.0, 4.0}, 1e-2);
    CHECK_FALSE(far.passed);
    CHECK(far.detail == "f16 row N/N 8x8x8: relative error 1.0e-01 > 1.0e-02");
    const SelfCheckOutcome unwritten = judge("p", {3.0, kNaN}, {3.0, 4.0}, 1e-2);
    CHECK_FALSE(unwritten.passed);
    CHECK(unwritten.detail == "p: NaN or infinity in the output");
    const SelfCheckOutcome broken_reference = judge("p", {3.0, 4.0}, {kNaN, 4.0}, 1e-2);
    CHECK_FALSE(broken_reference.passed);
    CHECK(broken_reference.detail == "p: NaN or infinity in the reference output");
}
