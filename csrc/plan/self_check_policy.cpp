#include "plan/self_check_policy.h"

#include <string.h>

namespace asyncgemm::plan {

Sm100Setting parse_sm100_setting(const char *value) {
    if (value == nullptr || value[0] == '\0' || strcmp(value, "check") == 0) return {Sm100Mode::Check, ""};
    if (strcmp(value, "on") == 0) return {Sm100Mode::On, ""};
    if (strcmp(value, "off") == 0) return {Sm100Mode::Off, ""};
    return {Sm100Mode::Check, "asyncgemm: ASYNCGEMM_SM100=" + std::string(value) +
                                  " is not on, off or check: taken as check"};
}

SelfCheckOutcome decide_sm100(Sm100Mode mode, const std::function<VerdictCache()> &open_cache,
                              const std::function<HelperVerdict()> &run_helper) {
    if (mode == Sm100Mode::Off) return {false, "", true};
    if (mode == Sm100Mode::On) return {true, ""};
    VerdictCache cache = open_cache();
    if (std::optional<SelfCheckOutcome> cached = cache.find()) {
        if (!cached->passed) cached->detail += " (the verdict of an earlier run, kept in " + cache.path() +
                                               ": delete it to check again)";
        return *cached;
    }
    const HelperVerdict verdict = run_helper();
    if (verdict.lasting) cache.remember(verdict.outcome);
    return verdict.outcome;
}

}  // namespace asyncgemm::plan
