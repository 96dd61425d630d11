// The test hooks ASYNCGEMM_SM80_CONFIG and ASYNCGEMM_SM90_CONFIG: "<config>[:<splits>]" forces a
// family's tile configuration (and split count, 0 or absent: the heuristic's) on every launch.
#pragma once

#include <optional>

namespace asyncgemm::plan {

struct ForcedConfig {
    int config;
    int splits;
};

// The hook's value read once from environment variable `variable` (a test sets it for the whole
// process); nullopt when unset or empty.  A malformed value, a configuration outside
// [0, config_count) or splits outside [0, max_splits] throws INVALID_VALUE naming the variable, so
// every call the hook would steer fails.
std::optional<ForcedConfig> parse_forced_config(const char *variable, const char *text, int config_count,
                                                int max_splits);

}  // namespace asyncgemm::plan
