// The run-time self-check of ALGO_SM100_TCGEN05: the first time a handle would use the family on a
// device, a handful of small problems run through it and through the families it must agree with
// (plan/sm100_self_check.h), in a helper process of its own (plan/self_check_helper.h); anything but
// agreement disables it on that device for the rest of the process.
//
// The family is built for hardware this project cannot test on, so it vouches for itself on the
// user's GPU before it computes anything the user sees: a wrong answer costs a fallback to a slower
// family, never a wrong result, and a hang or a fault costs the helper, never the caller's call or
// context.  The bookkeeping (SelfCheckRegistry), the comparison, the helper's protocol, the verdicts
// on disk and the ASYNCGEMM_SM100 setting (plan/self_check_policy.h) are plain host code, unit-tested
// with stubs; the production entry points at the end glue them together.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/handle.h"

namespace asyncgemm::plan {

// The self-checks of ALGO_SM100_TCGEN05: the family's, of every product it serves but MX-scaled ones,
// at its first use on a device; and, at the first MX-scaled product there, that of its block-scaled
// MMAs (kind::mxf8f6f4.block_scale), whose failure disables MX scales on the family alone.
enum class Sm100Check { Family, MxScales };

// "sm100" and "sm100-mx": the check's name in its verdict files and helper arguments.
const char *check_name(Sm100Check check);

// What a failed check disables: "ASYNCGEMM_ALGO_SM100_TCGEN05", or its MX-scaled products.
const char *check_subject(Sm100Check check);

struct SelfCheckOutcome {
    bool passed = false;
    // Why not, naming the failing problem ("f16 row N/N 200x136x520 alpha=1 beta=1 f32 C/D: relative
    // error 3.1e-01 > 1e-02") or what went wrong with the helper; empty when passed or switched off.
    std::string detail;
    // Not checked at all: the user set ASYNCGEMM_SM100=off.
    bool switched_off = false;
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

// The one message that says what `check` covers is disabled on a device, and why.
std::string disabled_message(Sm100Check check, const std::string &device_label, const std::string &detail);

// The message that says the user switched the family off on a device (ASYNCGEMM_SM100=off).
std::string switched_off_message(const std::string &device_label);

// `text` with its line breaks made spaces: what the helper's line and a verdict file hold of a detail.
std::string one_line(std::string text);

// Whether the family passed its self-check (or was switched on or off), per device ordinal, for the
// life of the process.  Each device is decided at most once whatever the number of handles and
// threads: a thread that finds the decision under way waits for it.
class SelfCheckRegistry {
public:
    // A registry of the verdicts of `check`.
    explicit SelfCheckRegistry(Sm100Check check = Sm100Check::Family) : check_(check) {}

    // Decides and returns the outcome.  May throw.
    using Runner = std::function<SelfCheckOutcome()>;
    // Tells the user, once per device, that the family is disabled there.
    using Warn = std::function<void(const std::string &message)>;

    // True when the family passed on `device` (deciding it now by `run` if it never was).  Once it
    // failed, false, and this thread's last error (runtime/last_error.h) holds disabled_message() (or
    // switched_off_message()), so that a caller refused the family can learn why; the failing call
    // also passes disabled_message() to `warn`, the only time warn is called for the device (never
    // for a switched-off family: the user knows).  When `run` throws, the exception propagates and
    // the device stays undecided.  Cheap once the outcome is known: a map lookup under a briefly
    // held mutex.
    bool passed(const DeviceInfo &device, const Runner &run, const Warn &warn);

private:
    enum class State { Unchecked, Passed, Failed };
    struct DeviceCheck {
        std::mutex running;  // held while the check runs, and while state and message change
        std::atomic<State> state{State::Unchecked};
        std::string message;  // why it failed; written once, before state becomes Failed
    };
    DeviceCheck &find_or_add(int device);

    const Sm100Check check_;

    std::mutex devices_mutex_;
    std::map<int, std::unique_ptr<DeviceCheck>> devices_;  // nodes never removed: references stay valid
};

// Production entry points: one registry for the process, the decision of plan/self_check_policy.h
// with ASYNCGEMM_SM100, the cache directory and the helper found next to the library (each read when
// the decision is due, so a program may set the variables any time before its first use of the
// family), and the warnings on stderr, which ASYNCGEMM_QUIET=1 silences (read when a warning is due).

// True when ALGO_SM100_TCGEN05 may serve calls on the handle's device, deciding it first if this is
// the family's first use there; when not, this thread's last error says why.  The decision touches
// neither the caller's context nor its stream, so it is taken inside a stream capture too; it waits
// for a helper run (seconds, at most kHelperTimeLimit) unless ASYNCGEMM_SM100 or a verdict on disk
// settles it.  Call it only where the family would otherwise be used.
bool sm100_self_check_passed(const Handle &handle);

// True when the family may serve MX-scaled products on the handle's device: it passed its own check
// and that of its block-scaled MMAs, deciding the second first if this is the first MX-scaled product
// there (the same way: the setting, a verdict on disk, a helper run).  When not, this thread's last
// error says why.  Call it only where an MX-scaled product would otherwise go to the family.
bool sm100_mx_self_check_passed(const Handle &handle);

}  // namespace asyncgemm::plan
