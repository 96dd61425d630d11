// The output: a header naming the machine and the run, the GEMM and copy tables on the terminal, and
// the same rows as CSV.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "asyncgemm.h"
#include "results.h"

namespace bench {

struct RunInfo {
    std::string date;
    int device = 0;
    std::string device_name;                     // empty until the device has been queried
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    std::size_t l2_bytes = 0;
    int driver_version = 0, runtime_version = 0;  // 1000 * major + 10 * minor
    std::string asyncgemm_version;
    std::string cublas = "cuBLAS not opened";    // "cuBLAS 13.1.0", or why there is none; then cuBLASLt's
                                                 // where a workload has an epilogue
    std::string monitor = "not opened";          // "NVML", or why the GPU columns are empty
    uint64_t seed = 0;
    std::string timing;                          // "events" or "bursts"
    bool autotune = false;                       // the handle autotuned (--autotune)
    std::vector<asyncgemm_algo_t> algorithms;    // available on the device, in the order benchmarked
    std::vector<asyncgemm_algo_t> unavailable;
};

void print_report(std::ostream &out, const RunInfo &info, const Results &results);

// Every row, GEMM and copy, in one table: one header line, then a line per row.  Throws BenchError
// when the file cannot be written.
void write_csv(const std::string &path, const RunInfo &info, const Results &results);

}  // namespace bench
