// The names the benchmark prints for the library's enum values, and the size of each element type.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "asyncgemm.h"

namespace bench {

const char *dtype_name(asyncgemm_dtype_t dtype);                  // "f32", "f16", "bf16", "e4m3"
std::size_t element_bytes(asyncgemm_dtype_t dtype);
char op_letter(asyncgemm_op_t op);                                // 'N' or 'T'
const char *algo_name(asyncgemm_algo_t algo);                     // "PIPELINED", ...
std::optional<asyncgemm_algo_t> parse_algo(const std::string &name);  // algo_name's inverse
const char *copy_algo_name(asyncgemm_copy_algo_t algo);           // "SYNC", ...
const char *layout_name(asyncgemm_smem_layout_t layout);          // "PLAIN", ...

// "NOT_SUPPORTED" for ASYNCGEMM_STATUS_NOT_SUPPORTED: the library's own name without its prefix.
std::string status_name(asyncgemm_status_t status);

}  // namespace bench
