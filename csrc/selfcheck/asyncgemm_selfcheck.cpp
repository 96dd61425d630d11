// asyncgemm-selfcheck [--mx] DEVICE [UUID]: ALGO_SM100_TCGEN05's self-check (--mx: that of its
// MX-scaled products) on one GPU, in a process of its own.  The library starts it at the family's
// first use on a device (and at its first MX-scaled product there) so that a hang or a fault of
// kernels that have never run on real hardware costs this process, never the caller's call or CUDA
// context; csrc/plan/self_check_helper.h holds the protocol (the arguments, the one line printed and
// the exit status).  It may be run by hand too: `asyncgemm-selfcheck 0` checks device 0.
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <charconv>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "plan/kernel_table.h"
#include "plan/self_check_helper.h"
#include "plan/sm100_self_check.h"
#include "runtime/handle.h"

namespace {

using namespace asyncgemm;

// Prints the line and ends the process at once: after a fault, tearing the context down is the
// driver's business at exit, and the verdict must not wait for it.
[[noreturn]] void finish(const std::string &line, int status) {
    fputs((line + "\n").c_str(), stdout);
    fflush(stdout);
    _exit(status);
}

[[noreturn]] void cannot_check(const std::string &message) {
    finish(plan::error_line(message), plan::kHelperError);
}

// A whole decimal device ordinal; nullopt for anything else.
std::optional<int> parse_ordinal(const std::string &text) {
    int value = -1;
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || value < 0) return std::nullopt;
    return value;
}

}  // namespace

int main(int argc, char **argv) {
    // Should the library's caller die during the check, a hung helper must not outlive it on the GPU.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const bool mx_scales = argc > 1 && std::string(argv[1]) == plan::kMxScalesOption;
    if (mx_scales) --argc, ++argv;
    const bool stray_option = (argc > 1 && argv[1][0] == '-') || (argc > 2 && argv[2][0] == '-');
    if (argc < 2 || argc > 3 || stray_option) cannot_check("usage: asyncgemm-selfcheck [--mx] DEVICE [UUID]");
    const std::optional<int> ordinal = parse_ordinal(argv[1]);
    if (!ordinal) cannot_check("DEVICE must be a CUDA device ordinal, not \"" + std::string(argv[1]) + "\"");

    std::unique_ptr<Handle> handle;
    try {
        // The device's primary context: this process's own, since the process is new.
        handle = Handle::create_for_device(*ordinal, plan::kernel_table());
    } catch (const std::exception &e) {
        cannot_check(e.what());
    }
    // The reference families run their built-in configurations: an inherited ASYNCGEMM_AUTOTUNE=1
    // would time them here and write the caller's autotune cache for the check's small problems.
    handle->set_autotune(false);
    const DeviceInfo &device = handle->device();
    // The ordinal is the caller's environment's; should that have changed since the caller numbered
    // its GPUs, another GPU may answer to it.
    if (argc == 3 && device.uuid != argv[2])
        cannot_check("device " + std::to_string(*ordinal) + " is " + device.uuid + ", not " + argv[2]);
    if (!handle->family_available(Family::Sm100))
        cannot_check("ASYNCGEMM_ALGO_SM100_TCGEN05 has no kernels for " + plan::device_label(device) +
                     " in this build");

    try {
        const plan::SelfCheckOutcome outcome = plan::run_sm100_self_check(
            *handle, nullptr, mx_scales ? plan::Sm100Check::MxScales : plan::Sm100Check::Family);
        finish(plan::verdict_line(outcome), outcome.passed ? plan::kHelperPassed : plan::kHelperFailed);
    } catch (const Error &e) {
        // Running out of memory says nothing of the family; any other driver error during the check
        // is its kernels' doing (a fault, an illegal instruction, a launch the device refuses).
        if (e.status() == ASYNCGEMM_STATUS_OUT_OF_MEMORY) cannot_check(e.what());
        finish(plan::verdict_line({false, e.what()}), plan::kHelperFailed);
    } catch (const std::exception &e) {
        cannot_check(e.what());
    }
}
