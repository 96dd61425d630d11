// The TMA copy kernel's parameter block: the tensor map of src the host encodes, plus the copy.
//
// Passed by value as `const __grid_constant__`, so the map stays in parameter memory, where
// cp.async.bulk.tensor may read it.  CUtensorMap carries its own alignment (64 bytes is what TMA
// needs; cuda.h declares 128), and so does the block.
//
// dst has no map: TMA stores write whole 16-byte chunks, so at a right edge that is not 16-byte
// aligned they overwrite memory past the row (the padding of dst's leading dimension).  The block's
// threads write dst instead, with the edge predicated.
#pragma once

#include <cuda.h>

#include "kernels/common/params.h"

namespace asyncgemm {

struct CopyTmaParams {
    CUtensorMap src_map;  // src as stored (cols x rows for OP_T), boxes of one tile
    CopyParams copy;
};

}  // namespace asyncgemm
