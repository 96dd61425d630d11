// The run-time self-check of ALGO_SM100_TCGEN05: the first time a handle would use the family on a
// device, a handful of small problems run through it and through the families it must agree with
// (plan/sm100_self_check.h); a disagreement disables it on that device for the rest of the process.
//
// The family is built for hardware this project cannot test on, so it vouches for itself on the
// user's GPU before it computes anything the user sees: a wrong answer costs a fallback to a slower
// family, never a wrong result.  The bookkeeping (SelfCheckRegistry) and the comparison are plain
// host code, unit-tested with stubbed runs; the production entry points at the end glue them to the
// driver.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/handle.h"

namespace asyncgemm::plan {

struct SelfCheckOutcome {
    bool passed = false;
    // Why not, naming the failing problem: "f16 row N/N 200x136x520 alpha=1 beta=1 f32 C/D: relative
    // error 3.1e-01 > 1e-02"; empty when passed.
    std::string detail;
};

// ||test - reference|| / ||reference|| over all elements (Frobenius norms): +infinity when a test
// value is NaN or infinite (a poisoned, never written output, or an overflow), NaN when a reference
// value is; 0 for two all-zero vectors, +infinity for a nonzero test against an all-zero reference.
// Throws INTERNAL_ERROR when the sizes differ.
double relative_error(const std::vector<double> &test, const std::vector<double> &reference);

// The verdict on one problem, described by `problem`: passed when relative_error <= tolerance
// (which a NaN error never is).  The detail says "<problem>: relative error 3.1e-01 > 1e-02", or
// "<problem>: NaN or infinity in the output" for a non-finite test value.
SelfCheckOutcome judge(const std::string &problem, const std::vector<double> &test,
                       const std::vector<double> &reference, double tolerance);

// "NVIDIA B200 (sm_100)": the device as the disabling message names it.
std::string device_label(const DeviceInfo &device);

// The one message that says the family is disabled on a device, and why.
std::string disabled_message(const std::string &device_label, const std::string &detail);

// Whether the family passed its self-check, per device ordinal, for the life of the process.  Each
// device's check runs at most once whatever the number of handles and threads: a thread that finds
// it running waits for its outcome.
class SelfCheckRegistry {
public:
    // Runs the check and returns its outcome, or nullopt when it cannot run now (the stream is being
    // captured into a graph, where nothing may be allocated or synchronised).  May throw.
    using Runner = std::function<std::optional<SelfCheckOutcome>()>;
    // Tells the user, once per device, that the family is disabled there.
    using Warn = std::function<void(const std::string &message)>;

    // True when the family passed on `device` (checking it now if it never was).  Once it failed,
    // false, and this thread's last error (runtime/last_error.h) holds disabled_message(), so that a
    // caller refused the family can learn why; the failing call also passes that message to `warn`,
    // the only time warn is called for the device.  When `run` cannot run now, false with nothing
    // recorded: the next call tries again.  When `run` throws, the exception propagates (a driver
    // error during the check is the status of the call that triggered it) and the device stays
    // unchecked.  Cheap once the outcome is known: a map lookup under a briefly held mutex.
    bool passed(const DeviceInfo &device, const Runner &run, const Warn &warn);

    // True once the check failed on device ordinal `device`, then also putting its message in this
    // thread's last error; never runs a check.
    bool failed(int device) const;

private:
    enum class State { Unchecked, Passed, Failed };
    struct DeviceCheck {
        std::mutex running;  // held while the check runs, and while state and message change
        std::atomic<State> state{State::Unchecked};
        std::string message;  // disabled_message(); written once, before state becomes Failed
    };
    DeviceCheck *find(int device) const;
    DeviceCheck &find_or_add(int device);

    mutable std::mutex devices_mutex_;
    std::map<int, std::unique_ptr<DeviceCheck>> devices_;  // nodes never removed: references stay valid
};

// Production entry points: one registry for the process, the check of plan/sm100_self_check.h on the
// caller's stream (the legacy stream for NULL) in the handle's context, and the warning on stderr,
// which ASYNCGEMM_QUIET=1 silences (read when the warning is due, so a program may set it any time
// before).

// True when ALGO_SM100_TCGEN05 may serve calls on the handle's device, running the self-check first
// if this is the family's first use there.  Inside a stream capture an unchecked device answers
// false (the caller falls back) and is checked at the first call outside one.  Throws what the check
// throws (a driver error, out of memory).  Call it only where the family would otherwise be used:
// the check takes milliseconds and, once, synchronises the stream.
bool sm100_self_check_passed(const Handle &handle, void *stream);

// True once the self-check failed on the handle's device (asyncgemm_algo_available then answers 0),
// putting the reason in this thread's last error; runs nothing.
bool sm100_disabled_by_self_check(const Handle &handle);

}  // namespace asyncgemm::plan
