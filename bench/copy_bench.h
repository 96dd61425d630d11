// The copy2d rows: a 1 GiB f32 matrix through every copy algorithm and shared-memory layout, as is and
// transposed, against a plain device-to-device copy of the same bytes.
#pragma once

#include <vector>

#include "results.h"
#include "session.h"

namespace bench {

// The progress steps of the copy section: the baseline and every (op, algorithm, layout).
int copy_steps();

// Appends the baseline's row, then one per (op, algorithm, layout), or one row saying why the section
// was skipped.
void bench_copies(const Session &session, std::vector<CopyResult> &results);

// The baseline's row alone (the device-to-device copy of 1 GiB): the memory bandwidth a suite run's
// GB/s column is read against (bench/plot.py).
void bench_copy_baseline(const Session &session, std::vector<CopyResult> &results);

}  // namespace bench
