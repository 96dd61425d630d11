// What the runtime needs to know of each precompiled kernel: which unit's fatbin holds it, its name,
// and the dynamic shared memory it is launched with (so the limit is raised once, at handle
// creation).  The table itself is planning's (csrc/plan/kernel_table.cpp), made from the families'
// kernel lists; the runtime only loads what it lists.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "runtime/family.h"

namespace asyncgemm {

struct KernelSpec {
    Family family;
    const char *unit;        // the kernel unit (runtime/fatbins.h) whose fatbin holds it
    const char *name;        // extern "C" symbol in that fatbin
    uint32_t dynamic_smem;   // bytes of dynamic shared memory at launch (the most it is launched with)
};

struct KernelTable {
    const KernelSpec *kernels;
    size_t count;
};

}  // namespace asyncgemm
