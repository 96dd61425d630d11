#include "plan/sm80_plan.h"

#include "common/error.h"
#include "kernels/sm80/sm80_config.h"
#include "plan/autotune.h"
#include "plan/kernel_table.h"

namespace asyncgemm::plan {
namespace {

constexpr auto make_specs() {
    struct Specs {
        KernelSpec specs[sm80::kKernelCount];
    } out{};
    for (int i = 0; i < sm80::kKernelCount; ++i)
        out.specs[i] = {Family::Sm80, sm80::kKernels[i].name, sm80::kKernels[i].dynamic_smem};
    return out;
}
constexpr auto kSpecs = make_specs();

}  // namespace

FamilyKernels sm80_kernels() { return {kSpecs.specs, sm80::kKernelCount}; }

bool sm80_supports(const GemmParams &params) { return sm80::supports_types(params.type_ab, params.type_cd); }

void launch_sm80(const Handle &handle, GemmParams params, asyncgemm_algo_t algo, void *stream) {
    if (algo != ASYNCGEMM_ALGO_ASYNC_COPY && algo != ASYNCGEMM_ALGO_PIPELINED)
        fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "launch_sm80: algo is neither ASYNC_COPY nor PIPELINED");
    const int config = algo == ASYNCGEMM_ALGO_PIPELINED
                           ? pipelined_config(handle, params, stream)
                           : sm80::choose_config(false, params.m, params.n, params.batch_count, handle.device().sm_count);
    launch_sm80_config(handle, params, config, stream);
}

void launch_sm80_config(const Handle &handle, GemmParams params, int config, void *stream) {
    const sm80::Launch launch = sm80::prepare_launch_config(params, config);
    if (launch.kernel < 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_ASYNC_COPY / PIPELINED: the problem is too large for one "
                                             "launch (more than 2^31 - 1 output tiles, or k of 2^36 or more)");
    handle.launch(family_base(Family::Sm80) + static_cast<size_t>(launch.kernel), Dim3{launch.grid_x, 1, launch.grid_z},
                  Dim3{launch.block_x, 1, 1}, launch.dynamic_smem, &params, sizeof params, stream);
}

}  // namespace asyncgemm::plan
