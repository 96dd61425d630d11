// asyncgemm-bench: the seed GEMM workloads and the copy2d section, every available algorithm against
// cuBLAS and a device-to-device copy in one run, or the benchmark suites (suites.h), on CUDA device 0.
//
// Exit status: 0 when every row is right, 1 when a row FAILED or the run could not go on (the rows
// finished so far are still printed), 2 when there is no GPU.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <exception>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "check.h"
#include "cli.h"
#include "copy_bench.h"
#include "cublas_loader.h"
#include "cublaslt_loader.h"
#include "device_memory.h"
#include "gemm_bench.h"
#include "gpu_monitor.h"
#include "progress.h"
#include "report.h"
#include "results.h"
#include "session.h"

namespace bench {

namespace {

constexpr int kDevice = 0;

// Set by SIGINT or SIGTERM (Ctrl-C, `timeout`): the run stops after the workload under way, and the
// rows finished so far are printed as usual.
volatile std::sig_atomic_t g_stop_requested = 0;
void request_stop(int) { g_stop_requested = 1; }

// Every algorithm the library names, in the order the rows list them: the families from the oldest
// GPU up, then AUTO, which picks among them.
constexpr asyncgemm_algo_t kAlgorithms[] = {ASYNCGEMM_ALGO_SIMT, ASYNCGEMM_ALGO_ASYNC_COPY,
                                            ASYNCGEMM_ALGO_PIPELINED, ASYNCGEMM_ALGO_SM90_TMA_WGMMA,
                                            ASYNCGEMM_ALGO_SM100_TCGEN05, ASYNCGEMM_ALGO_AUTO};

struct StreamDestroyer {
    void operator()(cudaStream_t stream) const { cudaStreamDestroy(stream); }
};
using StreamOwner = std::unique_ptr<CUstream_st, StreamDestroyer>;

struct HandleDestroyer {
    void operator()(asyncgemm_handle_t handle) const { asyncgemm_destroy(handle); }
};
using HandleOwner = std::unique_ptr<asyncgemm_handle_st, HandleDestroyer>;

std::string local_date() {
    const std::time_t now = std::time(nullptr);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
    return text;
}

int device_attribute(cudaDeviceAttr attribute) {
    int value = 0;
    check_cuda(cudaDeviceGetAttribute(&value, attribute, kDevice), "cudaDeviceGetAttribute");
    return value;
}

void describe_device(RunInfo &info) {
    cudaDeviceProp properties{};
    check_cuda(cudaGetDeviceProperties(&properties, kDevice), "cudaGetDeviceProperties");
    info.date = local_date();
    info.device = kDevice;
    info.cc_major = device_attribute(cudaDevAttrComputeCapabilityMajor);
    info.cc_minor = device_attribute(cudaDevAttrComputeCapabilityMinor);
    info.sm_count = device_attribute(cudaDevAttrMultiProcessorCount);
    info.l2_bytes = std::size_t(device_attribute(cudaDevAttrL2CacheSize));
    check_cuda(cudaDriverGetVersion(&info.driver_version), "cudaDriverGetVersion");
    check_cuda(cudaRuntimeGetVersion(&info.runtime_version), "cudaRuntimeGetVersion");
    int major = 0, minor = 0, patch = 0;
    asyncgemm_get_version(&major, &minor, &patch);
    info.asyncgemm_version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    info.device_name = properties.name;  // last: a named device means the header can be printed
}

void run(const Options &options, RunInfo &info, Results &results, Progress &progress) {
    check_cuda(cudaSetDevice(kDevice), "cudaSetDevice");
    // Makes the device's primary context current, the one asyncgemm and cuBLAS then both use.
    check_cuda(cudaFree(nullptr), "cudaFree");
    describe_device(info);
    info.seed = options.seed ? *options.seed
                             : uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
    std::mt19937_64 rng(info.seed);
    info.timing = timing_name(options.timing);

    cudaStream_t raw_stream = nullptr;
    check_cuda(cudaStreamCreate(&raw_stream), "cudaStreamCreate");
    const StreamOwner stream(raw_stream);

    // Graph timing captures the calls: asyncgemm then needs a workspace of the caller's to split K as
    // it does eagerly (asyncgemm_set_workspace).  Declared before the handle, which never frees it.
    std::unique_ptr<DeviceBuffer> workspace;
    if (options.timing == TimingMode::graphs)
        workspace = std::make_unique<DeviceBuffer>(ASYNCGEMM_WORKSPACE_RECOMMENDED_BYTES);
    asyncgemm_handle_t raw_handle = nullptr;
    check_asyncgemm(asyncgemm_create_for_device(&raw_handle, kDevice), "asyncgemm_create_for_device");
    const HandleOwner handle(raw_handle);
    if (options.autotune) check_asyncgemm(asyncgemm_set_autotune(handle.get(), 1), "asyncgemm_set_autotune");
    if (workspace)
        check_asyncgemm(asyncgemm_set_workspace(handle.get(), workspace->data(), workspace->bytes()),
                        "asyncgemm_set_workspace");
    info.autotune = options.autotune;

    std::string why_no_cublas;
    const std::unique_ptr<Cublas> cublas = Cublas::open(stream.get(), why_no_cublas);
    info.cublas = cublas ? "cuBLAS " + cublas->version() : "no cuBLAS (" + why_no_cublas + ")";
    // cuBLASLt only where a workload has an epilogue or 8-bit inputs: the other runs neither need it
    // nor its workspace.
    std::unique_ptr<CublasLt> cublaslt;
    if (std::any_of(options.workloads.begin(), options.workloads.end(),
                    [](const GemmWorkload &w) { return w.needs_matmul(); })) {
        std::string why_no_cublaslt;
        cublaslt = CublasLt::open(stream.get(), why_no_cublaslt);
        info.cublas += cublaslt ? ", cuBLASLt " + cublaslt->version() : ", no cuBLASLt (" + why_no_cublaslt + ")";
    }

    for (asyncgemm_algo_t algo : kAlgorithms) {
        if (options.algorithms && std::find(options.algorithms->begin(), options.algorithms->end(), algo) ==
                                      options.algorithms->end())
            continue;
        int available = 0;
        check_asyncgemm(asyncgemm_algo_available(handle.get(), algo, &available), "asyncgemm_algo_available");
        (available ? info.algorithms : info.unavailable).push_back(algo);
    }

    char pci_bus_id[32] = {};
    check_cuda(cudaDeviceGetPCIBusId(pci_bus_id, sizeof pci_bus_id, kDevice), "cudaDeviceGetPCIBusId");
    std::string why_no_monitor;
    const std::unique_ptr<GpuMonitor> monitor = GpuMonitor::open(pci_bus_id, why_no_monitor);
    info.monitor = monitor ? "NVML (SM clock, energy, temperature)" : "none (" + why_no_monitor + ")";

    const Session session{stream.get(), handle.get(), cublas.get(), cublaslt.get(), monitor.get(), info.l2_bytes,
                          options.min_runs, options.timing, rng, progress};
    int steps = (options.run_copy ? copy_steps() : 0) + (options.copy_baseline ? 1 : 0);
    for (const GemmWorkload &workload : options.workloads) steps += gemm_steps(session, workload, info.algorithms);
    progress.set_total(steps);
    for (const GemmWorkload &workload : options.workloads) {
        if (g_stop_requested) return;
        bench_gemm_workload(session, workload, info.algorithms, results.gemm);
    }
    if (options.run_copy && !g_stop_requested) bench_copies(session, results.copy);
    if (options.copy_baseline && !g_stop_requested) bench_copy_baseline(session, results.copy);
}

}  // namespace

}  // namespace bench

int main(int argc, char **argv) {
    using namespace bench;

    Options options;
    try {
        options = parse_options(argc, argv);
    } catch (const std::invalid_argument &e) {
        std::cerr << "asyncgemm-bench: " << e.what() << " (--help lists the options)\n";
        return 1;
    }
    if (options.show_help) {
        print_usage(std::cout);
        return 0;
    }
    if (options.list_suites) {
        print_suites(std::cout, options.fuse);
        return 0;
    }

    int device_count = 0;
    const cudaError_t probe = cudaGetDeviceCount(&device_count);
    if (probe != cudaSuccess || device_count == 0) {
        std::cerr << "asyncgemm-bench: no CUDA GPU available ("
                  << (probe != cudaSuccess ? cudaGetErrorString(probe) : "cudaGetDeviceCount found none") << ")\n";
        return 2;
    }

    std::signal(SIGINT, request_stop);
    std::signal(SIGTERM, request_stop);
    RunInfo info;
    Results results;
    Progress progress;
    std::string fatal;
    try {
        run(options, info, results, progress);
    } catch (const std::exception &e) {
        fatal = e.what();
    }
    progress.clear();

    if (!info.device_name.empty()) {
        print_report(std::cout, info, results);
        if (!options.csv_path.empty()) {
            try {
                write_csv(options.csv_path, info, results);
            } catch (const std::exception &e) {
                if (fatal.empty()) fatal = e.what();
            }
        }
    }
    if (!fatal.empty()) {
        std::cerr << "asyncgemm-bench: " << fatal << '\n';
        return 1;
    }
    if (g_stop_requested) {
        std::cerr << "asyncgemm-bench: stopped by a signal; the rows above are those finished\n";
        return 1;
    }
    return results.any_failed() ? 1 : 0;
}
