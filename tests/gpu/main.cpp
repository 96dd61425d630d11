// The GPU tests' entry point.  Without a usable GPU it prints one line and exits 77, which ctest
// (SKIP_RETURN_CODE 77) reports as skipped rather than passed.  Otherwise it picks the run's seed
// (random, or AG_TEST_SEED to reproduce a run), creates the handle every test shares on device 0's
// primary context, and runs doctest with the command line (ctest passes --test-suite=<theme>).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "test_env.h"

namespace {
constexpr int kSkipped = 77;

uint64_t choose_seed() {
    if (const char *text = std::getenv("AG_TEST_SEED")) return std::strtoull(text, nullptr, 0);
    std::random_device device;
    return (uint64_t(device()) << 32) | device();
}
}  // namespace

int main(int argc, char **argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no CUDA GPU: skipped\n");
        return kSkipped;
    }
    cudaDeviceProp properties{};
    if (cudaSetDevice(0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess ||
        cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
        std::printf("no CUDA GPU: skipped (device 0 cannot be used)\n");
        return kSkipped;
    }

    agtest::TestEnv env;
    env.seed = choose_seed();
    env.cc_major = properties.major;
    env.cc_minor = properties.minor;
    // The runtime made device 0's primary context current: the handle binds that context.
    if (asyncgemm_status_t status = asyncgemm_create(&env.handle); status != ASYNCGEMM_STATUS_SUCCESS) {
        std::printf("asyncgemm_create failed: %s: %s\n", asyncgemm_status_string(status), asyncgemm_last_error());
        return 1;
    }
    agtest::set_test_env(env);
    // A run of one family's kernels (AG_TEST_ALGOS) on a GPU that has none of them: nothing to test.
    if (!agtest::requested_algos_available(env.handle)) {
        std::printf("AG_TEST_ALGOS=%s: none of them runs on %s: skipped\n", std::getenv("AG_TEST_ALGOS"),
                    properties.name);
        asyncgemm_destroy(env.handle);
        return kSkipped;
    }
    std::printf("asyncgemm GPU tests on %s (sm_%d%d); seed %llu (AG_TEST_SEED=%llu reproduces this run)\n",
                properties.name, env.cc_major, env.cc_minor, static_cast<unsigned long long>(env.seed),
                static_cast<unsigned long long>(env.seed));
    std::fflush(stdout);

    doctest::Context context(argc, argv);
    const int result = context.run();
    asyncgemm_destroy(env.handle);
    return result;
}
