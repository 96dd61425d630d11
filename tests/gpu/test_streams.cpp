// Streams, threads, graphs and contexts: one handle used by two threads on their own streams at once;
// a GEMM and a copy captured into a CUDA graph and replayed on new inputs; a workspace of the
// caller's, with which a captured call splits as an eager one; GEMMs queued back to back, each reading
// what the one before wrote, and a GEMM behind a kernel that lets it start early; and a stream of
// another context, which the handle must refuse.
#include <doctest/doctest.h>

#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include "copy_problem.h"
#include "device_buffer.h"
#include "elements.h"
#include "gemm_problem.h"
#include "matrix_layout.h"
#include "test_env.h"

using namespace agtest;

namespace {

// One thread's share of the concurrency test: GEMMs over every available algorithm and copies, random
// shapes and types, each checked.  Returns the failures rather than asserting, so that doctest's
// reporting stays on the main thread.
std::vector<std::string> mixed_work(int thread, int calls) {
    std::vector<std::string> failures;
    try {
        Stream stream;
        Rng rng = rng_for(("threads " + std::to_string(thread)).c_str());
        const std::vector<asyncgemm_algo_t> algos = available_gemm_algos(test_env().handle);
        for (int i = 0; i < calls; ++i) {
            bool refused = false;
            std::string failure;
            if (i % 3 == 2) {
                CopyCase c = random_copy_case(rng, 256);
                c.dtype = pick(rng, kDtypes);
                c.order = pick(rng, kOrders);
                c.op = pick(rng, kOps);
                c.alpha = chance(rng, 0.5) ? 1.0f : 0.5f;
                failure = run_copy(test_env().handle, c, rng, stream.get(), &refused);
            } else {
                GemmCase c = random_gemm_case(rng, 160);
                // Every fourth GEMM has one or two output tiles and a long K: PIPELINED splits it,
                // so both threads share the handle's split-K workspace.
                if (i % 4 == 0) {
                    c.batch_count = 1;
                    c.k = 1024 + static_cast<int64_t>(i);
                }
                c.algo = algos[static_cast<size_t>(i) % algos.size()];
                c.type_ab = pick(rng, kDtypes);
                c.type_cd = pick(rng, kDtypes);
                c.order = pick(rng, kOrders);
                c.op_a = pick(rng, kOps);
                c.op_b = pick(rng, kOps);
                failure = run_gemm(test_env().handle, c, rng, stream.get(), ASYNCGEMM_MATH_DEFAULT, &refused);
            }
            if (!failure.empty()) failures.push_back("thread " + std::to_string(thread) + ": " + failure);
        }
    } catch (const std::exception &error) {
        failures.push_back("thread " + std::to_string(thread) + ": " + error.what());
    }
    return failures;
}

// The driver entry points this file needs, through the runtime: the tests never link libcuda.
template <class Function>
Function driver_entry_point(const char *symbol, unsigned int version) {
    void *function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t result =
        cudaGetDriverEntryPointByVersion(symbol, &function, version, cudaEnableDefault, &found);
    return result == cudaSuccess && found == cudaDriverEntryPointSuccess ? reinterpret_cast<Function>(function)
                                                                         : nullptr;
}

// A second context on device 0 (not its primary context) with a stream of its own.  The context
// current on this thread before is current again afterwards.
class ForeignContext {
public:
    ForeignContext() {
        cuCtxCreate_ = driver_entry_point<PFN_cuCtxCreate_v12050>("cuCtxCreate", 12050);
        cuCtxPopCurrent_ = driver_entry_point<PFN_cuCtxPopCurrent_v4000>("cuCtxPopCurrent", 4000);
        cuCtxDestroy_ = driver_entry_point<PFN_cuCtxDestroy_v4000>("cuCtxDestroy", 4000);
        cuStreamCreate_ = driver_entry_point<PFN_cuStreamCreate_v2000>("cuStreamCreate", 2000);
        cuStreamSynchronize_ = driver_entry_point<PFN_cuStreamSynchronize_v2000>("cuStreamSynchronize", 2000);
        const auto cuDeviceGet = driver_entry_point<PFN_cuDeviceGet_v2000>("cuDeviceGet", 2000);
        if (!cuCtxCreate_ || !cuCtxPopCurrent_ || !cuCtxDestroy_ || !cuStreamCreate_ || !cuStreamSynchronize_ ||
            !cuDeviceGet) {
            why_not_ = "a driver entry point is missing";
            return;
        }
        CUdevice device = 0;
        if (cuDeviceGet(&device, 0) != CUDA_SUCCESS || cuCtxCreate_(&context_, nullptr, 0, device) != CUDA_SUCCESS) {
            why_not_ = "cuCtxCreate failed (exclusive compute mode or MPS?)";
            context_ = nullptr;
            return;
        }
        const bool streamed = cuStreamCreate_(&stream_, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS;
        CUcontext popped = nullptr;
        cuCtxPopCurrent_(&popped);
        if (!streamed) why_not_ = "cuStreamCreate failed in the new context";
    }
    ~ForeignContext() {
        if (context_) cuCtxDestroy_(context_);  // destroys its stream too
    }
    ForeignContext(const ForeignContext &) = delete;
    ForeignContext &operator=(const ForeignContext &) = delete;

    // "" once the context and its stream exist, else why not.
    const std::string &why_not() const { return why_not_; }
    cudaStream_t stream() const { return stream_; }  // CUstream and cudaStream_t are one type
    void synchronize() const { cuStreamSynchronize_(stream_); }

private:
    PFN_cuCtxCreate_v12050 cuCtxCreate_ = nullptr;
    PFN_cuCtxPopCurrent_v4000 cuCtxPopCurrent_ = nullptr;
    PFN_cuCtxDestroy_v4000 cuCtxDestroy_ = nullptr;
    PFN_cuStreamCreate_v2000 cuStreamCreate_ = nullptr;
    PFN_cuStreamSynchronize_v2000 cuStreamSynchronize_ = nullptr;
    CUcontext context_ = nullptr;
    CUstream stream_ = nullptr;
    std::string why_not_;
};

// An instantiated graph, destroyed with its owner.
struct GraphExec {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ~GraphExec() {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
    }
};

// Two output tiles and a long K, f16 with C: split wherever the family splits.
GemmCase few_tiles_long_k() {
    GemmCase c;
    c.type_ab = c.type_cd = ASYNCGEMM_R_16F;
    c.op_b = ASYNCGEMM_OP_T;
    c.m = 128, c.n = 256, c.k = 8192;
    c.aligned16 = true;
    c.c_source = CSource::Buffer;
    c.beta = 0.5f;
    return c;
}

// Captures the problem's call on `stream` into `graph` (global mode: a call the library made that
// may not be captured would invalidate the capture) and instantiates it.
void capture_gemm(GraphExec &graph, const GemmProblem &problem, asyncgemm_handle_t handle, cudaStream_t stream) {
    REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
    const asyncgemm_status_t captured = problem.launch(handle, stream);
    const std::string message = asyncgemm_last_error();
    REQUIRE(cudaStreamEndCapture(stream, &graph.graph) == cudaSuccess);
    REQUIRE_MESSAGE(captured == ASYNCGEMM_STATUS_SUCCESS, message);
    REQUIRE(cudaGraphInstantiate(&graph.exec, graph.graph, 0) == cudaSuccess);
}

// A workspace of the test's own, lent to a handle for the scope and given back however the scope ends
// (every queued use of it awaited first), so that no later test's call splits into freed memory.
class LentWorkspace {
public:
    LentWorkspace(asyncgemm_handle_t handle, size_t bytes) : handle_(handle), buffer_(bytes) { lend(bytes); }
    ~LentWorkspace() {
        cudaDeviceSynchronize();
        asyncgemm_set_workspace(handle_, nullptr, 0);
    }
    LentWorkspace(const LentWorkspace &) = delete;
    LentWorkspace &operator=(const LentWorkspace &) = delete;

    // Lends the first `bytes` of the buffer instead.
    void lend(size_t bytes) {
        REQUIRE(asyncgemm_set_workspace(handle_, buffer_.get(), bytes) == ASYNCGEMM_STATUS_SUCCESS);
    }

private:
    asyncgemm_handle_t handle_;
    DeviceBuffer buffer_;
};

// A handle of the test's own, destroyed with its owner.
struct OwnedHandle {
    asyncgemm_handle_t handle = nullptr;
    OwnedHandle() { REQUIRE(asyncgemm_create(&handle) == ASYNCGEMM_STATUS_SUCCESS); }
    ~OwnedHandle() { asyncgemm_destroy(handle); }
    OwnedHandle(const OwnedHandle &) = delete;
    OwnedHandle &operator=(const OwnedHandle &) = delete;
};

// A refusal these tests expect of a named algorithm: NOT_SUPPORTED (e.g. SM100 without its
// self-check) and MISALIGNED (SM90_TMA_WGMMA over rows TMA cannot describe).  AUTO refuses nothing.
bool refused_as_forced(asyncgemm_status_t status, asyncgemm_algo_t algo) {
    return algo != ASYNCGEMM_ALGO_AUTO &&
           (status == ASYNCGEMM_STATUS_NOT_SUPPORTED || status == ASYNCGEMM_STATUS_MISALIGNED);
}

// Row-major bf16 A (m x k) and B (k x n) of integers from -2 to 2, on the host and the device, and
// their exact product (f32 holds every sum the tests reach: |A·B| <= 4k).
struct ProductShape {
    int64_t m, n, k;
};

struct IntegerProduct {
    int64_t m, n, k;
    HostArray a, b;
    DeviceBuffer a_dev, b_dev;

    IntegerProduct(const ProductShape &shape, Rng &rng, cudaStream_t stream)
        : m(shape.m), n(shape.n), k(shape.k), a(ASYNCGEMM_R_16BF, static_cast<size_t>(m * k)),
          b(ASYNCGEMM_R_16BF, static_cast<size_t>(k * n)), a_dev(a.bytes()), b_dev(b.bytes()) {
        for (size_t i = 0; i < a.count(); ++i) a.set(i, static_cast<float>(uniform(rng, -2, 2)));
        for (size_t i = 0; i < b.count(); ++i) b.set(i, static_cast<float>(uniform(rng, -2, 2)));
        a_dev.upload(a.data(), stream);
        b_dev.upload(b.data(), stream);
    }

    // (A·B)[i][j], exactly.
    double at(int64_t i, int64_t j) const {
        double sum = 0.0;
        for (int64_t p = 0; p < k; ++p)
            sum += a.value(static_cast<size_t>(i * k + p)) * b.value(static_cast<size_t>(p * n + j));
        return sum;
    }

    // The elements of row-major f32 D (m x n, at d_dev), every step_i-th row and step_j-th column,
    // that differ from want(i, j), after the work on `stream`; `first` describes the first of them.
    template <class Want>
    int64_t count_wrong(const DeviceBuffer &d_dev, int64_t step_i, int64_t step_j, Want &&want, cudaStream_t stream,
                        std::string &first) const {
        HostArray d(ASYNCGEMM_R_32F, static_cast<size_t>(m * n));
        d_dev.download(d.data(), stream);
        int64_t wrong = 0;
        for (int64_t i = 0; i < m; i += step_i)
            for (int64_t j = 0; j < n; j += step_j) {
                const double got = d.value(static_cast<size_t>(i * n + j));
                if (got != want(i, j) && wrong++ == 0)
                    first = "D[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + std::to_string(got) +
                            ", not " + std::to_string(want(i, j));
            }
        return wrong;
    }

    // Row-major D = A·B + beta * C, f32 C and D (C may be D), by `algo` on `stream`.
    asyncgemm_status_t launch(asyncgemm_handle_t handle, float beta, const void *c, void *d, asyncgemm_algo_t algo,
                              cudaStream_t stream) const {
        return asyncgemm_gemm(handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N, m, n, k, 1.0f,
                              a_dev.get(), ASYNCGEMM_R_16BF, k, b_dev.get(), ASYNCGEMM_R_16BF, n, beta, c,
                              ASYNCGEMM_R_32F, n, d, ASYNCGEMM_R_32F, n, algo, stream);
    }
};

// A kernel that lets the next launch in its stream start at once (griddepcontrol.launch_dependents)
// and only then, after spinning for a while, writes its output: what a user's kernel built for
// programmatic dependent launch may do before one of ours.  Loaded from PTX through the driver, so
// the tests need no CUDA compiler; sm_90 and later only.
constexpr const char *kLateFillPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry late_fill(.param .u64 dst, .param .u64 count, .param .f32 value, .param .u64 wait_ns)
{
    .reg .pred %p<3>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<12>;
    .reg .f32 %f<2>;
    griddepcontrol.launch_dependents;
    ld.param.u64 %rd1, [dst];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u64 %rd2, [count];
    ld.param.f32 %f1, [value];
    ld.param.u64 %rd3, [wait_ns];
    mov.u64 %rd4, %globaltimer;
$Lspin:
    mov.u64 %rd5, %globaltimer;
    sub.u64 %rd6, %rd5, %rd4;
    setp.lt.u64 %p1, %rd6, %rd3;
    @%p1 bra $Lspin;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %nctaid.x;
    mul.wide.u32 %rd7, %r1, %r2;
    cvt.u64.u32 %rd8, %r3;
    add.u64 %rd7, %rd7, %rd8;
    mul.wide.u32 %rd9, %r4, %r2;
$Lfill:
    setp.ge.u64 %p2, %rd7, %rd2;
    @%p2 bra $Ldone;
    shl.b64 %rd10, %rd7, 2;
    add.u64 %rd11, %rd1, %rd10;
    st.global.f32 [%rd11], %f1;
    add.u64 %rd7, %rd7, %rd9;
    bra.uni $Lfill;
$Ldone:
    ret;
}
)";

class LateFill {
public:
    LateFill() {
        int device = 0, major = 0;
        cuda_check(cudaGetDevice(&device), "cudaGetDevice");
        cuda_check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "compute capability");
        if (major < 9) {
            why_not_ = "programmatic dependent launch needs sm_90 or later";
            return;
        }
        load_ = driver_entry_point<PFN_cuModuleLoadData_v2000>("cuModuleLoadData", 2000);
        unload_ = driver_entry_point<PFN_cuModuleUnload_v2000>("cuModuleUnload", 2000);
        get_function_ = driver_entry_point<PFN_cuModuleGetFunction_v2000>("cuModuleGetFunction", 2000);
        launch_ = driver_entry_point<PFN_cuLaunchKernel_v4000>("cuLaunchKernel", 4000);
        if (!load_ || !unload_ || !get_function_ || !launch_) {
            why_not_ = "a driver entry point is missing";
            return;
        }
        cuda_check(cudaFree(nullptr), "the runtime's context");  // current on this thread for the driver
        if (load_(&module_, kLateFillPtx) != CUDA_SUCCESS ||
            get_function_(&function_, module_, "late_fill") != CUDA_SUCCESS)
            why_not_ = "the late-fill kernel did not load";
    }
    ~LateFill() {
        if (module_) unload_(module_);
    }
    LateFill(const LateFill &) = delete;
    LateFill &operator=(const LateFill &) = delete;

    // "" once the kernel is loaded, else why not.
    const std::string &why_not() const { return why_not_; }

    // Queues the kernel on `stream`: eight blocks, which let the next launch start, spin for wait_ns
    // and then write `value` to the `count` floats at `dst`.
    void launch(void *dst, uint64_t count, float value, uint64_t wait_ns, cudaStream_t stream) const {
        CUdeviceptr address = reinterpret_cast<CUdeviceptr>(dst);
        void *params[] = {&address, &count, &value, &wait_ns};
        REQUIRE(launch_(function_, 8, 1, 1, 256, 1, 1, 0, stream, params, nullptr) == CUDA_SUCCESS);
    }

private:
    PFN_cuModuleLoadData_v2000 load_ = nullptr;
    PFN_cuModuleUnload_v2000 unload_ = nullptr;
    PFN_cuModuleGetFunction_v2000 get_function_ = nullptr;
    PFN_cuLaunchKernel_v4000 launch_ = nullptr;
    CUmodule module_ = nullptr;
    CUfunction function_ = nullptr;
    std::string why_not_;
};

}  // namespace

TEST_SUITE("streams") {

TEST_CASE("two threads on their own streams share one handle") {
    constexpr int kCallsPerThread = 30;
    std::vector<std::string> failures[2];
    std::thread first([&] { failures[0] = mixed_work(0, kCallsPerThread); });
    std::thread second([&] { failures[1] = mixed_work(1, kCallsPerThread); });
    first.join();
    second.join();
    for (const auto &thread_failures : failures)
        for (const std::string &failure : thread_failures) CHECK(failure == "");
}

TEST_CASE("a GEMM and a copy captured into a CUDA graph replay on new inputs") {
    Rng rng = rng_for("graph");
    Stream stream;
    GemmCase gemm_case;
    gemm_case.type_ab = ASYNCGEMM_R_16F;
    gemm_case.op_b = ASYNCGEMM_OP_T;
    gemm_case.m = 129;
    gemm_case.n = 65;
    gemm_case.k = 77;
    gemm_case.batch_count = 2;
    gemm_case.batched_api = true;
    gemm_case.c_source = CSource::Buffer;
    gemm_case.beta = 0.5f;
    CopyCase copy_case;
    copy_case.op = ASYNCGEMM_OP_T;
    copy_case.rows = 100;
    copy_case.cols = 77;
    copy_case.alpha = 0.5f;
    // One tile and a long K, which PIPELINED splits outside a capture: inside, it must run unsplit.
    GemmCase split_case = gemm_case;
    split_case.algo = ASYNCGEMM_ALGO_PIPELINED;
    split_case.m = 70;
    split_case.n = 90;
    split_case.k = 2048;
    split_case.batch_count = 1;
    // Rows off 16 bytes, large enough that AUTO on Hopper copies them for its family when it runs
    // eagerly: inside a capture the handle's workspace holds no copies, so it must run without them.
    GemmCase unaligned_case;
    unaligned_case.type_ab = unaligned_case.type_cd = ASYNCGEMM_R_16F;
    unaligned_case.m = 1200, unaligned_case.n = 1400, unaligned_case.k = 1040;
    unaligned_case.lda_pad = 1, unaligned_case.ldb_pad = 3, unaligned_case.ldd_pad = 1;
    int available = 0;
    REQUIRE(asyncgemm_algo_available(test_env().handle, ASYNCGEMM_ALGO_PIPELINED, &available) ==
            ASYNCGEMM_STATUS_SUCCESS);
    const bool pipelined = available == 1;
    GemmProblem gemm(gemm_case);
    GemmProblem split(split_case);
    GemmProblem unaligned(unaligned_case);
    CopyProblem copy(copy_case);
    gemm.fill(rng, stream.get());
    split.fill(rng, stream.get());
    unaligned.fill(rng, stream.get());
    copy.fill(rng, stream.get());

    // Global mode: any call the library made that may not be captured (an allocation, a
    // synchronisation, a module load) would invalidate the capture.
    GraphExec graph;
    REQUIRE(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal) == cudaSuccess);
    const asyncgemm_status_t gemm_status = gemm.launch(test_env().handle, stream.get());
    const std::string gemm_message = asyncgemm_last_error();
    const asyncgemm_status_t copy_status = copy.launch(test_env().handle, stream.get());
    const std::string copy_message = asyncgemm_last_error();
    const asyncgemm_status_t split_status =
        pipelined ? split.launch(test_env().handle, stream.get()) : ASYNCGEMM_STATUS_SUCCESS;
    const std::string split_message = asyncgemm_last_error();
    const asyncgemm_status_t unaligned_status = unaligned.launch(test_env().handle, stream.get());
    const std::string unaligned_message = asyncgemm_last_error();
    const cudaError_t captured = cudaStreamEndCapture(stream.get(), &graph.graph);
    REQUIRE_MESSAGE(gemm_status == ASYNCGEMM_STATUS_SUCCESS, gemm_message);
    REQUIRE_MESSAGE(split_status == ASYNCGEMM_STATUS_SUCCESS, split_message);
    REQUIRE_MESSAGE(unaligned_status == ASYNCGEMM_STATUS_SUCCESS, unaligned_message);
    REQUIRE_MESSAGE(copy_status == ASYNCGEMM_STATUS_SUCCESS, copy_message);
    REQUIRE_MESSAGE(captured == cudaSuccess, std::string(cudaGetErrorName(captured)));
    REQUIRE(cudaGraphInstantiate(&graph.exec, graph.graph, 0) == cudaSuccess);

    for (int replay = 0; replay < 3; ++replay) {
        INFO("replay " << replay);
        gemm.fill(rng, stream.get());
        split.fill(rng, stream.get());
        unaligned.fill(rng, stream.get());
        copy.fill(rng, stream.get());
        REQUIRE(cudaGraphLaunch(graph.exec, stream.get()) == cudaSuccess);
        CHECK(gemm.verify(stream.get(), ASYNCGEMM_MATH_DEFAULT) == "");
        if (pipelined) CHECK(split.verify(stream.get(), ASYNCGEMM_MATH_DEFAULT) == "");
        CHECK(unaligned.verify(stream.get(), ASYNCGEMM_MATH_DEFAULT) == "");
        CHECK(copy.verify(stream.get()) == "");
    }
}

TEST_CASE("asyncgemm_set_workspace refuses memory it cannot use, by name") {
    asyncgemm_handle_t handle = test_env().handle;
    DeviceBuffer workspace(ASYNCGEMM_WORKSPACE_MIN_BYTES + 256);
    CHECK(asyncgemm_set_workspace(nullptr, workspace.get(), ASYNCGEMM_WORKSPACE_MIN_BYTES) ==
          ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"handle"}) == "");
    CHECK(asyncgemm_set_workspace(handle, nullptr, 4096) == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"workspace"}) == "");
    CHECK(asyncgemm_set_workspace(handle, workspace.get(), ASYNCGEMM_WORKSPACE_MIN_BYTES - 1) ==
          ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"bytes"}) == "");
    CHECK(asyncgemm_set_workspace(handle, workspace.get() + 16, ASYNCGEMM_WORKSPACE_MIN_BYTES) ==
          ASYNCGEMM_STATUS_MISALIGNED);
    CHECK(check_last_error({"workspace"}) == "");
    std::vector<unsigned char> host(ASYNCGEMM_WORKSPACE_MIN_BYTES + 256);
    void *host_aligned = reinterpret_cast<void *>((reinterpret_cast<uintptr_t>(host.data()) + 255) / 256 * 256);
    CHECK(asyncgemm_set_workspace(handle, host_aligned, ASYNCGEMM_WORKSPACE_MIN_BYTES) ==
          ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"workspace"}) == "");
    CHECK(asyncgemm_set_workspace(handle, workspace.get(), ASYNCGEMM_WORKSPACE_MIN_BYTES) == ASYNCGEMM_STATUS_SUCCESS);
    CHECK(asyncgemm_set_workspace(handle, nullptr, 0) == ASYNCGEMM_STATUS_SUCCESS);
}

TEST_CASE("with a workspace of the caller's, a captured call splits K as the eager one: the same bits") {
    Rng rng = rng_for("workspace graph");
    Stream stream;
    asyncgemm_handle_t handle = test_env().handle;
    LentWorkspace workspace(handle, ASYNCGEMM_WORKSPACE_RECOMMENDED_BYTES);
    for (asyncgemm_algo_t algo : available_gemm_algos(handle)) {
        if (algo == ASYNCGEMM_ALGO_ASYNC_COPY) continue;  // it never splits
        INFO("algorithm " << algo_name(algo));
        GemmCase c = few_tiles_long_k();
        c.algo = algo;
        GemmProblem problem(c);
        problem.fill(rng, stream.get());
        const asyncgemm_status_t eager = problem.launch(handle, stream.get());
        if (eager == ASYNCGEMM_STATUS_NOT_SUPPORTED) continue;  // e.g. SM100 without its self-check
        REQUIRE_MESSAGE(eager == ASYNCGEMM_STATUS_SUCCESS, asyncgemm_last_error());
        CHECK(problem.verify(stream.get(), ASYNCGEMM_MATH_DEFAULT) == "");
        const std::vector<unsigned char> eager_bits = problem.d_bytes(stream.get());

        GraphExec graph;
        capture_gemm(graph, problem, handle, stream.get());
        for (int replay = 0; replay < 2; ++replay) {
            REQUIRE(cudaGraphLaunch(graph.exec, stream.get()) == cudaSuccess);
            CHECK(problem.d_bytes(stream.get()) == eager_bits);
        }
    }
    // Too small for the partials: the call runs unsplit, and is still right.
    workspace.lend(ASYNCGEMM_WORKSPACE_MIN_BYTES);
    GemmCase small;
    small.type_ab = small.type_cd = ASYNCGEMM_R_16BF;
    small.m = 70, small.n = 90, small.k = 4096;
    bool refused = false;
    CHECK(run_gemm(handle, small, rng, stream.get(), ASYNCGEMM_MATH_DEFAULT, &refused) == "");
    CHECK_FALSE(refused);
}

TEST_CASE("a graph replayed beside another stream's calls, each handle with its own workspace: the eager bits") {
    // asyncgemm_set_workspace's rule: calls that may run at once go through handles of their own, each
    // with its own workspace.  A decode step and a solve with 7 right-hand sides (the skinny family,
    // K split over the GPU) and a long K on two tiles (split K), through AUTO: the captured call
    // replays the eager one's bits while the other handle's calls run on the other stream.
    Rng rng = rng_for("two workspaces");
    Stream first, second;
    asyncgemm_handle_t handle = test_env().handle;
    const OwnedHandle owned;  // destroyed after its workspace is given back (declared before it)
    asyncgemm_handle_t other = owned.handle;
    LentWorkspace first_workspace(handle, ASYNCGEMM_WORKSPACE_RECOMMENDED_BYTES);
    LentWorkspace second_workspace(other, ASYNCGEMM_WORKSPACE_RECOMMENDED_BYTES);
    GemmCase decode;  // y = x W^T, bf16, one token
    decode.type_ab = decode.type_cd = ASYNCGEMM_R_16BF;
    decode.op_b = ASYNCGEMM_OP_T;
    decode.m = 1, decode.n = 4096, decode.k = 4096;
    decode.aligned16 = true;
    GemmCase solve = decode;  // column-major D = W^T X, f32 D and C
    solve.order = ASYNCGEMM_ORDER_COL;
    solve.op_a = ASYNCGEMM_OP_T, solve.op_b = ASYNCGEMM_OP_N;
    solve.type_ab = ASYNCGEMM_R_16F, solve.type_cd = ASYNCGEMM_R_32F;
    solve.m = 3000, solve.n = 7, solve.k = 1536;
    solve.c_source = CSource::Buffer, solve.beta = 0.5f;
    for (const GemmCase &c : {decode, solve, few_tiles_long_k()}) {
        INFO(c.describe());
        GemmProblem replayed(c), beside(c);
        replayed.fill(rng, first.get());
        beside.fill(rng, second.get());
        REQUIRE_MESSAGE(replayed.launch(handle, first.get()) == ASYNCGEMM_STATUS_SUCCESS, asyncgemm_last_error());
        CHECK(replayed.verify(first.get(), ASYNCGEMM_MATH_DEFAULT) == "");
        const std::vector<unsigned char> eager_bits = replayed.d_bytes(first.get());
        // Run again: the same bits (the split's ranges are summed in a fixed order).
        REQUIRE(replayed.launch(handle, first.get()) == ASYNCGEMM_STATUS_SUCCESS);
        CHECK(replayed.d_bytes(first.get()) == eager_bits);
        REQUIRE_MESSAGE(beside.launch(other, second.get()) == ASYNCGEMM_STATUS_SUCCESS, asyncgemm_last_error());
        CHECK(beside.verify(second.get(), ASYNCGEMM_MATH_DEFAULT) == "");
        const std::vector<unsigned char> beside_bits = beside.d_bytes(second.get());

        GraphExec graph;
        capture_gemm(graph, replayed, handle, first.get());
        for (int round = 0; round < 3; ++round) {
            REQUIRE(cudaGraphLaunch(graph.exec, first.get()) == cudaSuccess);
            REQUIRE(beside.launch(other, second.get()) == ASYNCGEMM_STATUS_SUCCESS);
        }
        CHECK(replayed.d_bytes(first.get()) == eager_bits);
        CHECK(beside.d_bytes(second.get()) == beside_bits);
    }
}

TEST_CASE("back-to-back GEMMs on one stream, each adding to the D the one before wrote, add up exactly") {
    // The Hopper and skinny families, and the Ampere family's small-problem kernels, start each launch
    // while the kernel before it may still finish, and wait for it before touching memory: a read of D
    // too early, or a split's tile counters reused too early, would lose a term.  Integer inputs make
    // every sum exact, so D after `ran` calls is ran * A·B.
    Rng rng = rng_for("back to back");
    Stream stream;
    asyncgemm_handle_t handle = test_env().handle;
    // Each algorithm, and AUTO after it: AUTO's family (one that overlaps, where there is one) follows
    // every other family and itself.
    std::vector<asyncgemm_algo_t> calls;
    for (int round = 0; round < 2; ++round)
        for (asyncgemm_algo_t algo : available_gemm_algos(handle))
            calls.insert(calls.end(), {algo, ASYNCGEMM_ALGO_AUTO});
    // One tile and a long K (split wherever the family splits), a grid of many tiles, a decode step's
    // product, which AUTO gives the skinny family, and a small problem whose rows TMA cannot describe,
    // which AUTO gives the Ampere family's small-problem kernel.
    for (const ProductShape shape : {ProductShape{128, 128, 8192}, ProductShape{1024, 1024, 1024},
                                     ProductShape{8, 4096, 4096}, ProductShape{200, 300, 100}}) {
        CAPTURE(shape.m);
        CAPTURE(shape.k);
        const IntegerProduct product(shape, rng, stream.get());
        DeviceBuffer d_dev(static_cast<size_t>(shape.m * shape.n) * 4);
        cuda_check(cudaMemsetAsync(d_dev.get(), 0, d_dev.bytes(), stream.get()), "zeroing D");
        int ran = 0;
        for (const asyncgemm_algo_t algo : calls) {
            const asyncgemm_status_t status =
                product.launch(handle, 1.0f, d_dev.get(), d_dev.get(), algo, stream.get());
            if (refused_as_forced(status, algo)) continue;
            REQUIRE_MESSAGE(status == ASYNCGEMM_STATUS_SUCCESS,
                            algo_name(algo) << ": " << std::string(asyncgemm_last_error()));
            ++ran;
        }
        std::string first_wrong;
        const int64_t wrong = product.count_wrong(
            d_dev, 1, 7, [&](int64_t i, int64_t j) { return ran * product.at(i, j); }, stream.get(), first_wrong);
        CHECK_MESSAGE(wrong == 0, wrong << " elements wrong after " << ran << " calls; first " << first_wrong);
    }
}

TEST_CASE("a GEMM after a kernel that lets it start early reads C only once that kernel wrote it") {
    // The kernel before lets the GEMM's blocks start at once, and writes C = 1 only 200 µs later: a
    // GEMM that touched C before that kernel completed would read zeros.
    LateFill late_fill;
    if (!late_fill.why_not().empty()) {
        MESSAGE("skipped: " << late_fill.why_not());
        return;
    }
    Rng rng = rng_for("late fill");
    Stream stream;
    asyncgemm_handle_t handle = test_env().handle;
    // A grid of tiles (the Hopper family under AUTO on Hopper), a decode step (the skinny family) and a
    // small problem with unaligned rows (the Ampere family's small-problem kernel).
    for (const ProductShape shape : {ProductShape{512, 512, 256}, ProductShape{8, 4096, 1024},
                                     ProductShape{200, 300, 100}}) {
        CAPTURE(shape.m);
        const IntegerProduct product(shape, rng, stream.get());
        const size_t elements = static_cast<size_t>(shape.m * shape.n);
        DeviceBuffer c_dev(elements * 4), d_dev(elements * 4);
        for (const asyncgemm_algo_t algo : available_gemm_algos(handle)) {
            CAPTURE(algo_name(algo));
            cuda_check(cudaMemsetAsync(c_dev.get(), 0, c_dev.bytes(), stream.get()), "zeroing C");
            late_fill.launch(c_dev.get(), elements, 1.0f, 200000, stream.get());
            const asyncgemm_status_t status =
                product.launch(handle, 1.0f, c_dev.get(), d_dev.get(), algo, stream.get());
            if (refused_as_forced(status, algo)) continue;
            REQUIRE_MESSAGE(status == ASYNCGEMM_STATUS_SUCCESS, std::string(asyncgemm_last_error()));
            std::string first_wrong;
            const int64_t wrong = product.count_wrong(
                d_dev, 3, 5, [&](int64_t i, int64_t j) { return product.at(i, j) + 1.0; }, stream.get(), first_wrong);
            CHECK_MESSAGE(wrong == 0, wrong << " sampled elements of D are not A·B + C; first " << first_wrong);
        }
    }
}

TEST_CASE("a stream of another context is refused and leaves D untouched") {
    ForeignContext foreign;
    if (!foreign.why_not().empty()) {
        MESSAGE("skipped: no second context: " << foreign.why_not());
        return;
    }
    Rng rng = rng_for("foreign stream");
    GemmCase gemm_case;
    gemm_case.m = gemm_case.n = gemm_case.k = 33;
    GemmProblem gemm(gemm_case);
    gemm.fill(rng, nullptr);
    CHECK(gemm.launch(test_env().handle, foreign.stream()) == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"stream"}) == "");

    CopyCase copy_case;
    copy_case.rows = copy_case.cols = 40;
    CopyProblem copy(copy_case);
    copy.fill(rng, nullptr);
    CHECK(copy.launch(test_env().handle, foreign.stream()) == ASYNCGEMM_STATUS_INVALID_VALUE);
    CHECK(check_last_error({"stream"}) == "");

    foreign.synchronize();  // had anything been launched there, it would have finished now
    CHECK(gemm.verify_untouched(nullptr) == "");
    CHECK(copy.verify_untouched(nullptr) == "");
}

}  // TEST_SUITE("streams")
