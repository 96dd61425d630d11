// The self-check's bookkeeping and comparison, and the production glue (see self_check.h).
#include "plan/self_check.h"

#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "driver/capture.h"
#include "driver/context_scope.h"
#include "driver/driver.h"
#include "plan/sm100_self_check.h"
#include "runtime/last_error.h"

namespace asyncgemm::plan {
namespace {

std::string scientific(double value) {
    char text[32];
    snprintf(text, sizeof text, "%.1e", value);
    return text;
}

// Never destroyed, like the driver: a handle may still be used while static objects are destroyed.
SelfCheckRegistry &sm100_registry() {
    static SelfCheckRegistry &registry = *new SelfCheckRegistry();
    return registry;
}

// Read at each warning (at most one per device and process), like the autotune cache's.
void warn_on_stderr(const std::string &message) {
    const char *quiet = getenv("ASYNCGEMM_QUIET");
    if (quiet == nullptr || strcmp(quiet, "1") != 0) fprintf(stderr, "%s\n", message.c_str());
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

std::string disabled_message(const std::string &device_label, const std::string &detail) {
    return "asyncgemm: ASYNCGEMM_ALGO_SM100_TCGEN05 disabled on " + device_label + ": its self-check failed: " +
           detail;
}

SelfCheckRegistry::DeviceCheck *SelfCheckRegistry::find(int device) const {
    const std::lock_guard<std::mutex> lock(devices_mutex_);
    const auto found = devices_.find(device);
    return found == devices_.end() ? nullptr : found->second.get();
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
    const std::optional<SelfCheckOutcome> outcome = run();
    if (!outcome) return false;
    if (outcome->passed) {
        check.state.store(State::Passed, std::memory_order_release);
        return true;
    }
    check.message = disabled_message(device_label(device), outcome->detail);
    check.state.store(State::Failed, std::memory_order_release);
    set_last_error(check.message);
    warn(check.message);
    return false;
}

bool SelfCheckRegistry::failed(int device) const {
    const DeviceCheck *check = find(device);
    if (check == nullptr || check->state.load(std::memory_order_acquire) != State::Failed) return false;
    set_last_error(check->message);
    return true;
}

bool sm100_self_check_passed(const Handle &handle, void *stream) {
    const auto cu_stream = static_cast<CUstream>(stream);
    return sm100_registry().passed(
        handle.device(),
        [&]() -> std::optional<SelfCheckOutcome> {
            // In the handle's context: the legacy stream's capture status is that of the current one.
            const DriverApi &api = driver();
            const ContextScope scope(api, handle.context());
            if (!outside_capture(api, cu_stream)) return std::nullopt;
            return run_sm100_self_check(handle, cu_stream);
        },
        warn_on_stderr);
}

bool sm100_disabled_by_self_check(const Handle &handle) { return sm100_registry().failed(handle.device().ordinal); }

}  // namespace asyncgemm::plan
