// The command line: which workloads and sections to run, how many timed runs, the seed, the CSV file.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "asyncgemm.h"
#include "session.h"
#include "workload.h"

namespace bench {

struct Options {
    std::vector<GemmWorkload> workloads;  // empty when the GEMM section is off: the suites', then --shape's
    bool run_copy = true;
    bool copy_baseline = false;           // the device-to-device copy's row alone (suite runs)
    bool list_suites = false;             // --list: print every suite's workloads and exit
    std::optional<SuiteEpilogue> fuse;    // --fuse: the epilogue given to the suites' workloads
    std::optional<std::vector<asyncgemm_algo_t>> algorithms;  // --algos; none: every available one
    TimingMode timing = TimingMode::events;
    bool autotune = false;                // --autotune: the handle times its configurations per shape
    int min_runs = 30;                    // timed runs (or rounds of bursts) at least
    std::optional<uint64_t> seed;         // none: seeded from the clock
    std::string csv_path;                 // empty: no CSV
    bool show_help = false;
};

// Throws std::invalid_argument naming the offending argument.
Options parse_options(int argc, char **argv);

void print_usage(std::ostream &out);

// --list: every suite, its workloads one per line (the --shape spelling, then the label), with
// --fuse's epilogue where it gives them one.
void print_suites(std::ostream &out, const std::optional<SuiteEpilogue> &fuse);

}  // namespace bench
