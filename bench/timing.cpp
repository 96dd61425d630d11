#include "timing.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "check.h"

namespace bench {

namespace {

constexpr int kMinWarmupRuns = 5;
constexpr double kMinWarmupMs = 50.0;
constexpr double kMinTimedMs = 200.0;
// Caps the runs that kMinTimedMs asks of a microsecond launch; an explicit --runs may go past it.
constexpr int kMaxTimedRuns = 10000;
// Shares in which interleaved launches take turns (interleaved_median_ms).
constexpr int kRounds = 10;

class Event {
public:
    Event() { check_cuda(cudaEventCreate(&event_), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;

    void record(cudaStream_t stream) { check_cuda(cudaEventRecord(event_, stream), "cudaEventRecord"); }
    void synchronize() { check_cuda(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
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

// Warm-up brings the clocks up and lets both libraries finish any lazy set-up; batches are timed as a
// whole only to learn how many runs 50 ms and then 200 ms take.  Returns the runs the launch should
// then time.
int64_t warm_up(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch, int64_t &run) {
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
    return std::max<int64_t>(min_runs, runs_for_time);
}

}  // namespace

std::vector<double> interleaved_median_ms(cudaStream_t stream, int min_runs,
                                          const std::vector<std::function<void(int64_t run)>> &launches) {
    const std::size_t count = launches.size();
    std::vector<int64_t> next_run(count, 0), runs(count);
    for (std::size_t i = 0; i < count; ++i) runs[i] = warm_up(stream, min_runs, launches[i], next_run[i]);

    // Each launch's runs in kRounds nearly equal shares, the launches taking turns share by share, all
    // enqueued before the one synchronization at the end so that the GPU never waits for the host.
    // Each round starts one launch further on, so every launch follows every other one as often: a
    // launch that draws less power leaves the clock higher for whichever share comes next.
    std::vector<std::vector<Event>> starts(count), ends(count);
    for (std::size_t i = 0; i < count; ++i) {
        starts[i] = std::vector<Event>(runs[i]);
        ends[i] = std::vector<Event>(runs[i]);
    }
    std::vector<int64_t> timed(count, 0);
    for (int round = 1; round <= kRounds; ++round) {
        for (std::size_t turn = 0; turn < count; ++turn) {
            const std::size_t i = (turn + std::size_t(round)) % count;
            for (const int64_t share_end = runs[i] * round / kRounds; timed[i] < share_end; ++timed[i]) {
                starts[i][timed[i]].record(stream);
                launches[i](next_run[i]++);
                ends[i][timed[i]].record(stream);
            }
        }
    }
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");

    std::vector<double> medians(count);
    for (std::size_t i = 0; i < count; ++i) {
        std::vector<double> times(runs[i]);
        for (int64_t r = 0; r < runs[i]; ++r) times[r] = ends[i][r].ms_since(starts[i][r]);
        medians[i] = median(times);
    }
    return medians;
}

double median_ms(cudaStream_t stream, int min_runs, const std::function<void(int64_t run)> &launch) {
    return interleaved_median_ms(stream, min_runs, {launch}).front();
}

}  // namespace bench
