// What every GPU test shares: the run's seed, one handle of device 0's primary context, the device's
// compute capability, per-test random streams, and the library's algorithm list probed at run time.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "asyncgemm.h"

namespace agtest {

using Rng = std::mt19937_64;

struct TestEnv {
    uint64_t seed = 0;            // printed at start; AG_TEST_SEED=<n> reproduces a run
    asyncgemm_handle_t handle = nullptr;
    int cc_major = 0, cc_minor = 0;
};

// Set once by main before any test runs.
void set_test_env(const TestEnv &env);
const TestEnv &test_env();

// A generator for one test, seeded from the run's seed and `name`, so a test draws the same cases
// whatever other tests run before it (doctest filters, ctest's per-suite runs).
Rng rng_for(const char *name);

int64_t uniform(Rng &rng, int64_t lo, int64_t hi);  // inclusive
bool chance(Rng &rng, double probability);
template <class T, size_t N>
T pick(Rng &rng, const T (&choices)[N]) {
    return choices[static_cast<size_t>(uniform(rng, 0, static_cast<int64_t>(N) - 1))];
}

// Matrix sizes that end just before, at and just after the usual tile sizes (and 1, primes).
inline constexpr int64_t kTailSizes[] = {1, 2, 3, 7, 17, 31, 33, 63, 65, 127, 129, 257};

// AUTO first, then every explicit algorithm the handle reports available.  The enum is probed upward
// until the library calls a value unknown, so algorithms added later are tested without edits here.
std::vector<asyncgemm_algo_t> available_gemm_algos(asyncgemm_handle_t handle);
// False when AG_TEST_ALGOS names only algorithms this device does not have (the run is then skipped).
bool requested_algos_available(asyncgemm_handle_t handle);
// Explicit algorithms the library knows but the handle's device cannot run.
std::vector<asyncgemm_algo_t> unavailable_gemm_algos(asyncgemm_handle_t handle);

std::string algo_name(asyncgemm_algo_t algo);
std::string copy_algo_name(asyncgemm_copy_algo_t algo);
std::string layout_name(asyncgemm_smem_layout_t layout);
std::string order_name(asyncgemm_order_t order);
std::string op_name(asyncgemm_op_t op);

// "" unless last_error() is the one-line, non-empty message every failure must leave, naming one of
// `names` as a whole identifier ("a" is not found inside "lda"); names may be empty.
std::string check_last_error(const std::vector<std::string> &names = {});

}  // namespace agtest
