// asyncgemm_matmul's descriptor (version 0.2 of the C API) as the GemmArgs every entry point plans
// from, and the version 0 calls as the descriptors they stand for.
#pragma once

#include "asyncgemm.h"
#include "plan/gemm_args.h"

namespace asyncgemm::plan {

// The descriptor's fields as GemmArgs named "desc->...", after the checks only a descriptor has
// (INVALID_VALUE): NULL, a struct_size smaller than version 0.2's or too large to be one, and a field
// this version does not know (a byte past its own descriptor, within struct_size) set to non-zero.
GemmArgs matmul_args(const asyncgemm_matmul_desc_t *desc);

// What asyncgemm_matmul_desc_init sets: every field zero but struct_size, batch_count = 1, alpha = 1
// and algo = AUTO.
asyncgemm_matmul_desc_t default_matmul_desc();

}  // namespace asyncgemm::plan
