#include "enums.h"

#include "session.h"

#include <cstring>

namespace bench {

const char *dtype_name(asyncgemm_dtype_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: return "f32";
    case ASYNCGEMM_R_16F: return "f16";
    case ASYNCGEMM_R_16BF: return "bf16";
    case ASYNCGEMM_R_8F_E4M3: return "e4m3";
    case ASYNCGEMM_R_8F_E5M2: return "e5m2";
    }
    return "?";
}

std::size_t element_bytes(asyncgemm_dtype_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: return 4;
    case ASYNCGEMM_R_16F:
    case ASYNCGEMM_R_16BF: return 2;
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: break;
    }
    return 1;
}

char op_letter(asyncgemm_op_t op) {
    return op == ASYNCGEMM_OP_T ? 'T' : 'N';
}

const char *algo_name(asyncgemm_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_ALGO_AUTO: return "AUTO";
    case ASYNCGEMM_ALGO_SIMT: return "SIMT";
    case ASYNCGEMM_ALGO_ASYNC_COPY: return "ASYNC_COPY";
    case ASYNCGEMM_ALGO_PIPELINED: return "PIPELINED";
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: return "SM90_TMA_WGMMA";
    case ASYNCGEMM_ALGO_SM100_TCGEN05: return "SM100_TCGEN05";
    }
    return "?";
}

std::optional<asyncgemm_algo_t> parse_algo(const std::string &name) {
    for (asyncgemm_algo_t algo : {ASYNCGEMM_ALGO_AUTO, ASYNCGEMM_ALGO_SIMT, ASYNCGEMM_ALGO_ASYNC_COPY,
                                  ASYNCGEMM_ALGO_PIPELINED, ASYNCGEMM_ALGO_SM90_TMA_WGMMA,
                                  ASYNCGEMM_ALGO_SM100_TCGEN05})
        if (name == algo_name(algo)) return algo;
    return std::nullopt;
}

const char *copy_algo_name(asyncgemm_copy_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_COPY_AUTO: return "AUTO";
    case ASYNCGEMM_COPY_SYNC: return "SYNC";
    case ASYNCGEMM_COPY_ASYNC: return "ASYNC";
    case ASYNCGEMM_COPY_PIPELINED: return "PIPELINED";
    case ASYNCGEMM_COPY_TMA: return "TMA";
    }
    return "?";
}

const char *layout_name(asyncgemm_smem_layout_t layout) {
    switch (layout) {
    case ASYNCGEMM_SMEM_AUTO: return "AUTO";
    case ASYNCGEMM_SMEM_PLAIN: return "PLAIN";
    case ASYNCGEMM_SMEM_PADDED: return "PADDED";
    case ASYNCGEMM_SMEM_SWIZZLED: return "SWIZZLED";
    }
    return "?";
}

std::string status_name(asyncgemm_status_t status) {
    static const char prefix[] = "ASYNCGEMM_STATUS_";
    const char *name = asyncgemm_status_string(status);
    if (std::strncmp(name, prefix, sizeof prefix - 1) == 0) return name + sizeof prefix - 1;
    return name;
}

const char *timing_name(TimingMode mode) {
    switch (mode) {
    case TimingMode::events: return "events";
    case TimingMode::bursts: return "bursts";
    case TimingMode::graphs: return "graphs";
    }
    return "?";
}

}  // namespace bench
