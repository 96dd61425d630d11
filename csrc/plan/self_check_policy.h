// How ALGO_SM100_TCGEN05's verdict on a device is reached, once per device and process (the registry
// of plan/self_check.h keeps it): the ASYNCGEMM_SM100 setting, then a verdict on disk
// (plan/self_check_cache.h), then a run of the helper process (plan/self_check_helper.h), whose
// lasting verdicts go on disk.  Plain host code with the helper run passed in: tests/unit drives it.
#pragma once

#include <functional>
#include <string>

#include "plan/self_check.h"
#include "plan/self_check_cache.h"
#include "plan/self_check_helper.h"

namespace asyncgemm::plan {

// ASYNCGEMM_SM100: "off" never uses the family, "on" trusts it unchecked, "check" (or unset, or
// empty) checks it.
enum class Sm100Mode { Check, On, Off };

struct Sm100Setting {
    Sm100Mode mode = Sm100Mode::Check;
    std::string warning;  // for any other value, which counts as "check": the message that names it
};

// The setting a value of ASYNCGEMM_SM100 (nullptr: unset) asks for.
Sm100Setting parse_sm100_setting(const char *value);

// The verdict in `mode`.  Off: not passed, switched_off.  On: passed.  Check: the verdict in the cache
// `open_cache` gives if it holds one (a failure's detail then says where it was found and how to check
// again), else `run_helper`'s, written to the cache when lasting.  Neither is called unless checking.
SelfCheckOutcome decide_sm100(Sm100Mode mode, const std::function<VerdictCache()> &open_cache,
                              const std::function<HelperVerdict()> &run_helper);

}  // namespace asyncgemm::plan
