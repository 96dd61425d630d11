// Problems the Hopper family cannot read as they are, served by it on copies.  TMA describes a matrix
// only where its base, leading dimension and batch stride are multiples of 16 bytes, and wgmma reads
// tf32 operands K-major only; where the problem breaks either rule, ALGO_AUTO would fall to a slower
// family (PIPELINED with scalar copies ran 0.38-0.54x cuBLAS on unaligned operands, an H200; SIMT for
// TF32 with an MN-major operand, 0.13x).  Instead it copies each such matrix into 16-byte aligned
// scratch (asyncgemm_copy2d's kernels; transposed for a tf32 operand), runs the Hopper family on the
// copies, and copies D back where D was the one TMA could not describe.  The scratch is the handle's
// workspace (the caller's where lent); where it cannot hold the copies (a stream being captured
// without a lent one, a lent one too small, device memory exhausted) the call takes the slower
// family, never fails.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <optional>

#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// One matrix copied into the scratch, as a row-major 2-D copy: `rows` x `cols` elements of src
// (leading dimension ld_src; stored cols x rows and transposed where `transpose`) to the scratch at
// `offset` with leading dimension `ld`.  A batch of matrices `batch_rows` rows apart in src (a
// multiple of its leading dimension) is one copy of every row from the first matrix's to the last's,
// batch_rows x ld apart in the copy.
struct ScratchCopy {
    int64_t rows = 0, cols = 0;
    int64_t ld_src = 0, ld = 0;
    int64_t batch_rows = 0;  // rows from one matrix to the next, in src and copy alike; 0: one matrix
    bool transpose = false;
    size_t offset = 0, bytes = 0;
    bool used() const { return rows > 0; }
};

// The copies of a problem: A and B (and C) copied in before the product, D's copy copied out after.
struct Sm90Copies {
    ScratchCopy a, b, c, d;
    size_t scratch_bytes = 0;
};

// The copies that let the Hopper family serve the problem, or none where it needs none or copies
// cannot make it servable: an extent beyond TMA's 32-bit coordinates, batches of a matrix whose
// stride is not a multiple of its leading dimension, batches of D (or of C read into D's copy) with
// rows between them, transposed batches, types the family lacks even K-major.  `tf32`: f32 operands
// are multiplied as tf32, so an MN-major one is copied transposed.
std::optional<Sm90Copies> plan_sm90_copies(const GemmParams &params, bool tf32);

// The problem as the Hopper family then sees it: every copied matrix replaced by its copy in
// `scratch` (K-major where transposed), the rest untouched.
GemmParams on_copies(const GemmParams &params, const Sm90Copies &copies, char *scratch);

// Whether copying pays against the family AUTO would otherwise take (PIPELINED, or SIMT where
// `fallback_simt`): the copies' launches and traffic plus the Hopper product, estimated, against the
// fallback's product.
bool sm90_copies_pay(const GemmParams &params, const Sm90Copies &copies, bool fallback_simt);

// Copies, multiplies and copies back, all on `stream`, unsplit (the workspace holds the copies).
// Returns false, launching nothing, where the handle's workspace cannot hold the copies: the stream
// is being captured without a lent workspace, a lent one is too small, or the device has not the
// memory.
bool launch_sm90_on_copies(const Handle &handle, const GemmParams &params, const Sm90Copies &copies, void *stream);

}  // namespace asyncgemm::plan
