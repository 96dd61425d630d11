// The object behind asyncgemm_handle_t: one CUDA context, the kernels loaded into it, device facts.
//
// Creation does all the slow work (driver load, library load, function lookup, attributes), so a
// launch only checks the stream's context and calls cuLaunchKernelEx: nothing is loaded or
// configured on the launch path, and launches capture cleanly into CUDA graphs.  Memory is allocated
// only by the autotuner (plan/autotune.h) and the split-K workspace (runtime/workspace.h), at their
// first use and never while the stream is being captured.
// A handle may be used from several threads at once: after creation it is immutable except for the
// math mode, the autotune switch and the workspace, which synchronizes itself.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "asyncgemm.h"
#include "runtime/kernel_table.h"

struct CUctx_st;  // CUcontext, without cuda.h

namespace asyncgemm {

class Workspace;

struct DeviceInfo {
    int ordinal = 0;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int max_smem_per_block_optin = 0;  // bytes
    int l2_bytes = 0;
    std::string name;
    std::string uuid;  // "GPU-..." (driver/device_uuid.h): which GPU, whatever its ordinal
};

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
};

// Why creating a handle failed (INTERNAL_ERROR) when a kernel of the table is not in its unit's
// fatbin although that fatbin has code for the device: the build and the table disagree, which the
// single kernel list per family rules out, and which must never pass as "no code for this GPU".
std::string missing_kernel_message(const KernelSpec &spec);

class Handle {
public:
    // The context current on this thread, else device 0's primary context (retained).
    static std::unique_ptr<Handle> create_current(const KernelTable &table);
    // Device `device`'s primary context (retained).
    static std::unique_ptr<Handle> create_for_device(int device, const KernelTable &table);
    ~Handle();
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;

    const DeviceInfo &device() const { return device_; }
    // True when the family's kernels loaded for this device (its fatbin has code for it), all but
    // optional ones that need more shared memory than the device has (see kernel_available).
    bool family_available(Family family) const;
    // True when kernel table entry `kernel` can be launched on this device.
    bool kernel_available(size_t kernel) const;

    // Launches table entry `kernel` with one parameter block on `stream` (NULL: legacy stream).
    // Throws INVALID_VALUE if the stream belongs to another context, CUDA_ERROR on launch failure.
    void launch(size_t kernel, Dim3 grid, Dim3 block, uint32_t dynamic_smem, const void *params,
                size_t params_size, void *stream) const;

    asyncgemm_math_t math_mode() const { return math_mode_.load(std::memory_order_relaxed); }
    void set_math_mode(asyncgemm_math_t mode) { math_mode_.store(mode, std::memory_order_relaxed); }

    // Whether the first call of a shape bucket times the candidate kernels (plan/autotune.h).  Starts
    // on when the environment variable ASYNCGEMM_AUTOTUNE is "1" at creation.
    bool autotune() const { return autotune_.load(std::memory_order_relaxed); }
    void set_autotune(bool enable) { autotune_.store(enable, std::memory_order_relaxed); }

    // The CUDA context the handle binds (a CUcontext).
    CUctx_st *context() const;

    // Split-K scratch memory, shared by every launch through this handle (it orders them itself).
    Workspace &workspace() const;

    // asyncgemm_set_workspace: lends `bytes` of the caller's device memory at `buffer` to every later
    // launch (null and 0: the handle's own again).  Throws INVALID_VALUE for a null buffer with bytes,
    // fewer than Workspace::kLentMinimumBytes, or memory that is not device memory of this GPU;
    // MISALIGNED for a buffer off 256 bytes.
    void set_workspace(void *buffer, size_t bytes) const;

    struct Impl;

private:
    explicit Handle(std::unique_ptr<Impl> impl, DeviceInfo device);
    std::unique_ptr<Impl> impl_;
    DeviceInfo device_;
    std::atomic<asyncgemm_math_t> math_mode_{ASYNCGEMM_MATH_DEFAULT};
    std::atomic<bool> autotune_;
};

}  // namespace asyncgemm
