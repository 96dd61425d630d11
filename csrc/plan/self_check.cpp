// The self-check's bookkeeping and comparison, and the production glue (see self_check.h).
#include "plan/self_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "driver/driver.h"
#include "driver/errors.h"
#include "kernels/common/fingerprint.h"
#include "plan/cache_files.h"
#include "plan/self_check_policy.h"
#include "runtime/fatbins.h"
#include "runtime/last_error.h"

namespace asyncgemm::plan {
namespace {

std::string scientific(double value) {
    char text[32];
    snprintf(text, sizeof text, "%.1e", value);
    return text;
}

// Never destroyed, like the driver: a handle may still be used while static objects are destroyed.
SelfCheckRegistry &sm100_registry(Sm100Check check) {
    static SelfCheckRegistry &family = *new SelfCheckRegistry(Sm100Check::Family);
    static SelfCheckRegistry &mx_scales = *new SelfCheckRegistry(Sm100Check::MxScales);
    return check == Sm100Check::Family ? family : mx_scales;
}

// Read at each warning (at most a few per device and process), like the autotune cache's.
void warn_on_stderr(const std::string &message) {
    const char *quiet = getenv("ASYNCGEMM_QUIET");
    if (quiet == nullptr || strcmp(quiet, "1") != 0) fprintf(stderr, "%s\n", message.c_str());
}

// ASYNCGEMM_SM100, read when a device's decision is due; a bad value is named once per process.
Sm100Mode sm100_mode_from_environment() {
    const Sm100Setting setting = parse_sm100_setting(getenv("ASYNCGEMM_SM100"));
    static std::once_flag warned;
    if (!setting.warning.empty()) std::call_once(warned, [&] { warn_on_stderr(setting.warning); });
    return setting.mode;
}

// FNV-1a over the family's embedded fatbins: which kernels a verdict on disk was reached with.
uint64_t sm100_kernels_fingerprint() {
    uint64_t hash = kFnvOffset;
    for (size_t u = 0; u < kEmbeddedUnitCount; ++u) {
        if (kEmbeddedUnits[u].family != Family::Sm100) continue;
        const FatbinImage fatbin = kEmbeddedUnits[u].image();
        for (size_t i = 0; i < fatbin.size; ++i) {
            hash ^= static_cast<const unsigned char *>(fatbin.data)[i];
            hash *= 0x100000001b3ull;
        }
    }
    return hash;
}

VerdictKey verdict_key(const DeviceInfo &device, Sm100Check which) {
    int driver_version = 0;
    check(driver().cuDriverGetVersion(&driver_version), "cuDriverGetVersion");
    static const uint64_t kernels = sm100_kernels_fingerprint();
    return {device.name, device.uuid, driver_version, kernels, check_name(which)};
}

bool self_check_passed(const Handle &handle, Sm100Check which) {
    const DeviceInfo &device = handle.device();
    return sm100_registry(which).passed(
        device,
        [&] {
            return decide_sm100(
                sm100_mode_from_environment(),
                [&] { return VerdictCache(default_cache_directory(), verdict_key(device, which), warn_on_stderr); },
                [&] {
                    return check_in_helper(helper_locations(loaded_library_file()), device, kHelperTimeLimit, which);
                });
        },
        warn_on_stderr);
}

}  // namespace

double relative_error(const std::vector<double> &test, const std::vector<double> &reference) {
    if (test.size() != reference.size())
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "self-check: " + std::to_string(test.size()) + " results against " +
                                                  std::to_string(reference.size()) + " reference values");
    double difference_squares = 0.0, reference_squares = 0.0;
    bool test_finite = true, reference_finite = true;
    for (size_t i = 0; i < test.size(); ++i) {
        test_finite = test_finite && std::isfinite(test[i]);
        reference_finite = reference_finite && std::isfinite(reference[i]);
        const double difference = test[i] - reference[i];
        difference_squares += difference * difference;
        reference_squares += reference[i] * reference[i];
    }
    if (!reference_finite) return std::numeric_limits<double>::quiet_NaN();
    if (!test_finite) return std::numeric_limits<double>::infinity();
    if (reference_squares == 0.0) return difference_squares == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
    return std::sqrt(difference_squares / reference_squares);
}

SelfCheckOutcome judge(const std::string &problem, const std::vector<double> &test,
                       const std::vector<double> &reference, double tolerance) {
    const double error = relative_error(test, reference);
    if (error <= tolerance) return {true, ""};
    if (std::isnan(error)) return {false, problem + ": NaN or infinity in the reference output"};
    for (const double value : test)
        if (!std::isfinite(value)) return {false, problem + ": NaN or infinity in the output"};
    return {false, problem + ": relative error " + scientific(error) + " > " + scientific(tolerance)};
}

std::string device_label(const DeviceInfo &device) {
    return device.name + " (sm_" + std::to_string(device.cc_major) + std::to_string(device.cc_minor) + ")";
}

const char *check_name(Sm100Check check) { return check == Sm100Check::Family ? "sm100" : "sm100-mx"; }

const char *check_subject(Sm100Check check) {
    return check == Sm100Check::Family ? "ASYNCGEMM_ALGO_SM100_TCGEN05" : "ASYNCGEMM_ALGO_SM100_TCGEN05's MX-scaled products";
}

std::string disabled_message(Sm100Check check, const std::string &device_label, const std::string &detail) {
    return std::string("asyncgemm: ") + check_subject(check) + " disabled on " + device_label +
           (check == Sm100Check::Family ? ": its" : ": their") + " self-check failed: " + detail;
}

std::string switched_off_message(const std::string &device_label) {
    return "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 is switched off on " + device_label + " by ASYNCGEMM_SM100=off";
}

std::string one_line(std::string text) {
    for (char &c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

SelfCheckRegistry::DeviceCheck &SelfCheckRegistry::find_or_add(int device) {
    const std::lock_guard<std::mutex> lock(devices_mutex_);
    std::unique_ptr<DeviceCheck> &check = devices_[device];
    if (!check) check = std::make_unique<DeviceCheck>();
    return *check;
}

bool SelfCheckRegistry::passed(const DeviceInfo &device, const Runner &run, const Warn &warn) {
    DeviceCheck &check = find_or_add(device.ordinal);
    // The outcome, once known, never changes: no need to wait for the lock to read it.
    const auto known = [&](State state) {
        if (state == State::Failed) set_last_error(check.message);
        return state == State::Passed;
    };
    const State decided = check.state.load(std::memory_order_acquire);
    if (decided != State::Unchecked) return known(decided);

    const std::lock_guard<std::mutex> lock(check.running);
    // Another thread may have decided while this one waited for the lock.
    const State state = check.state.load(std::memory_order_relaxed);
    if (state != State::Unchecked) return known(state);
    const SelfCheckOutcome outcome = run();
    if (outcome.passed) {
        check.state.store(State::Passed, std::memory_order_release);
        return true;
    }
    check.message = outcome.switched_off ? switched_off_message(device_label(device))
                                         : disabled_message(check_, device_label(device), outcome.detail);
    check.state.store(State::Failed, std::memory_order_release);
    set_last_error(check.message);
    if (!outcome.switched_off) warn(check.message);
    return false;
}

bool sm100_self_check_passed(const Handle &handle) { return self_check_passed(handle, Sm100Check::Family); }

bool sm100_mx_self_check_passed(const Handle &handle) {
    return sm100_self_check_passed(handle) && self_check_passed(handle, Sm100Check::MxScales);
}

}  // namespace asyncgemm::plan
