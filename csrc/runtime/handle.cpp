#include "runtime/handle.h"

#include <cuda.h>
#include <stdlib.h>
#include <string.h>

#include <array>
#include <string>
#include <vector>

#include "common/error.h"
#include "driver/context_scope.h"
#include "driver/device_uuid.h"
#include "driver/driver.h"
#include "driver/errors.h"
#include "runtime/fatbin_contents.h"
#include "runtime/fatbins.h"
#include "runtime/launch_trace.h"
#include "runtime/libraries.h"
#include "runtime/workspace.h"

namespace asyncgemm {
namespace {

constexpr size_t kFamilies = static_cast<size_t>(Family::Count);

// Static plus dynamic shared memory a block may use before its kernel must opt in to more.
constexpr int64_t kSharedMemoryWithoutOptIn = 48 * 1024;

// Shared memory per block every architecture the families are built for offers (sm_86, 89 and 120
// opt in to 99 KB).  A kernel that needs more is optional: where it does not fit, it alone is
// unavailable and the planner (which checks kernel_available) picks another; a kernel within this
// that does not fit takes its whole family out.
constexpr int64_t kSharedMemoryEverywhere = 99 * 1024;

// Why a family or a kernel cannot run on the handle's device: NoCode, its fatbins hold no code for
// the device's architecture; NotBuilt, the build left the family out (ASYNCGEMM_ARCHS lacks its
// architecture); SharedMemory, a kernel needs more shared memory per block than the device has.
enum class Unavailable : uint8_t { No, NoCode, NotBuilt, SharedMemory };

struct LoadedKernel {
    KernelSpec spec{};
    CUfunction function = nullptr;  // in the handle's context
    size_t param_bytes = 0;         // size of the kernel's one parameter, its parameter block
    Unavailable unavailable = Unavailable::No;
    bool overlaps_prior_grids = false;  // launched with programmatic stream serialization
};

// What the driver answers for a kernel whose unit has no code for this device: sm_100a SASS passes
// may_run_on's filter on a 10.3 GPU, and only the driver knows it cannot run there.
bool is_missing_code(CUresult result) { return result == CUDA_ERROR_NO_BINARY_FOR_GPU; }

void check_kernel_call(CUresult result, const char *call, const KernelSpec &spec) {
    if (result != CUDA_SUCCESS) throw_driver_error(result, std::string(call) + "(" + spec.name + ")");
}

size_t family_index(Family family) {
    const auto index = static_cast<size_t>(family);
    if (index >= kFamilies)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR,
             "kernel table names family " + std::to_string(static_cast<int>(family)));
    return index;
}

}  // namespace

std::string missing_kernel_message(const KernelSpec &spec) {
    return std::string("kernel ") + spec.name + " is missing from the fatbin of unit " + spec.unit +
           ", which has code for this device: the library was built from another kernel list than its table";
}

namespace {

// Takes the function of `kernel.spec` for the current context and readies it for launch: loaded,
// shared memory limit raised, parameter block size known.  Says why not when the device cannot run it.
Unavailable load_kernel(const DriverApi &api, CUlibrary library, int smem_optin, LoadedKernel &kernel) {
    const KernelSpec &spec = kernel.spec;
    CUkernel library_kernel = nullptr;
    CUresult result = api.cuLibraryGetKernel(&library_kernel, library, spec.name);
    if (is_missing_code(result)) return Unavailable::NoCode;
    // The unit has code for this device but not this kernel: the build and the table disagree.
    if (result == CUDA_ERROR_NOT_FOUND) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, missing_kernel_message(spec));
    check_kernel_call(result, "cuLibraryGetKernel", spec);
    result = api.cuKernelGetFunction(&kernel.function, library_kernel);
    if (is_missing_code(result)) return Unavailable::NoCode;
    check_kernel_call(result, "cuKernelGetFunction", spec);
    // Loaded now rather than at the first launch, which may come inside a stream capture.
    result = api.cuFuncLoad(kernel.function);
    if (is_missing_code(result)) return Unavailable::NoCode;
    check_kernel_call(result, "cuFuncLoad", spec);

    int static_smem = 0;
    check_kernel_call(
        api.cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel.function),
        "cuFuncGetAttribute", spec);
    const int64_t smem = static_cast<int64_t>(static_smem) + spec.dynamic_smem;
    if (smem > smem_optin) return Unavailable::SharedMemory;
    // The opt-in counts the static part too: 40 KiB dynamic over 16 KiB static needs it.
    if (smem > kSharedMemoryWithoutOptIn)
        check_kernel_call(
            api.cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(spec.dynamic_smem)),
            "cuFuncSetAttribute", spec);

    // A kernel whose family waits for the grids before it may overlap them where its code has the
    // wait: code compiled for the virtual architecture compute_90 or later (a portable unit's
    // compute_80 code, JIT-compiled for a newer GPU, has not), which an architecture-specific family's
    // always is.
    int ptx_version = 0;
    check_kernel_call(api.cuFuncGetAttribute(&ptx_version, CU_FUNC_ATTRIBUTE_PTX_VERSION, kernel.function),
                      "cuFuncGetAttribute", spec);
    kernel.overlaps_prior_grids = family_overlaps_prior_grids(spec.family) &&
                                  (ptx_version >= 90 || family_architecture(spec.family) >= 90);

    // Every kernel takes one parameter, the block params.h defines; launch() checks its size.
    // (Probing for a second parameter would be a failing driver call, which compute-sanitizer reports.)
    size_t offset = 0;
    check_kernel_call(api.cuFuncGetParamInfo(kernel.function, 0, &offset, &kernel.param_bytes),
                      "cuFuncGetParamInfo", spec);
    return Unavailable::No;
}

std::string unavailable_message(Family family, Unavailable why, const DeviceInfo &device) {
    std::string message = std::string(family_name(family)) + " kernels cannot run on " + device.name +
                          " (sm_" + std::to_string(device.cc_major) + std::to_string(device.cc_minor) + "): ";
    if (why == Unavailable::NoCode) return message + "the library has no code for this architecture";
    if (why == Unavailable::NotBuilt) return message + "this build of the library left them out (ASYNCGEMM_ARCHS)";
    return message + "they need more shared memory per block than its " +
           std::to_string(device.max_smem_per_block_optin) + " bytes";
}

bool autotune_requested_by_environment() {
    const char *value = getenv("ASYNCGEMM_AUTOTUNE");
    return value != nullptr && strcmp(value, "1") == 0;
}

// NULL, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD name a stream of whichever context is current.
bool is_current_context_stream(CUstream stream) {
    return stream == nullptr || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD;
}

}  // namespace

struct Handle::Impl {
    explicit Impl(const DriverApi &driver_api) : api(driver_api) {}
    ~Impl() {
        workspace.reset();  // while the context is certainly alive
        // Nothing to report a failed release to; it can only fail once the driver is shutting down.
        if (retained_primary) api.cuDevicePrimaryCtxRelease(device);
    }
    Impl(const Impl &) = delete;
    Impl &operator=(const Impl &) = delete;

    // Finishes a handle whose context is chosen: device facts, then every kernel of `table`.
    static std::unique_ptr<Handle> open(std::unique_ptr<Impl> impl, const KernelTable &table);

    void retain_primary_context(CUdevice primary_device);
    DeviceInfo query_device() const;
    void load_kernels(const KernelTable &table, const DeviceInfo &device);

    const DriverApi &api;
    CUcontext context = nullptr;
    CUdevice device = 0;
    bool retained_primary = false;                     // released in the destructor
    std::vector<LoadedKernel> kernels;                 // by kernel table index
    std::array<Unavailable, kFamilies> unavailable{};  // by family; all Unavailable::No at first
    std::unique_ptr<Workspace> workspace;              // split-K scratch, allocated at first use
};

std::unique_ptr<Handle> Handle::Impl::open(std::unique_ptr<Impl> impl, const KernelTable &table) {
    DeviceInfo device = impl->query_device();
    {
        ContextScope scope(impl->api, impl->context);
        impl->load_kernels(table, device);
    }
    impl->workspace = std::make_unique<Workspace>(impl->api, impl->context);
    return std::unique_ptr<Handle>(new Handle(std::move(impl), std::move(device)));
}

void Handle::Impl::retain_primary_context(CUdevice primary_device) {
    check(api.cuDevicePrimaryCtxRetain(&context, primary_device), "cuDevicePrimaryCtxRetain");
    device = primary_device;
    retained_primary = true;
}

DeviceInfo Handle::Impl::query_device() const {
    auto attribute = [&](CUdevice_attribute which) {
        int value = 0;
        check(api.cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
        return value;
    };
    DeviceInfo info;
    info.ordinal = static_cast<int>(device);  // a CUdevice is its ordinal
    info.cc_major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info.cc_minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    info.sm_count = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info.max_smem_per_block_optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    info.l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    char name[256] = {};
    check(api.cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName");
    info.name = name;
    CUuuid uuid{};
    check(api.cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid");
    info.uuid = uuid_string(uuid);
    return info;
}

void Handle::Impl::load_kernels(const KernelTable &table, const DeviceInfo &device) {
    // Units whose fatbin has no code for this architecture (sm_100a kernels on an H100) are out
    // without asking the driver for their kernels, and so is an architecture-specific family the
    // build left out (its architecture not in ASYNCGEMM_ARCHS: no unit of it is embedded), NotBuilt
    // on a GPU of its architecture and NoCode on any other.  A portable family is always built: a
    // unit of it missing fails below (embedded_unit_index).
    std::vector<bool> unit_runs(kEmbeddedUnitCount);
    std::array<bool, kFamilies> built{};
    for (size_t u = 0; u < kEmbeddedUnitCount; ++u) {
        unit_runs[u] = may_run_on(fatbin_entries(kEmbeddedUnits[u].image()), device.cc_major, device.cc_minor);
        built[family_index(kEmbeddedUnits[u].family)] = true;
    }
    for (size_t f = 0; f < kFamilies; ++f) {
        const int architecture = family_architecture(static_cast<Family>(f));
        if (built[f] || architecture == 0) continue;
        unavailable[f] = device.cc_major * 10 == architecture ? Unavailable::NotBuilt : Unavailable::NoCode;
    }
    kernels.resize(table.count);
    for (size_t i = 0; i < table.count; ++i) {
        LoadedKernel &kernel = kernels[i];
        kernel.spec = table.kernels[i];
        Unavailable &family = unavailable[family_index(kernel.spec.family)];
        // One kernel the device cannot run takes its whole family out (the rest need no loading),
        // unless it is an optional one that only lacks shared memory.
        if (family != Unavailable::No) continue;
        const size_t unit = embedded_unit_index(kernel.spec.unit);
        const CUlibrary library = unit_runs[unit] ? unit_library(unit) : nullptr;
        kernel.unavailable = library != nullptr ? load_kernel(api, library, device.max_smem_per_block_optin, kernel)
                                                : Unavailable::NoCode;
        const bool optional = kernel.unavailable == Unavailable::SharedMemory &&
                              kernel.spec.dynamic_smem > kSharedMemoryEverywhere;
        if (!optional) family = kernel.unavailable;
    }
}

std::unique_ptr<Handle> Handle::create_current(const KernelTable &table) {
    auto impl = std::make_unique<Impl>(driver());
    const DriverApi &api = impl->api;
    check(api.cuCtxGetCurrent(&impl->context), "cuCtxGetCurrent");
    // A current context is borrowed, not retained: its owner keeps it alive as long as the handle.
    if (impl->context != nullptr) {
        check(api.cuCtxGetDevice(&impl->device, impl->context), "cuCtxGetDevice");
    } else {
        CUdevice first = 0;
        check(api.cuDeviceGet(&first, 0), "cuDeviceGet");
        impl->retain_primary_context(first);
    }
    return Impl::open(std::move(impl), table);
}

std::unique_ptr<Handle> Handle::create_for_device(int device, const KernelTable &table) {
    auto impl = std::make_unique<Impl>(driver());
    const DriverApi &api = impl->api;
    int count = 0;
    check(api.cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (device < 0 || device >= count)
        fail(ASYNCGEMM_STATUS_INVALID_VALUE, "device = " + std::to_string(device) + " is out of range: " +
                                                 std::to_string(count) + " CUDA device(s) visible");
    CUdevice chosen = 0;
    check(api.cuDeviceGet(&chosen, device), "cuDeviceGet");
    impl->retain_primary_context(chosen);
    return Impl::open(std::move(impl), table);
}

Handle::Handle(std::unique_ptr<Impl> impl, DeviceInfo device)
    : impl_(std::move(impl)), device_(std::move(device)), autotune_(autotune_requested_by_environment()) {}

Handle::~Handle() = default;

CUcontext Handle::context() const { return impl_->context; }

bool Handle::family_available(Family family) const {
    const auto index = static_cast<size_t>(family);
    return index < kFamilies && impl_->unavailable[index] == Unavailable::No;
}

Workspace &Handle::workspace() const { return *impl_->workspace; }

void Handle::set_workspace(void *buffer, size_t bytes) const {
    if (buffer == nullptr) {
        if (bytes != 0) fail(ASYNCGEMM_STATUS_INVALID_VALUE, "workspace is NULL but bytes is " + std::to_string(bytes));
        impl_->workspace->lend(nullptr, 0);
        return;
    }
    if (bytes < Workspace::kLentMinimumBytes)
        fail(ASYNCGEMM_STATUS_INVALID_VALUE, "bytes (" + std::to_string(bytes) + ") must be at least " +
                                                 std::to_string(Workspace::kLentMinimumBytes));
    if (reinterpret_cast<uintptr_t>(buffer) % Workspace::kLentAlignment != 0)
        fail(ASYNCGEMM_STATUS_MISALIGNED, "workspace is not " + std::to_string(Workspace::kLentAlignment) +
                                              "-byte aligned");
    // Device memory of the handle's GPU: cuMemAlloc's, cudaMalloc's, or a stream-ordered pool's (as
    // CUDA.jl allocates), which belongs to a device rather than a context.
    ContextScope scope(impl_->api, impl_->context);
    // cuPointerGetAttributes (not the singular form) answers a pointer the driver does not know with
    // zeroed attributes and CUDA_SUCCESS, so a refused host pointer leaves no API error behind.
    unsigned memory_type = 0;
    int ordinal = -1;
    CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *values[] = {&memory_type, &ordinal};
    const bool known = impl_->api.cuPointerGetAttributes(2, which, values, reinterpret_cast<CUdeviceptr>(buffer)) ==
                       CUDA_SUCCESS;
    if (!known || memory_type != CU_MEMORYTYPE_DEVICE || ordinal != static_cast<int>(impl_->device))
        fail(ASYNCGEMM_STATUS_INVALID_VALUE, "workspace is not device memory of the handle's GPU");
    impl_->workspace->lend(buffer, bytes);
}

bool Handle::kernel_available(size_t kernel) const {
    if (kernel >= impl_->kernels.size()) return false;
    const LoadedKernel &loaded = impl_->kernels[kernel];
    return family_available(loaded.spec.family) && loaded.unavailable == Unavailable::No;
}

void Handle::launch(size_t kernel, Dim3 grid, Dim3 block, uint32_t dynamic_smem, const void *params,
                    size_t params_size, void *stream) const {
    const Impl &impl = *impl_;
    if (kernel >= impl.kernels.size())
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR,
             "kernel index " + std::to_string(kernel) + " is outside the kernel table");
    const LoadedKernel &loaded = impl.kernels[kernel];
    const Unavailable why = impl.unavailable[static_cast<size_t>(loaded.spec.family)];
    if (why != Unavailable::No)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, unavailable_message(loaded.spec.family, why, device_));
    if (loaded.unavailable != Unavailable::No)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string(loaded.spec.name) + " was chosen but cannot run on " +
                                                  device_.name);
    if (dynamic_smem > loaded.spec.dynamic_smem)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string(loaded.spec.name) + " launched with " +
                                                  std::to_string(dynamic_smem) +
                                                  " bytes of dynamic shared memory; its table entry allows " +
                                                  std::to_string(loaded.spec.dynamic_smem));
    if (params_size != loaded.param_bytes)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR,
             std::string(loaded.spec.name) + " takes a " + std::to_string(loaded.param_bytes) +
                 "-byte parameter block; the host passed " + std::to_string(params_size) + " bytes");

    const DriverApi &api = impl.api;
    const auto cu_stream = static_cast<CUstream>(stream);
    if (!is_current_context_stream(cu_stream)) {
        CUcontext stream_context = nullptr;
        CUgreenCtx green_context = nullptr;  // a green context's stream reports its device's primary context
        check(api.cuStreamGetCtx(cu_stream, &stream_context, &green_context), "cuStreamGetCtx");
        if (stream_context != impl.context)
            fail(ASYNCGEMM_STATUS_INVALID_VALUE, "stream belongs to another CUDA context than the handle's");
    }

    ContextScope scope(api, impl.context);
    CUlaunchConfig config{};
    config.gridDimX = grid.x;
    config.gridDimY = grid.y;
    config.gridDimZ = grid.z;
    config.blockDimX = block.x;
    config.blockDimY = block.y;
    config.blockDimZ = block.z;
    config.sharedMemBytes = dynamic_smem;
    config.hStream = cu_stream;
    CUlaunchAttribute overlap{};
    overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    overlap.value.programmaticStreamSerializationAllowed = 1;
    if (loaded.overlaps_prior_grids) {
        config.attrs = &overlap;
        config.numAttrs = 1;
    }
    void *args[] = {const_cast<void *>(params)};
    check(api.cuLaunchKernelEx(&config, loaded.function, args, nullptr), "cuLaunchKernelEx");
    record_launch(loaded.spec.name);
}

}  // namespace asyncgemm
