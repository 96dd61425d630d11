// What the GPU did while a row was timed: its SM clock and the energy it drew, read through NVML.
//
// NVML (libnvidia-ml.so.1, part of the driver) is opened at run time, like cuBLAS, so the benchmark
// still builds and runs where it is absent; the rows then leave these columns empty.  On a GPU held
// at its power limit the clock follows the power drawn, so a row's time depends on its kernel's
// energy and on the state earlier rows left the GPU in: these columns show what the GPU did.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace bench {

struct GpuSample {
    std::optional<unsigned long long> energy_mj;  // since the driver loaded
    std::optional<unsigned> temperature_c;
};

class GpuMonitor {
public:
    // The monitor of the GPU at PCI bus id `pci_bus_id` (cudaDeviceGetPCIBusId), or null with the
    // reason in `why_not`.
    static std::unique_ptr<GpuMonitor> open(const std::string &pci_bus_id, std::string &why_not);
    ~GpuMonitor();
    GpuMonitor(const GpuMonitor &) = delete;
    GpuMonitor &operator=(const GpuMonitor &) = delete;

    GpuSample sample() const;                // read at the start and end of a row's timed runs
    std::optional<unsigned> sm_mhz() const;  // the SM clock now, read every 10 ms in between

private:
    struct Api;  // the NVML library and the functions read from it
    explicit GpuMonitor(std::unique_ptr<Api> api);
    std::unique_ptr<Api> api_;
};

}  // namespace bench
