#include "plan/matmul_desc.h"

#include <string.h>

#include <string>

#include "common/error.h"

namespace asyncgemm::plan {
namespace {

// No descriptor of any version is this large: a struct_size beyond it is not a size.
constexpr size_t kLargestDescriptor = 4096;

}  // namespace

asyncgemm_matmul_desc_t default_matmul_desc() {
    asyncgemm_matmul_desc_t desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.batch_count = 1;
    desc.alpha = 1.0f;
    desc.algo = ASYNCGEMM_ALGO_AUTO;
    return desc;
}

GemmArgs matmul_args(const asyncgemm_matmul_desc_t *desc) {
    if (desc == nullptr) fail(ASYNCGEMM_STATUS_INVALID_VALUE, "desc is NULL");
    const size_t size = desc->struct_size;
    if (size < sizeof(asyncgemm_matmul_desc_t) || size > kLargestDescriptor)
        fail(ASYNCGEMM_STATUS_INVALID_VALUE,
             "desc->struct_size (" + std::to_string(size) + ") is not the size of a descriptor of version " +
                 std::to_string(ASYNCGEMM_VERSION_MAJOR) + "." + std::to_string(ASYNCGEMM_VERSION_MINOR) +
                 " or later (" + std::to_string(sizeof(asyncgemm_matmul_desc_t)) +
                 " bytes here): set it with asyncgemm_matmul_desc_init");
    // Fields appended by a later version, which this library cannot honour unless they are zero.
    const auto *bytes = reinterpret_cast<const unsigned char *>(desc);
    for (size_t i = sizeof(asyncgemm_matmul_desc_t); i < size; ++i)
        if (bytes[i] != 0)
            fail(ASYNCGEMM_STATUS_INVALID_VALUE, "desc: byte " + std::to_string(i) + " is set, in a field this " +
                                                     "library (" + std::to_string(ASYNCGEMM_VERSION_MAJOR) + "." +
                                                     std::to_string(ASYNCGEMM_VERSION_MINOR) + ") does not know");
    GemmArgs args;
    args.order = desc->order;
    args.op_a = desc->op_a, args.op_b = desc->op_b;
    args.m = desc->m, args.n = desc->n, args.k = desc->k;
    args.batch_count = desc->batch_count;
    args.alpha = desc->alpha, args.beta = desc->beta;
    args.a = desc->a, args.type_a = desc->type_a, args.lda = desc->lda, args.stride_a = desc->stride_a;
    args.b = desc->b, args.type_b = desc->type_b, args.ldb = desc->ldb, args.stride_b = desc->stride_b;
    args.c = desc->c, args.type_c = desc->type_c, args.ldc = desc->ldc, args.stride_c = desc->stride_c;
    args.d = desc->d, args.type_d = desc->type_d, args.ldd = desc->ldd, args.stride_d = desc->stride_d;
    args.bias_mode = desc->bias_mode, args.bias = desc->bias, args.type_bias = desc->type_bias;
    args.stride_bias = desc->stride_bias;
    args.activation = desc->activation;
    args.scale_mode_a = desc->scale_mode_a, args.scale_mode_b = desc->scale_mode_b;
    args.scale_a = desc->scale_a, args.scale_b = desc->scale_b;
    args.algo = desc->algo;
    args.names = "desc->";
    return args;
}

}  // namespace asyncgemm::plan
