#include "runtime/launch_trace.h"

namespace asyncgemm {
namespace {

thread_local LaunchTrace *active_trace = nullptr;

}  // namespace

LaunchTrace::LaunchTrace() : previous_(active_trace) { active_trace = this; }

LaunchTrace::~LaunchTrace() { active_trace = previous_; }

void record_launch(const char *kernel) {
    if (active_trace != nullptr) active_trace->kernels_.emplace_back(kernel);
}

}  // namespace asyncgemm
