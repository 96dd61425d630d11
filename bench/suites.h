// The benchmark suites: named sets of the GEMM workloads people run, each workload labelled with
// what it stands for (a layer of a model, an attention product, an odd size).  `--suite NAME` runs
// one, `--list` prints them all.
#pragma once

#include <string>
#include <vector>

#include "workload.h"

namespace bench {

struct Suite {
    std::string name;   // what --suite takes
    std::string about;  // one line: what the workloads are
    std::vector<GemmWorkload> workloads;
};

// Every suite, in the order `--suite all` runs them.
const std::vector<Suite> &all_suites();

// The suite of that name, or null.
const Suite *find_suite(const std::string &name);

}  // namespace bench
