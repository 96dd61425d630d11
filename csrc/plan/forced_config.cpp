#include "plan/forced_config.h"

#include <stdlib.h>

#include <string>

#include "common/error.h"

namespace asyncgemm::plan {

std::optional<ForcedConfig> parse_forced_config(const char *variable, const char *text, int config_count,
                                                int max_splits) {
    if (text == nullptr || *text == '\0') return std::nullopt;
    // Each number must be digits that strtol consumed: "3:" or " 3" are refused, not read as 3.
    const auto digits_at = [](const char *p) { return *p >= '0' && *p <= '9'; };
    char *end = nullptr;
    const long config = digits_at(text) ? strtol(text, &end, 10) : -1;
    long splits = 0;
    if (end != nullptr && *end == ':') splits = digits_at(end + 1) ? strtol(end + 1, &end, 10) : -1;
    if (end == nullptr || *end != '\0' || config < 0 || config >= config_count || splits < 0 || splits > max_splits)
        fail(ASYNCGEMM_STATUS_INVALID_VALUE, std::string(variable) + "=" + text +
                                                 ": expected <config>[:<splits>], config 0.." +
                                                 std::to_string(config_count - 1) + ", splits 0.." +
                                                 std::to_string(max_splits));
    return ForcedConfig{static_cast<int>(config), static_cast<int>(splits)};
}

}  // namespace asyncgemm::plan
