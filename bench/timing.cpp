#include "timing.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "check.h"

namespace bench {

namespace {

// An H100 under sustained tensor-core load is held at its power limit, but for about the first 0.75 s
// after the GPU idles it runs 4-9% faster (bench/RESULTS.md).  Every row follows an
// idle GPU (the result check, or the workload's set-up before the cuBLAS row), so a short warm-up
// would time each row partly boosted, the first one most.  One second of warm-up gets every row
// past the boost, and one second of timed runs spans the power limiter's swing (about a second).
constexpr int kMinWarmupRuns = 5;
constexpr double kMinWarmupMs = 1000.0;
constexpr double kMinTimedMs = 1000.0;
// Caps the runs that kMinTimedMs asks of a microsecond launch; an explicit --runs may go past it.
constexpr int kMaxTimedRuns = 10000;

class Event {
public:
    Event() { check_cuda(cudaEventCreate(&event_), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;

    void record(cudaStream_t stream) { check_cuda(cudaEventRecord(event_, stream), "cudaEventRecord"); }
    void synchronize() { check_cuda(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
    bool done() const {
        const cudaError_t status = cudaEventQuery(event_);
        if (status == cudaErrorNotReady) return false;
        check_cuda(status, "cudaEventQuery");
        return true;
    }
    float ms_since(const Event &start) const {
        float ms = 0.0f;
        check_cuda(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
        return ms;
    }

private:
    cudaEvent_t event_ = nullptr;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

// How often the SM clock is read while the timed runs run.
constexpr auto kClockSamplePeriod = std::chrono::milliseconds(10);

// Burst mode (time_bursts): the warm-up and the timed rounds' least length, and a burst's most calls
// and work.  64 calls of a few launches each stay far inside a stream's queue, so queueing a burst
// never blocks the host while the gate holds the stream.
constexpr double kBurstWarmupMs = 500.0;
constexpr double kBurstTimedMs = 500.0;
constexpr int64_t kMaxBurstCalls = 64;
constexpr double kBurstWorkMs = 2.0;

// Holds a stream until the host opens it: close() queues a host function that waits for open().  If
// the host never opens it (a call that blocked while queueing, waiting on the held stream itself),
// the wait gives up after a second, so the benchmark is slow there, never hung; `timed_out` says so.
class Gate {
public:
    void close(cudaStream_t stream) {
        open_.store(false, std::memory_order_relaxed);
        check_cuda(cudaLaunchHostFunc(stream, &Gate::wait, this), "cudaLaunchHostFunc");
    }
    void open() { open_.store(true, std::memory_order_release); }
    bool timed_out() const { return timed_out_.load(std::memory_order_acquire); }

private:
    static void CUDART_CB wait(void *self) {
        Gate &gate = *static_cast<Gate *>(self);
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        while (!gate.open_.load(std::memory_order_acquire)) {
            if (std::chrono::steady_clock::now() > give_up) {
                gate.timed_out_.store(true, std::memory_order_release);
                return;
            }
            std::this_thread::yield();
        }
    }

    std::atomic<bool> open_{true};
    std::atomic<bool> timed_out_{false};
};

}  // namespace

Timing time_runs(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch,
                 const GpuMonitor *monitor) {
    int64_t run = 0;

    // Warm-up brings the clocks to their sustained state and lets both libraries finish any lazy
    // set-up; batches are timed as a whole only to learn how many runs the warm-up and the timed
    // second take.
    Event batch_start, batch_end;
    double warmup_ms = 0.0;
    int64_t warmup_runs = 0;
    int64_t batch = kMinWarmupRuns;
    while (true) {
        batch_start.record(stream);
        for (int64_t i = 0; i < batch; ++i) launch(run++);
        batch_end.record(stream);
        batch_end.synchronize();
        warmup_ms += batch_end.ms_since(batch_start);
        warmup_runs += batch;
        if (warmup_ms >= kMinWarmupMs) break;
        const double ms_per_run = std::max(warmup_ms / double(warmup_runs), 1e-3);
        batch = std::clamp<int64_t>(std::ceil((kMinWarmupMs - warmup_ms) / ms_per_run), 1, kMaxTimedRuns);
    }

    const double ms_per_run = std::max(warmup_ms / double(warmup_runs), 1e-3);
    const int64_t runs_for_time = std::min<int64_t>(std::ceil(kMinTimedMs / ms_per_run), kMaxTimedRuns);
    const int64_t runs = std::max<int64_t>(min_runs, runs_for_time);

    std::vector<Event> starts(runs), ends(runs);
    const GpuSample before = monitor ? monitor->sample() : GpuSample{};
    for (int64_t i = 0; i < runs; ++i) {
        starts[i].record(stream);
        launch(run++);
        ends[i].record(stream);
    }
    Timing timing;
    if (monitor) {
        double mhz_sum = 0.0;
        int mhz_samples = 0;
        do {
            if (const std::optional<unsigned> mhz = monitor->sm_mhz()) mhz_sum += *mhz, ++mhz_samples;
            std::this_thread::sleep_for(kClockSamplePeriod);
        } while (!ends.back().done());
        const GpuSample after = monitor->sample();
        if (mhz_samples > 0) timing.sm_mhz = mhz_sum / mhz_samples;
        if (before.energy_mj && after.energy_mj)
            timing.mj_per_run = double(*after.energy_mj - *before.energy_mj) / double(runs);
        if (after.temperature_c) timing.temperature_c = *after.temperature_c;
    }
    ends.back().synchronize();

    std::vector<double> times(runs);
    for (int64_t i = 0; i < runs; ++i) times[i] = ends[i].ms_since(starts[i]);
    timing.median_ms = median(times);
    return timing;
}

double median_ms(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch) {
    return time_runs(stream, min_runs, launch, nullptr).median_ms;
}

namespace {

// Warm-up of the contenders in turn, each call timed from the host's side, and the burst each gets:
// as many calls as make kBurstWorkMs of work, at most kMaxBurstCalls.  runs[i] counts contender i's
// runs so far.
std::vector<int64_t> warm_up(cudaStream_t stream, const std::vector<std::function<void(int64_t run)>> &launches,
                             std::vector<int64_t> &runs) {
    const std::size_t contenders = launches.size();
    std::vector<double> warmup_ms(contenders, 0.0);
    Event batch_start, batch_end;
    double total_ms = 0.0;
    while (total_ms < kBurstWarmupMs) {
        for (std::size_t i = 0; i < contenders; ++i) {
            const int64_t batch = runs[i] < kMinWarmupRuns ? kMinWarmupRuns : std::max<int64_t>(1, runs[i] / 2);
            batch_start.record(stream);
            for (int64_t j = 0; j < batch; ++j) launches[i](runs[i]++);
            batch_end.record(stream);
            batch_end.synchronize();
            const double ms = batch_end.ms_since(batch_start);
            warmup_ms[i] += ms;
            total_ms += ms;
        }
    }
    std::vector<int64_t> burst(contenders);
    for (std::size_t i = 0; i < contenders; ++i) {
        const double ms_per_call = std::max(warmup_ms[i] / double(runs[i]), 1e-4);
        burst[i] = std::clamp<int64_t>(int64_t(kBurstWorkMs / ms_per_call), 1, kMaxBurstCalls);
    }
    return burst;
}

// Rounds of one burst per contender, at least min_bursts rounds and kBurstTimedMs: hold() before
// the start event, enqueue(i) queues contender i's burst, release() after the end event.  Per call
// is the burst's time over `burst[i]`.
std::vector<Timing> timed_rounds(cudaStream_t stream, int min_bursts, const std::vector<int64_t> &burst,
                                 const std::function<void()> &hold,
                                 const std::function<void(std::size_t contender)> &enqueue,
                                 const std::function<void()> &release, const GpuMonitor *monitor) {
    const std::size_t contenders = burst.size();
    std::vector<std::vector<double>> per_call(contenders);
    double mhz_sum = 0.0;
    int mhz_samples = 0;
    double timed_ms = 0.0;
    Event start, end;
    for (int round = 0; round < min_bursts || timed_ms < kBurstTimedMs; ++round) {
        for (std::size_t i = 0; i < contenders; ++i) {
            hold();
            start.record(stream);
            enqueue(i);
            end.record(stream);
            release();
            end.synchronize();
            const double ms = end.ms_since(start);
            per_call[i].push_back(ms / double(burst[i]));
            timed_ms += ms;
        }
        if (monitor)
            if (const std::optional<unsigned> mhz = monitor->sm_mhz()) mhz_sum += *mhz, ++mhz_samples;
    }
    std::vector<Timing> timings(contenders);
    const GpuSample after = monitor ? monitor->sample() : GpuSample{};
    for (std::size_t i = 0; i < contenders; ++i) {
        timings[i].median_ms = median(per_call[i]);
        if (mhz_samples > 0) timings[i].sm_mhz = mhz_sum / mhz_samples;
        if (after.temperature_c) timings[i].temperature_c = *after.temperature_c;
    }
    return timings;
}

class Graph {
public:
    ~Graph() {
        if (exec_) cudaGraphExecDestroy(exec_);
        if (graph_) cudaGraphDestroy(graph_);
    }
    // Captures what `enqueue` puts on `stream`.
    void capture(cudaStream_t stream, const std::function<void()> &enqueue) {
        check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        try {
            enqueue();
        } catch (...) {
            cudaGraph_t abandoned = nullptr;
            cudaStreamEndCapture(stream, &abandoned);
            if (abandoned) cudaGraphDestroy(abandoned);
            throw;
        }
        check_cuda(cudaStreamEndCapture(stream, &graph_), "cudaStreamEndCapture");
        check_cuda(cudaGraphInstantiate(&exec_, graph_, 0), "cudaGraphInstantiate");
    }
    void launch(cudaStream_t stream) const { check_cuda(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch"); }

private:
    cudaGraph_t graph_ = nullptr;
    cudaGraphExec_t exec_ = nullptr;
};

}  // namespace

std::vector<Timing> time_bursts(cudaStream_t stream, int min_bursts,
                                const std::vector<std::function<void(int64_t run)>> &launches,
                                const GpuMonitor *monitor) {
    if (launches.empty()) return {};
    std::vector<int64_t> runs(launches.size(), 0);
    const std::vector<int64_t> burst = warm_up(stream, launches, runs);
    Gate gate;
    std::vector<Timing> timings = timed_rounds(
        stream, min_bursts, burst, [&] { gate.close(stream); },
        [&](std::size_t i) {
            for (int64_t j = 0; j < burst[i]; ++j) launches[i](runs[i]++);
        },
        [&] { gate.open(); }, monitor);
    if (gate.timed_out())
        throw BenchError("a burst's calls blocked the host while the stream was held; time this workload with "
                         "--timing events");
    return timings;
}

std::vector<Timing> time_graphs(cudaStream_t stream, int min_bursts,
                                const std::vector<std::function<void(int64_t run)>> &launches,
                                const GpuMonitor *monitor) {
    if (launches.empty()) return {};
    std::vector<int64_t> runs(launches.size(), 0);
    const std::vector<int64_t> burst = warm_up(stream, launches, runs);
    std::vector<Graph> graphs(launches.size());
    for (std::size_t i = 0; i < launches.size(); ++i)
        graphs[i].capture(stream, [&] {
            for (int64_t j = 0; j < burst[i]; ++j) launches[i](runs[i]++);
        });
    return timed_rounds(
        stream, min_bursts, burst, [] {}, [&](std::size_t i) { graphs[i].launch(stream); }, [] {}, monitor);
}

}  // namespace bench
