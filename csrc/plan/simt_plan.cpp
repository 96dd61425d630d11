#include "plan/simt_plan.h"

#include "common/error.h"
#include "plan/kernel_table.h"
#include "plan/simt_launch.h"

namespace asyncgemm::plan {

void launch_simt(const Handle &handle, GemmParams params, void *stream) {
    const simt::Launch launch = simt::prepare_launch(params);
    if (launch.kernel < 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "ASYNCGEMM_ALGO_SIMT: the problem is too large for one launch "
                                             "(more than 2^31 - 1 output tiles, or k of 2^34 or more)");
    handle.launch(family_base(Family::Simt) + static_cast<size_t>(launch.kernel), Dim3{launch.grid_x, 1, launch.grid_z},
                  Dim3{launch.block_x, 1, 1}, launch.dynamic_smem, &params, sizeof params, stream);
}

}  // namespace asyncgemm::plan
