// Kernel families: each a set of kernel units (translation units), whose fatbins are embedded in the
// library's read-only data (runtime/fatbins.h).
#pragma once

namespace asyncgemm {

enum class Family : int {
    Copy = 0,  // csrc/kernels/copy: asyncgemm_copy2d
    Simt = 1,  // csrc/kernels/simt: fp32-FMA GEMM (ALGO_SIMT)
    Sm80 = 2,  // csrc/kernels/sm80: mma.sync tensor-core GEMM (ALGO_ASYNC_COPY, ALGO_PIPELINED)
    Sm90 = 3,  // csrc/kernels/sm90: TMA + wgmma GEMM, sm_90a only (ALGO_SM90_TMA_WGMMA)
    Sm100 = 4, // csrc/kernels/sm100: TMA + tcgen05 GEMM, sm_100a only (ALGO_SM100_TCGEN05)
    Skinny = 5, // csrc/kernels/skinny: GEMMs with a side of at most 32 (ALGO_AUTO)
    Count
};

const char *family_name(Family family);

// The architecture an architecture-specific family is built for and runs on alone (90: sm_90a, 100:
// sm_100a), where ASYNCGEMM_ARCHS lists it (CMakeLists.txt); 0 for a portable family, built always.
int family_architecture(Family family);

// True for a family whose kernels wait for the kernel before them in the stream (griddepcontrol.wait,
// kernels/common/grid_dependency.cuh) before they touch global memory, so that they may be launched
// with programmatic stream serialization: their start overlaps the end of the kernel before.  The
// runtime does so for each such kernel whose code was compiled for compute_90 or later
// (runtime/handle.cpp): compiled for an older architecture, the wait is nothing.
bool family_overlaps_prior_grids(Family family);

}  // namespace asyncgemm
