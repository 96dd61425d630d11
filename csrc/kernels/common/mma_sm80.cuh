// Warp-level tensor-core primitives of sm_80 and later: ldmatrix fragment loads and mma.sync.
//
// CCCL's cuda/ptx does not wrap ldmatrix or mma.sync, so each is one inline-PTX wrapper here.  ldmatrix
// is volatile (it reads shared memory the compiler cannot see being written); mma.sync is pure.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace asyncgemm {

// ldmatrix.sync.aligned.m8n8.x4.shared.b16: four 8x8 matrices of 16-bit elements; lanes 8q..8q+7
// give the shared addresses of matrix q's eight rows, and each lane receives, in r[q], the two
// elements (row lane/4, columns 2(lane%4), +1) of matrix q.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem_address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_address));
}

// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16: as ldmatrix_x4, but each matrix is delivered
// transposed (lane gets row 2(lane%4), +1 of column lane/4), for operands stored MN-major.
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t smem_address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_address));
}

// One MMA over 32 bytes of K: d += a * b for a 16 x 32-byte A fragment, a 32-byte x 8 B fragment and
// a 16x8 fp32 accumulator (d[0..1]: row g, d[2..3]: row g+8, columns 2t, 2t+1), where g = lane / 4 and
// t = lane % 4.
//   f16, bf16: mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32, a[0..3] rows g / g+8,
//     column pairs 2t / 2t+8; b0, b1 row pairs 2t / 2t+8, column g.
//   float:     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 on f32 bit patterns (the tensor core
//     reads their tf32 bits), a[0..3] (g, t), (g+8, t), (g, t+4), (g+8, t+4); b0, b1 rows t / t+4,
//     column g.  In bytes these are the 16-bit fragments' places: the same ldmatrix loads both.
template <typename T>
__device__ __forceinline__ void mma_k32_bytes(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1);

template <>
__device__ __forceinline__ void mma_k32_bytes<__half>(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <>
__device__ __forceinline__ void mma_k32_bytes<__nv_bfloat16>(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                                             uint32_t b1) {
    asm(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <>
__device__ __forceinline__ void mma_k32_bytes<float>(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace asyncgemm
