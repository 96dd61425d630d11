// The command line: which workloads and sections to run, how many timed runs, the seed, the CSV file.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "workload.h"

namespace bench {

struct Options {
    std::vector<GemmWorkload> workloads;  // empty when the GEMM section is off
    bool run_copy = true;
    int min_runs = 30;                    // timed runs at least; more when they add up to < 1 s
    std::optional<uint64_t> seed;         // none: seeded from the clock
    std::string csv_path;                 // empty: no CSV
    bool show_help = false;
};

// Throws std::invalid_argument naming the offending argument.
Options parse_options(int argc, char **argv);

void print_usage(std::ostream &out);

}  // namespace bench
