// The library's side of asyncgemm-selfcheck, the helper program that runs ALGO_SM100_TCGEN05's
// self-check (plan/sm100_self_check.h) in a process of its own (csrc/selfcheck/): where it is
// installed, how it is called and what its answer means.
//
// The family's kernels have never run on real hardware.  In the caller's process a hang would hang
// the caller's first call for ever, and a fault would destroy the caller's CUDA context (a context's
// errors are sticky); in a helper process a hang costs the time limit and a fault costs the helper.
//
// The helper is called as
//
//   asyncgemm-selfcheck [--mx] DEVICE [UUID]
//
// --mx checks the family's MX-scaled products (Sm100Check::MxScales), else the family.  DEVICE is a
// CUDA device ordinal as the caller's environment numbers the GPUs (the helper inherits
// CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER), UUID that GPU's "GPU-..." UUID, which the helper
// compares with device DEVICE's: it refuses to check another GPU than the caller means.  It retains
// the device's primary context (its own: it is a fresh process), runs the check on the legacy stream,
// prints one line on standard output and exits with
//
//   0  "pass"              every problem agreed with the reference families
//   1  "fail: <detail>"    a result differed beyond tolerance, or the family's kernels faulted
//   2  "error: <message>"  it could not check: bad arguments, no driver, no such device, another GPU
//                          under that ordinal, no Blackwell kernels for the device, out of memory
//
// Any other status, or a line that does not match its status, is not a verdict.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "plan/child_process.h"
#include "plan/self_check.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

constexpr const char *kHelperName = "asyncgemm-selfcheck";
constexpr int kHelperPassed = 0, kHelperFailed = 1, kHelperError = 2;

// How long the library waits for the helper: creating its context, loading the kernels and running
// a few small problems takes seconds at most, so only a hang comes near this.
constexpr std::chrono::milliseconds kHelperTimeLimit{60 * 1000};

// The helper's line for `outcome`: "pass" or "fail: <detail>" (line breaks in the detail become spaces).
std::string verdict_line(const SelfCheckOutcome &outcome);
// The helper's line when it could not check: "error: <message>".
std::string error_line(const std::string &message);

// What the library makes of one run of the helper.
struct HelperVerdict {
    SelfCheckOutcome outcome;
    // The family's own doing on this GPU, driver and library, which another run would repeat: a pass,
    // a failed comparison or fault, a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
    // SIGSYS) or a hang.  Worth keeping on disk (plan/self_check_cache.h).  Not lasting: a helper
    // missing or not executable, one that could not check, printed no verdict or was killed by
    // someone else's signal; the next process asks again.
    bool lasting = false;
};

// The verdict on a run of the helper at `path` that had `limit` to finish.
HelperVerdict judge_helper_run(const std::string &path, const ChildResult &run, std::chrono::milliseconds limit);

// Where the helper may be, in search order, for a library loaded from `library_file` (a real path,
// symbolic links resolved), both in the library's directory D:
//   1. D/<relative path from CMAKE_INSTALL_LIBDIR to CMAKE_INSTALL_LIBEXECDIR>/asyncgemm/asyncgemm-selfcheck,
//      the installed layout (D/../libexec/asyncgemm/asyncgemm-selfcheck with the usual directories);
//   2. D/libexec/asyncgemm/asyncgemm-selfcheck, the build tree, whose top holds the library.
std::vector<std::string> helper_locations(const std::string &library_file);

// The file the library's code was loaded from (libasyncgemm.so, or a program linking its objects),
// by dladdr, symbolic links resolved; "" when the loader cannot tell.
std::string loaded_library_file();

constexpr const char *kMxScalesOption = "--mx";

// The helper's arguments for `check` on `device`: [--mx] DEVICE UUID.
std::vector<std::string> helper_arguments(const DeviceInfo &device, Sm100Check check);

// Runs the first of `locations` that exists with `check` on `device` (its ordinal and UUID) and
// judges the run; a run past `limit` is killed.  When none exists, a verdict that names them all.
// Never throws for anything the helper does.
HelperVerdict check_in_helper(const std::vector<std::string> &locations, const DeviceInfo &device,
                              std::chrono::milliseconds limit, Sm100Check check);

}  // namespace asyncgemm::plan
