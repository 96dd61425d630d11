// ASYNCGEMM_HOST_DEVICE marks the small constexpr functions that host planning and kernels share
// (tile maps, layouts, rasters), so both sides compute the same numbers from one definition.
// Under g++ it expands to nothing; under nvcc to __host__ __device__.
#pragma once

#if defined(__CUDACC__)
#define ASYNCGEMM_HOST_DEVICE __host__ __device__
#else
#define ASYNCGEMM_HOST_DEVICE
#endif
