// The kernels a thread launched while a LaunchTrace was active on it: the GPU kernel tests force a
// kernel (plan/gemm_plan.h, gemm_with_config) and assert it is the one that ran.  Nothing is
// recorded while no trace is active, which is always in a program that does not make one: the cost
// on the launch path is one thread-local load.
#pragma once

#include <string>
#include <vector>

namespace asyncgemm {

class LaunchTrace {
public:
    LaunchTrace();   // becomes this thread's active trace
    ~LaunchTrace();  // the one active before it is again
    LaunchTrace(const LaunchTrace &) = delete;
    LaunchTrace &operator=(const LaunchTrace &) = delete;

    // The names of the kernels launched on this thread since the trace began, in order.
    const std::vector<std::string> &kernels() const { return kernels_; }

private:
    friend void record_launch(const char *kernel);
    std::vector<std::string> kernels_;
    LaunchTrace *previous_;
};

// Handle::launch's note of a launch, kept by this thread's active trace if there is one.
void record_launch(const char *kernel);

}  // namespace asyncgemm
