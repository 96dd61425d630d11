#include "gpu_monitor.h"

#include <dlfcn.h>

namespace bench {

namespace {

// The few NVML declarations used (nvml.h, stable since NVML 2; the toolkit here ships no header).
using nvmlReturn_t = int;
constexpr nvmlReturn_t kNvmlSuccess = 0;
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st *;
constexpr int kNvmlClockSm = 1;           // NVML_CLOCK_SM
constexpr int kNvmlTemperatureGpu = 0;    // NVML_TEMPERATURE_GPU

}  // namespace

struct GpuMonitor::Api {
    void *library = nullptr;
    nvmlDevice_t device = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    nvmlReturn_t (*clock_info)(nvmlDevice_t, int, unsigned *) = nullptr;
    nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned *) = nullptr;
    nvmlReturn_t (*total_energy)(nvmlDevice_t, unsigned long long *) = nullptr;

    ~Api() {
        if (shutdown) shutdown();
        if (library) dlclose(library);
    }
};

std::unique_ptr<GpuMonitor> GpuMonitor::open(const std::string &pci_bus_id, std::string &why_not) {
    auto api = std::make_unique<Api>();
    api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        why_not = "libnvidia-ml.so.1 not found";
        return nullptr;
    }
    const auto symbol = [&](const char *name) { return dlsym(api->library, name); };
    const auto init = reinterpret_cast<nvmlReturn_t (*)()>(symbol("nvmlInit_v2"));
    const auto by_bus_id =
        reinterpret_cast<nvmlReturn_t (*)(const char *, nvmlDevice_t *)>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
    const auto shutdown = reinterpret_cast<nvmlReturn_t (*)()>(symbol("nvmlShutdown"));
    api->clock_info = reinterpret_cast<decltype(api->clock_info)>(symbol("nvmlDeviceGetClockInfo"));
    api->temperature = reinterpret_cast<decltype(api->temperature)>(symbol("nvmlDeviceGetTemperature"));
    api->total_energy = reinterpret_cast<decltype(api->total_energy)>(symbol("nvmlDeviceGetTotalEnergyConsumption"));
    if (!init || !by_bus_id || !shutdown || !api->clock_info || !api->temperature || !api->total_energy) {
        why_not = "libnvidia-ml.so.1 lacks a function the benchmark reads";
        return nullptr;
    }
    if (init() != kNvmlSuccess) {
        why_not = "nvmlInit_v2 failed";
        return nullptr;
    }
    api->shutdown = shutdown;
    if (by_bus_id(pci_bus_id.c_str(), &api->device) != kNvmlSuccess) {
        why_not = "NVML does not know the GPU at " + pci_bus_id;
        return nullptr;
    }
    return std::unique_ptr<GpuMonitor>(new GpuMonitor(std::move(api)));
}

GpuMonitor::GpuMonitor(std::unique_ptr<Api> api) : api_(std::move(api)) {}
GpuMonitor::~GpuMonitor() = default;

std::optional<unsigned> GpuMonitor::sm_mhz() const {
    unsigned mhz = 0;
    if (api_->clock_info(api_->device, kNvmlClockSm, &mhz) != kNvmlSuccess) return std::nullopt;
    return mhz;
}

GpuSample GpuMonitor::sample() const {
    GpuSample s;
    unsigned long long energy = 0;
    unsigned temperature = 0;
    if (api_->total_energy(api_->device, &energy) == kNvmlSuccess) s.energy_mj = energy;
    if (api_->temperature(api_->device, kNvmlTemperatureGpu, &temperature) == kNvmlSuccess)
        s.temperature_c = temperature;
    return s;
}

}  // namespace bench
