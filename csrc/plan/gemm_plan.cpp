#include "plan/gemm_plan.h"

#include <optional>
#include <string>

#include "common/error.h"
#include "kernels/simt/simt_traits.h"
#include "plan/eight_bit_route.h"
#include "plan/self_check.h"
#include "plan/simt_plan.h"
#include "plan/skinny_launch.h"
#include "plan/skinny_plan.h"
#include "plan/sm100_plan.h"
#include "plan/sm90_copies.h"
#include "plan/sm80_plan.h"
#include "plan/sm90_heuristic.h"
#include "plan/sm90_plan.h"
#include "plan/widened_inputs.h"
#include "runtime/last_error.h"

namespace asyncgemm::plan {
namespace {

// The family behind each algorithm; Family::Count where this version has none.
Family family_of(asyncgemm_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_ALGO_SIMT: return Family::Simt;
    case ASYNCGEMM_ALGO_ASYNC_COPY:
    case ASYNCGEMM_ALGO_PIPELINED: return Family::Sm80;
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: return Family::Sm90;
    case ASYNCGEMM_ALGO_SM100_TCGEN05: return Family::Sm100;
    default: return Family::Count;
    }
}

// True when the algorithm's kernels loaded for the handle's device (its self-check aside).
bool loaded(const Handle &handle, asyncgemm_algo_t algo) {
    const Family family = family_of(algo);
    return family != Family::Count && handle.family_available(family);
}

// The fastest available algorithm for the problem (the skinny family aside, which gemm() tries first):
// tcgen05 on Blackwell (once its self-check passed) and TMA + wgmma on Hopper, for 16-bit inputs (and f32
// ones in TF32 mode) that TMA can describe; else mma.sync for 16-bit inputs (and K-major f32 ones in TF32
// mode); fp32 FMA otherwise (and wherever no tensor-core family loaded).
asyncgemm_algo_t choose_auto(const Handle &handle, const GemmParams &params) {
    if (sm100_supports(params, handle.math_mode()) && loaded(handle, ASYNCGEMM_ALGO_SM100_TCGEN05) &&
        sm100_tma_obstacle(params).empty() && sm100_self_check_passed(handle))
        return ASYNCGEMM_ALGO_SM100_TCGEN05;
    if (sm90_supports(params, handle.math_mode()) && loaded(handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA) &&
        sm90_tma_obstacle(params).empty())
        return ASYNCGEMM_ALGO_SM90_TMA_WGMMA;
    if (sm80_supports(params, handle.math_mode()) && loaded(handle, ASYNCGEMM_ALGO_PIPELINED))
        return ASYNCGEMM_ALGO_PIPELINED;
    if (loaded(handle, ASYNCGEMM_ALGO_SIMT)) return ASYNCGEMM_ALGO_SIMT;
    fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, "no GEMM algorithm can run on " + handle.device().name);
}

// The families that run on the handle's device, as the 8-bit route sees them for `params` with
// `algo`: SM100_TCGEN05 once its self-check passed, and for MX scales once that of its MX-scaled
// products passed too, each run at the first call the family would take (sm100_takes) on a
// Blackwell device.
EightBitFamilies eight_bit_families(const Handle &handle, asyncgemm_algo_t algo, const GemmParams &params) {
    EightBitFamilies families;
    const bool sm100_candidate = loaded(handle, ASYNCGEMM_ALGO_SM100_TCGEN05) && sm100_takes(algo, params);
    families.sm100 = sm100_candidate && sm100_self_check_passed(handle);
    families.sm100_mx = families.sm100 && has_mx_scales(params) && sm100_mx_self_check_passed(handle);
    families.sm90 = loaded(handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA);
    families.pipelined = loaded(handle, ASYNCGEMM_ALGO_PIPELINED);
    return families;
}

// The refusals of block-scaled 8-bit inputs by an algorithm named explicitly: SIMT applies the scales
// as it loads the inputs, SM90_TMA_WGMMA's 8-bit kernels to each K block's products where the
// operands are K-major, TMA describes them and B's scales are not per column; the others apply none
// (f16 copies cannot hold the scaled inputs).
void check_block_scales(asyncgemm_algo_t algo, const GemmParams &params) {
    const std::string name = algo_name(algo);
    if (algo != ASYNCGEMM_ALGO_SIMT && algo != ASYNCGEMM_ALGO_SM90_TMA_WGMMA)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED,
             name + " applies no block scales (ASYNCGEMM_ALGO_SIMT and, on Hopper, SM90_TMA_WGMMA do)");
    if (algo != ASYNCGEMM_ALGO_SM90_TMA_WGMMA) return;
    if (params.a_k_major == 0 || params.b_k_major == 0)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, name + " applies block scales to K-major 8-bit inputs only (row-major: "
                                                    "op_a N and op_b T; column-major: op_a T and op_b N)");
    if (!sm90_serves_block_scales(params))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED,
             name + " applies per-column block scales to no B (row-major: desc->scale_mode_b BLOCK_1x128; "
                    "column-major: desc->scale_mode_a BLOCK_1x128); BLOCK_128x128 there it applies");
    const std::string obstacle = sm90_tma_obstacle(params);
    if (!obstacle.empty())
        fail(ASYNCGEMM_STATUS_MISALIGNED, name + " loads block-scaled A and B through TMA, but " + obstacle);
}

// The refusals of 8-bit inputs by an algorithm named explicitly: SIMT and (on Hopper, K-major) SM90_TMA_WGMMA
// serve them with kernels of their own, the others but SM100_TCGEN05 on f16 copies (plan/widened_inputs.h),
// which hold no MX scales; SM90_TMA_WGMMA still needs C and D described by TMA; SM100_TCGEN05 reads them
// K-major, of one format, through TMA, once its self-check passed.  Inputs of two formats (e4m3 x e5m2) SIMT
// and SM90_TMA_WGMMA read themselves, the sm80 families multiply on f16 copies (so without block scales),
// SM100_TCGEN05 refuses.
void check_eight_bit(const Handle &handle, asyncgemm_algo_t algo, const GemmParams &params) {
    if (has_block_scales(params)) check_block_scales(algo, params);
    if (has_mx_scales(params) && algo != ASYNCGEMM_ALGO_SIMT && algo != ASYNCGEMM_ALGO_SM100_TCGEN05)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(algo)) + " applies no MX scales "
                                                                            "(ASYNCGEMM_ALGO_SIMT and, on Blackwell, "
                                                                            "SM100_TCGEN05 do)");
    if (algo == ASYNCGEMM_ALGO_SM100_TCGEN05) {
        if (has_mixed_eight_bit_inputs(params))
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(algo)) +
                                                     " multiplies 8-bit inputs of one format (type_a and type_b "
                                                     "both e4m3 or both e5m2; the others take e4m3 by e5m2)");
        if (params.a_k_major == 0 || params.b_k_major == 0)
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED,
                 std::string(algo_name(algo)) + " reads 8-bit float inputs K-major only (row-major: op_a N and op_b "
                                                "T; column-major: op_a T and op_b N)");
        const std::string obstacle = sm100_tma_obstacle(params);
        if (!obstacle.empty())
            fail(ASYNCGEMM_STATUS_MISALIGNED, std::string(algo_name(algo)) + " loads A and B through TMA, but " + obstacle);
        if (!sm100_self_check_passed(handle)) fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, last_error());
        if (has_mx_scales(params) && !sm100_mx_self_check_passed(handle))
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, last_error());
    }
    if (algo == ASYNCGEMM_ALGO_SM90_TMA_WGMMA) {
        // A and B, where TMA cannot describe them, are multiplied on copies.
        const std::string obstacle = sm90_output_obstacle(params);
        if (!obstacle.empty())
            fail(ASYNCGEMM_STATUS_MISALIGNED,
                 std::string(algo_name(algo)) + " loads C and stores D through TMA, but " + obstacle);
    }
}

// Multiplies 8-bit inputs along their route (plan/eight_bit_route.h); on f16 copies unsplit, as the
// copies hold the workspace.  Where the workspace cannot hold the copies, AUTO takes SIMT on the
// inputs themselves; a named family refuses.
void multiply_eight_bit(const Handle &handle, asyncgemm_algo_t algo, const GemmParams &params, void *stream) {
    const EightBitRoute route = eight_bit_route(eight_bit_families(handle, algo, params), algo, params);
    // Hopper, an MN-major operand: the 8-bit kernels on a K-major 8-bit copy of it, where the workspace
    // holds it (plan_sm90_copies says where the copy serves), rather than f16 copies (half the bytes,
    // multiplied at twice their rate) or, for block scales under AUTO, SIMT (the scales follow op(A)
    // and op(B), not the storage).
    const bool sm90_on_copies =
        (route.family == ASYNCGEMM_ALGO_SM90_TMA_WGMMA && route.widened) ||
        (route.family == ASYNCGEMM_ALGO_SIMT && algo == ASYNCGEMM_ALGO_AUTO && has_block_scales(params) &&
         loaded(handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA) && sm90_serves_block_scales(params));
    if (sm90_on_copies && handle.family_available(Family::Copy)) {
        const std::optional<Sm90Copies> copies = plan_sm90_copies(params, false);
        if (copies && launch_sm90_on_copies(handle, params, *copies, stream)) return;
    }
    if (!route.widened) {
        switch (route.family) {
        case ASYNCGEMM_ALGO_SM100_TCGEN05: launch_sm100(handle, params, stream); return;
        case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: launch_sm90(handle, params, stream); return;
        default: launch_simt(handle, params, 0, stream); return;
        }
    }
    // Unsplit: a split would lease the workspace again while the copies hold it.
    const auto multiply = [&](const GemmParams &q) {
        if (route.family == ASYNCGEMM_ALGO_SM90_TMA_WGMMA) {
            const sm90::Shape shape{q.m, q.n, q.k, q.batch_count};
            launch_sm90_choice(handle, q, {sm90::choose_config(shape, handle.device().sm_count), 1}, stream);
            return;
        }
        const bool pipelined = route.family == ASYNCGEMM_ALGO_PIPELINED;
        launch_sm80_choice(handle, q, {sm80::choose_config(pipelined, sm80_shape(q), sm80_limits(handle)).config, 1},
                           stream);
    };
    if (launch_on_widened(handle, params, stream, multiply)) return;
    if (algo == ASYNCGEMM_ALGO_AUTO && loaded(handle, ASYNCGEMM_ALGO_SIMT)) {
        launch_simt(handle, params, 0, stream);
        return;
    }
    fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(algo)) +
                                             " multiplies 8-bit float inputs on f16 copies, which the workspace "
                                             "cannot hold (a call being captured uses only a workspace set by "
                                             "asyncgemm_set_workspace, and only if they fit)");
}

// The refusals of an algorithm named explicitly that depend on the problem, not the device.
void check_forced(const Handle &handle, asyncgemm_algo_t algo, const GemmParams &params) {
    if (has_eight_bit_inputs(params)) {
        check_eight_bit(handle, algo, params);
        return;
    }
    const Family family = family_of(algo);
    if (family == Family::Sm80 && !sm80_supports(params, handle.math_mode()))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED,
             std::string(algo_name(algo)) + " needs f16 or bf16 A and B, or f32 ones in TF32 math mode with "
                                            "both operands K-major (got " + dtype_name(params.type_ab) + ")");
    if (family == Family::Sm90) {
        if (!sm90_supports(params, handle.math_mode()))
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED,
                 std::string(algo_name(algo)) + " needs f16 or bf16 A and B, or f32 ones in TF32 math mode with "
                                                "both operands K-major (got " + dtype_name(params.type_ab) + ")");
        const std::string obstacle = sm90_tma_obstacle(params);
        if (!obstacle.empty())
            fail(ASYNCGEMM_STATUS_MISALIGNED, std::string(algo_name(algo)) + " loads and stores through TMA, but " +
                                                  obstacle);
    }
    if (family == Family::Sm100) {
        if (!sm100_supports(params, handle.math_mode()))
            fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(algo)) +
                                                     " needs f16 or bf16 A and B, or f32 ones in TF32 math mode (got " +
                                                     dtype_name(params.type_ab) + ")");
        const std::string obstacle = sm100_tma_obstacle(params);
        if (!obstacle.empty())
            fail(ASYNCGEMM_STATUS_MISALIGNED, std::string(algo_name(algo)) + " loads A and B through TMA, but " +
                                                  obstacle);
    }
}

}  // namespace

bool algo_available(const Handle &handle, asyncgemm_algo_t algo) {
    if (algo == ASYNCGEMM_ALGO_AUTO) return loaded(handle, ASYNCGEMM_ALGO_SIMT);
    // Asking for the Blackwell family is a use of it: its self-check runs now, so the answer is the
    // one every later call gets.
    if (algo == ASYNCGEMM_ALGO_SM100_TCGEN05) return loaded(handle, algo) && sm100_self_check_passed(handle);
    return loaded(handle, algo);
}

void gemm(const Handle &handle, const GemmArgs &args, void *stream) {
    validate(args);
    if (args.algo != ASYNCGEMM_ALGO_AUTO && !loaded(handle, args.algo))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(args.algo)) + " is not available on " +
                                                 handle.device().name + " in this build");
    const GemmParams params = canonicalize(args);
    if (args.algo != ASYNCGEMM_ALGO_AUTO) check_forced(handle, args.algo, params);
    if (is_empty(args)) return;
    if (has_eight_bit_inputs(params)) {
        multiply_eight_bit(handle, args.algo, params, stream);
        return;
    }
    // A side of at most 16 columns: reading the other operand once bounds the product, which the
    // skinny family streams (16-bit inputs 0.99-1.11x cuBLAS at 1-16 tokens on an H100; f32 3-5x
    // faster than SIMT on an H200; taken on every GPU it is built for, since the bound is the
    // memory's on all of them), but for f32 in TF32 math past two small rows (skinny_launch.h).
    if (args.algo == ASYNCGEMM_ALGO_AUTO) {
        const std::optional<SkinnyParams> view = skinny_plan(handle, params);
        if (view && skinny::auto_takes(*view, params.type_ab, handle.math_mode() == ASYNCGEMM_MATH_TF32)) {
            launch_skinny(handle, *view, params.type_ab, 0, stream);
            return;
        }
    }
    const asyncgemm_algo_t algo = args.algo == ASYNCGEMM_ALGO_AUTO ? choose_auto(handle, params) : args.algo;
    // Where AUTO falls to PIPELINED or SIMT on Hopper because TMA cannot describe a matrix or wgmma
    // cannot read a tf32 operand as it lies: the Hopper family on copies, where they pay and the
    // workspace holds them (plan/sm90_copies.h).
    if (args.algo == ASYNCGEMM_ALGO_AUTO &&
        (algo == ASYNCGEMM_ALGO_PIPELINED || algo == ASYNCGEMM_ALGO_SIMT) &&
        loaded(handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA) && handle.family_available(Family::Copy)) {
        const std::optional<Sm90Copies> copies = plan_sm90_copies(params, handle.math_mode() == ASYNCGEMM_MATH_TF32);
        if (copies && sm90_copies_pay(params, *copies, algo == ASYNCGEMM_ALGO_SIMT) &&
            launch_sm90_on_copies(handle, params, *copies, stream))
            return;
    }
    // Refused, the family has left the reason (its self-check's failure, or ASYNCGEMM_SM100=off) in
    // this thread's last error.
    if (args.algo == ASYNCGEMM_ALGO_SM100_TCGEN05 && !sm100_self_check_passed(handle))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, last_error());
    switch (algo) {
    case ASYNCGEMM_ALGO_SIMT: launch_simt(handle, params, 0, stream); return;
    case ASYNCGEMM_ALGO_ASYNC_COPY:
    case ASYNCGEMM_ALGO_PIPELINED: launch_sm80(handle, params, algo, stream); return;
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: launch_sm90(handle, params, stream); return;
    case ASYNCGEMM_ALGO_SM100_TCGEN05: launch_sm100(handle, params, stream); return;
    default: fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string("no launcher for ") + algo_name(algo));
    }
}

}  // namespace asyncgemm::plan

namespace asyncgemm::plan {

void gemm_with_config(const Handle &handle, const GemmArgs &args, KernelChoice choice, void *stream) {
    if (args.algo == ASYNCGEMM_ALGO_AUTO)
        fail(ASYNCGEMM_STATUS_INVALID_VALUE, "gemm_with_config: name the family's algorithm, not AUTO");
    validate(args);
    if (!loaded(handle, args.algo))
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(args.algo)) + " is not available on " +
                                                 handle.device().name + " in this build");
    const GemmParams params = canonicalize(args);
    check_forced(handle, args.algo, params);
    if (is_empty(args)) return;
    // A configuration names a kernel: 8-bit inputs reach SIMT's and the 8-bit kernels of SM90 and
    // SM100 (K-major, through TMA) here, never the f16 copies plan::gemm makes for the others.
    if (has_eight_bit_inputs(params) && eight_bit_route(eight_bit_families(handle, args.algo, params), args.algo, params).widened)
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(args.algo)) +
                                                 " has no kernel that reads these 8-bit inputs as they lie");
    const auto refuse = [&] {
        fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, std::string(algo_name(args.algo)) + " has no configuration " +
                                                 std::to_string(choice.config));
    };
    switch (args.algo) {
    case ASYNCGEMM_ALGO_SIMT:
        if (choice.config != simt::kConfig) refuse();
        launch_simt(handle, params, choice.splits, stream);
        return;
    case ASYNCGEMM_ALGO_ASYNC_COPY:
    case ASYNCGEMM_ALGO_PIPELINED:
        // ASYNC_COPY is the one-stage configuration, PIPELINED every other.
        if (choice.config < 0 || choice.config >= sm80::kTileConfigCount ||
            (sm80::kTileConfigs[choice.config].stages == 1) != (args.algo == ASYNCGEMM_ALGO_ASYNC_COPY))
            refuse();
        launch_sm80_choice(handle, params, choice, stream);
        return;
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA:
        if (choice.config < 0 || choice.config >= sm90::kTileConfigCount) refuse();
        launch_sm90_choice(handle, params, choice, stream);
        return;
    case ASYNCGEMM_ALGO_SM100_TCGEN05:
        if (choice.config != 0) refuse();
        if (!sm100_self_check_passed(handle)) fail(ASYNCGEMM_STATUS_NOT_SUPPORTED, last_error());
        launch_sm100(handle, params, stream);
        return;
    default: fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, std::string("no launcher for ") + algo_name(args.algo));
    }
}

}  // namespace asyncgemm::plan
