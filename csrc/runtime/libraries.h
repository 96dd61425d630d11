// Each kernel unit's fatbin as a CUlibrary, loaded once per process with cuLibraryLoadData.
//
// A CUlibrary is context-independent: one load serves every handle, context and device, and each
// handle then takes its kernels' functions for its own context.  Libraries are never unloaded: a
// handle's functions live inside them, handles may outlive any point where unloading would be safe,
// and at process exit the driver may already be shut down (cuLibraryUnload from a static destructor
// can fail or crash); the driver frees them with the process.
#pragma once

#include <cuda.h>
#include <stddef.h>

namespace asyncgemm {

// The library of kEmbeddedUnits[unit] (runtime/fatbins.h), loaded at the first call.  nullptr when
// the driver found no code for this process's GPUs in the fatbin (with CUDA_MODULE_LOADING=EAGER the
// load goes into every existing context and can fail so); that answer is kept.  Other failures
// throw, and a later call tries again.
CUlibrary unit_library(size_t unit);

}  // namespace asyncgemm
