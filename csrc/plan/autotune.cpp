#include "plan/autotune.h"

#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "driver/capture.h"
#include "driver/context_scope.h"
#include "driver/device_buffer.h"
#include "driver/driver.h"
#include "driver/errors.h"
#include "driver/stream_drain.h"
#include "kernels/common/fingerprint.h"
#include "plan/autotune_cache.h"
#include "plan/gemm_args.h"
#include "plan/kernel_table.h"
#include "plan/sm80_kernels.h"
#include "plan/sm80_plan.h"
#include "plan/sm90_kernels.h"
#include "plan/sm90_plan.h"

namespace asyncgemm::plan {
namespace {

// Every candidate runs once untimed (clocks, instruction cache, TLBs), then kSamples times over
// kLaunchesPerSample back-to-back launches, candidates taking turns so that a drifting clock hits
// all of them alike.  A candidate's score is its best sample.
constexpr int kSamples = 3;
constexpr int kLaunchesPerSample = 5;

// ASYNCGEMM_AUTOTUNE_VERBOSE=1: every timing goes to stderr, one line per candidate.
bool verbose() {
    static const bool on = [] {
        const char *value = getenv("ASYNCGEMM_AUTOTUNE_VERBOSE");
        return value != nullptr && strcmp(value, "1") == 0;
    }();
    return on;
}

// Scratch inputs hold random values: constant ones (let alone zeros) draw less power than real data,
// and on H100 let a kernel that slows down on real data (its clock drops) win the timing by 12%.
// One block of random elements, made once per type, is copied over each buffer end to end.
constexpr size_t kPatternElements = size_t{1} << 20;

// Random 16-bit floats of either sign with magnitudes in [2^-10, 1): a random exponent in that range
// and random mantissa bits, written directly in the type's bit layout.
std::vector<uint16_t> make_pattern(int32_t type_ab) {
    const bool bf16 = type_ab == kBF16;
    const unsigned mantissa_bits = bf16 ? 7 : 10;
    const unsigned exponent_one = bf16 ? 127 : 15;  // the biased exponent of 1.0
    std::mt19937 rng(0x5eed);
    std::vector<uint16_t> pattern(kPatternElements);
    for (uint16_t &element : pattern) {
        const uint32_t r = rng();
        const uint32_t sign = r >> 31;
        const uint32_t exponent = exponent_one - 1 - (r >> 16) % 10;
        const uint32_t mantissa = r & ((1u << mantissa_bits) - 1);
        element = static_cast<uint16_t>(sign << 15 | exponent << mantissa_bits | mantissa);
    }
    return pattern;
}

// Fills `elements` 16-bit elements at `buffer` with random values of type `type_ab`, on `stream`.
void fill_random(const DriverApi &api, CUdeviceptr buffer, int64_t elements, int32_t type_ab, CUstream stream) {
    static const std::vector<uint16_t> f16 = make_pattern(kF16);
    static const std::vector<uint16_t> bf16 = make_pattern(kBF16);
    const std::vector<uint16_t> &pattern = type_ab == kBF16 ? bf16 : f16;
    for (int64_t offset = 0; offset < elements; offset += static_cast<int64_t>(kPatternElements)) {
        const size_t count = std::min(kPatternElements, static_cast<size_t>(elements - offset));
        check(api.cuMemcpyHtoDAsync(buffer + static_cast<CUdeviceptr>(offset) * sizeof(uint16_t), pattern.data(),
                                    count * sizeof(uint16_t), stream),
              "cuMemcpyHtoDAsync");
    }
}

// The PIPELINED configurations with a kernel for these input types and majors that the device can run.
std::vector<int> candidates(const Handle &handle, const GemmParams &params) {
    std::vector<int> configs;
    for (int config = 0; config < sm80::kTileConfigCount; ++config) {
        const int kernel = sm80::kernel_index(params.type_ab, config, params.a_k_major != 0, params.b_k_major != 0);
        if (sm80::kTileConfigs[config].stages >= 2 && kernel >= 0 &&
            handle.kernel_available(family_base(Family::Sm80) + static_cast<size_t>(kernel)))
            configs.push_back(config);
    }
    return configs;
}

// The SM90_TMA_WGMMA configurations with a kernel for these input types and majors that the device
// can run.
std::vector<int> sm90_candidates(const Handle &handle, const GemmParams &params) {
    std::vector<int> configs;
    for (int config = 0; config < sm90::kTileConfigCount; ++config) {
        const int kernel = sm90::kernel_index(params.type_ab, config, params.a_k_major != 0, params.b_k_major != 0);
        if (kernel >= 0 && handle.kernel_available(family_base(Family::Sm90) + static_cast<size_t>(kernel)))
            configs.push_back(config);
    }
    return configs;
}

// FNV-1a over every number of a family's configuration table: the cache names it in its header, so
// that winners tuned for another table are not trusted.
constexpr uint64_t sm80_fingerprint() {
    uint64_t hash = kFnvOffset;
    for (const sm80::TileConfig &c : sm80::kTileConfigs)
        hash = fnv1a(hash, {c.tile_m, c.tile_n, c.tile_k, c.warps_m, c.warps_n, c.stages, c.min_blocks_per_sm});
    return hash;
}
constexpr uint64_t sm90_fingerprint() {
    uint64_t hash = kFnvOffset;
    for (const sm90::TileConfig &c : sm90::kTileConfigs)
        hash = fnv1a(hash, {c.tile_m, c.tile_n, c.consumers_m, c.consumers_n, c.stages, c.groups_in_flight});
    return hash;
}

constexpr ConfigTable kSm80Table{sm80::kTileConfigCount, sm80_fingerprint(), "sm80"};
constexpr ConfigTable kSm90Table{sm90::kTileConfigCount, sm90_fingerprint(), "sm90"};

// One cache per GPU model (name and compute capability) and family, shared by every handle on such
// a GPU.
AutotuneCache &cache_for(const DeviceInfo &device, const ConfigTable &table) {
    static std::mutex mutex;
    // Never destroyed, like the driver: a handle may still be used while static objects are destroyed.
    static auto &caches = *new std::map<std::string, std::unique_ptr<AutotuneCache>>();
    const GpuIdentity gpu{device.name, device.cc_major, device.cc_minor};
    const std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<AutotuneCache> &cache = caches[std::string(table.family) + "/" + cache_header(gpu, table)];
    if (!cache) cache = std::make_unique<AutotuneCache>(default_cache_directory(), gpu, table);
    return *cache;
}

// x * y, refusing scratch sizes that do not fit 64 bits (no allocation could serve them anyway).
int64_t scratch_product(int64_t x, int64_t y) {
    int64_t product = 0;
    if (__builtin_mul_overflow(x, y, &product))
        fail(ASYNCGEMM_STATUS_OUT_OF_MEMORY, "autotune: scratch buffers larger than 2^63 bytes");
    return product;
}

// A timing event for the scope: cuEventCreate, cuEventDestroy.
class Event {
public:
    explicit Event(const DriverApi &api) : api_(api) { check(api.cuEventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate"); }
    ~Event() { api_.cuEventDestroy(event_); }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    CUevent get() const { return event_; }

private:
    const DriverApi &api_;
    CUevent event_ = nullptr;
};

// The problem timed in the caller's place: its extents, types, majors and broadcasts, on dense
// scratch operands whose rows are padded to whole 16-byte chunks (every candidate then copies with
// its widest vectors: the tiles are compared, not the fallback copies), alpha = 1 and no C.
struct ScratchProblem {
    GemmParams params;
    int64_t a_elements, b_elements, d_elements;
};

ScratchProblem scratch_problem(const GemmParams &problem) {
    // 8 16-bit elements: one 16-byte chunk.
    const auto padded = [](int64_t extent) { return (extent + 7) / 8 * 8; };
    ScratchProblem scratch{problem, 0, 0, 0};
    GemmParams &p = scratch.params;
    p.lda = padded(p.a_k_major ? p.k : p.m);
    p.stride_a = problem.stride_a == 0 ? 0 : scratch_product(p.a_k_major ? p.m : p.k, p.lda);
    p.ldb = padded(p.b_k_major ? p.k : p.n);
    p.stride_b = problem.stride_b == 0 ? 0 : scratch_product(p.b_k_major ? p.n : p.k, p.ldb);
    p.ldd = padded(p.n);
    p.stride_d = scratch_product(p.m, p.ldd);
    p.c = nullptr;
    p.ldc = p.ldd;
    p.stride_c = 0;
    p.alpha = 1.0f;
    p.beta = 0.0f;
    const auto elements = [&](int64_t stride, int64_t rows, int64_t ld) {
        return stride == 0 ? scratch_product(rows, ld) : scratch_product(stride, p.batch_count);
    };
    scratch.a_elements = elements(p.stride_a, p.a_k_major ? p.m : p.k, p.lda);
    scratch.b_elements = elements(p.stride_b, p.b_k_major ? p.n : p.k, p.ldb);
    scratch.d_elements = elements(p.stride_d, p.m, p.ldd);
    return scratch;
}

// Launches configuration `config` (with its heuristic split) of the family being tuned.
using LaunchConfig = std::function<void(const GemmParams &, int config, CUstream)>;

// The fastest of `configs` (two or more) for `problem`, timed on scratch buffers on `stream` in the
// handle's context.  Throws on any driver error; frees everything it allocated either way.
int fastest_config(const Handle &handle, const GemmParams &problem, const std::vector<int> &configs,
                   const LaunchConfig &launch_config, CUstream stream) {
    const DriverApi &api = driver();
    ContextScope scope(api, handle.context());
    ScratchProblem scratch = scratch_problem(problem);
    const int64_t d_element_bytes = problem.type_cd == kF32 ? 4 : 2;
    const DeviceBuffer a(api, scratch_product(scratch.a_elements, 2));
    const DeviceBuffer b(api, scratch_product(scratch.b_elements, 2));
    const DeviceBuffer d(api, scratch_product(scratch.d_elements, d_element_bytes));
    const StreamDrain drain(api, stream);
    const Event start(api), stop(api);

    fill_random(api, a.address(), scratch.a_elements, problem.type_ab, stream);
    fill_random(api, b.address(), scratch.b_elements, problem.type_ab, stream);
    GemmParams &params = scratch.params;
    params.a = a.pointer();
    params.b = b.pointer();
    params.d = d.pointer();

    const auto launch = [&](int config) { launch_config(params, config, stream); };
    for (const int config : configs) launch(config);
    std::vector<float> best(configs.size(), std::numeric_limits<float>::infinity());
    for (int sample = 0; sample < kSamples; ++sample) {
        for (size_t i = 0; i < configs.size(); ++i) {
            check(api.cuEventRecord(start.get(), stream), "cuEventRecord");
            for (int repeat = 0; repeat < kLaunchesPerSample; ++repeat) launch(configs[i]);
            check(api.cuEventRecord(stop.get(), stream), "cuEventRecord");
            check(api.cuEventSynchronize(stop.get()), "cuEventSynchronize");
            float milliseconds = 0.0f;
            check(api.cuEventElapsedTime(&milliseconds, start.get(), stop.get()), "cuEventElapsedTime");
            best[i] = std::min(best[i], milliseconds);
        }
    }
    if (verbose()) {
        for (size_t i = 0; i < configs.size(); ++i)
            fprintf(stderr, "asyncgemm: autotune %s: configuration %d %.4f ms\n", bucket_key(bucket_of(problem)).c_str(),
                    configs[i], best[i] / kLaunchesPerSample);
    }
    return configs[static_cast<size_t>(std::min_element(best.begin(), best.end()) - best.begin())];
}

// The bucket's configuration among `configs`: remembered, else timed now (outside a capture), else
// none (the caller's heuristic serves).
std::optional<int> tuned_config(const Handle &handle, const GemmParams &params, void *stream, const ConfigTable &table,
                                const std::vector<int> &configs, const LaunchConfig &launch) {
    if (!handle.autotune() || params.k == 0 || configs.size() < 2) return std::nullopt;
    try {
        AutotuneCache &cache = cache_for(handle.device(), table);
        const ShapeBucket bucket = bucket_of(params);
        const std::optional<int> known = cache.find(bucket);
        if (known && std::find(configs.begin(), configs.end(), *known) != configs.end()) return known;
        const auto cu_stream = static_cast<CUstream>(stream);
        if (!outside_capture(driver(), cu_stream)) return std::nullopt;
        const int winner = fastest_config(handle, params, configs, launch, cu_stream);
        cache.remember(bucket, winner);
        return winner;
    } catch (const std::exception &) {
        // Tuning only ever speeds a call up: whatever went wrong, the heuristic serves this one.
        return std::nullopt;
    }
}

}  // namespace

KernelChoice pipelined_config(const Handle &handle, const GemmParams &params, void *stream) {
    const sm80::Shape shape = sm80_shape(params);
    const int sm_count = handle.device().sm_count;
    const auto with_split = [&](int config) { return KernelChoice{config, sm80::splits_for(config, shape, sm_count)}; };
    // The scratch buffers hold 16-bit elements: f32 (tf32) problems are not timed.
    const std::vector<int> configs = params.type_ab == kF32 ? std::vector<int>{} : candidates(handle, params);
    const std::optional<int> tuned = tuned_config(
        handle, params, stream, kSm80Table, configs,
        [&](const GemmParams &p, int config, CUstream s) { launch_sm80_choice(handle, p, with_split(config), s); });
    return tuned ? with_split(*tuned) : sm80::choose_config(true, shape, sm80_limits(handle));
}

KernelChoice sm90_tuned_config(const Handle &handle, const GemmParams &params, void *stream) {
    const sm90::Shape shape{params.m, params.n, params.k, params.batch_count, has_block_scales(params)};
    const int sm_count = handle.device().sm_count;
    const auto with_split = [&](int config) {
        return KernelChoice{config, sm90::split_count(sm90::kTileConfigs[config], shape, sm_count)};
    };
    // The scratch buffers hold 16-bit elements: f32 (tf32) and 8-bit problems are not timed.
    const bool timed = params.type_ab == kF16 || params.type_ab == kBF16;
    const std::vector<int> configs = timed ? sm90_candidates(handle, params) : std::vector<int>{};
    const std::optional<int> tuned = tuned_config(
        handle, params, stream, kSm90Table, configs,
        [&](const GemmParams &p, int config, CUstream s) { launch_sm90_choice(handle, p, with_split(config), s); });
    return with_split(tuned ? *tuned : sm90::choose_config(shape, sm_count));
}

}  // namespace asyncgemm::plan
