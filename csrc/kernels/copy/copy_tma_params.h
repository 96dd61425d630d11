// The TMA copy kernel's parameter block: the tensor maps the host encodes plus the copy itself.
//
// Passed by value as `const __grid_constant__`, so the maps stay in parameter memory, where
// cp.async.bulk.tensor may read them.  CUtensorMap carries its own alignment (64 bytes is what TMA
// needs; cuda.h declares 128), and so does the block.
#pragma once

#include <cuda.h>

#include "kernels/common/params.h"

namespace asyncgemm {

struct CopyTmaParams {
    CUtensorMap src_map;  // src as stored (cols x rows for OP_T), boxes of one tile
    CUtensorMap dst_map;  // dst, boxes of one tile; encoded for OP_N only (OP_T stores from registers)
    CopyParams copy;
};

}  // namespace asyncgemm
