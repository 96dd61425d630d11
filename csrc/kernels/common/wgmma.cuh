// Warpgroup-level primitives of sm_90a: wgmma.mma_async and its fences, setmaxnreg, stmatrix, and
// named barriers.
//
// CCCL's cuda/ptx wraps TMA, mbarriers and proxy fences (used directly by the kernels) but none of
// these, so each is one inline-PTX wrapper here.  Only code compiled for sm_90a may call them.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

#include <type_traits>

namespace asyncgemm {

// wgmma.fence.sync.aligned: orders this warpgroup's register accesses to the accumulators before
// the wgmma.mma_async that follow (needed before the first MMA and after the registers were touched).
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

// wgmma.commit_group.sync.aligned: closes the group of MMAs issued since the last commit.
__device__ __forceinline__ void wgmma_commit_group() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

// wgmma.wait_group.sync.aligned N: waits until at most N committed groups are still running.
template <int N>
__device__ __forceinline__ void wgmma_wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving accumulator reads or writes across a wgmma wait: the MMAs write the
// registers behind its back.
template <int R>
__device__ __forceinline__ void wgmma_fence_operands(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

#define ASYNCGEMM_WGMMA_D0_31 \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define ASYNCGEMM_WGMMA_D32_63 \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define ASYNCGEMM_WGMMA_D64_95 \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define ASYNCGEMM_WGMMA_D64_127 \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define ASYNCGEMM_F8(i)                                                                                           \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]),    \
        "+f"(d[i + 7])
#define ASYNCGEMM_F32(i) ASYNCGEMM_F8(i), ASYNCGEMM_F8(i + 8), ASYNCGEMM_F8(i + 16), ASYNCGEMM_F8(i + 24)
#define ASYNCGEMM_F64(i) ASYNCGEMM_F32(i), ASYNCGEMM_F32(i + 32)
// One wgmma.mma_async of shape m64n{N}k16 with fp32 accumulators: the PTX text for element type
// TYPE ("f16" or "bf16"), whose D registers are %0.. and whose other operands follow them (A and B
// descriptors, scale-d as a register, the two transpose immediates).
#define ASYNCGEMM_WGMMA(N, TYPE, D_LIST, DESC_A, DESC_B, SCALE_D, TRANS_A, TRANS_B)                             \
    "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE_D ", 0;\n"                                                        \
    "wgmma.mma_async.sync.aligned.m64n" N "k16.f32." TYPE "." TYPE " {" D_LIST "}, " DESC_A ", " DESC_B           \
    ", p, 1, 1, " TRANS_A ", " TRANS_B ";\n}\n"

// wgmma.mma_async.sync.aligned.m64n{N}k16.f32.{f16,bf16}.{f16,bf16}: d (+)= A * B for the
// warpgroup's 64 x N fp32 accumulator tile, A (64 x 16) and B (16 x N) read from shared memory
// through their matrix descriptors (smem_descriptor.h).  TransA / TransB are the instruction's
// imm-trans bits: false for a K-major operand, true for an MN-major one.  accumulate == 0 ignores
// d's old value (scale-d).  Accumulator layout: thread t of the warpgroup holds, in d[4j + 2h + e],
// row 16 (t / 32) + (t % 32) / 4 + 8h, column 8j + 2 (t % 4) + e.
template <typename T, int N, bool TransA, bool TransB>
__device__ __forceinline__ void wgmma_m64k16(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, int accumulate) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                  "wgmma_m64k16 is instantiated for N = 64, 128, 192 and 256");
    static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>, "f16 or bf16 operands");
    constexpr bool kBF16 = std::is_same_v<T, __nv_bfloat16>;
    if constexpr (N == 64 && !kBF16) {
        asm volatile(ASYNCGEMM_WGMMA("64", "f16", ASYNCGEMM_WGMMA_D0_31, "%32", "%33", "%34", "%35", "%36")
                     : ASYNCGEMM_F32(0)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else if constexpr (N == 64) {
        asm volatile(ASYNCGEMM_WGMMA("64", "bf16", ASYNCGEMM_WGMMA_D0_31, "%32", "%33", "%34", "%35", "%36")
                     : ASYNCGEMM_F32(0)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else if constexpr (N == 128 && !kBF16) {
        asm volatile(ASYNCGEMM_WGMMA("128", "f16", ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63, "%64", "%65",
                                     "%66", "%67", "%68")
                     : ASYNCGEMM_F64(0)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else if constexpr (N == 128) {
        asm volatile(ASYNCGEMM_WGMMA("128", "bf16", ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63, "%64", "%65",
                                     "%66", "%67", "%68")
                     : ASYNCGEMM_F64(0)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else if constexpr (N == 192 && !kBF16) {
        asm volatile(ASYNCGEMM_WGMMA("192", "f16", ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63 ", " ASYNCGEMM_WGMMA_D64_95,
                                     "%96", "%97", "%98", "%99", "%100")
                     : ASYNCGEMM_F64(0), ASYNCGEMM_F32(64)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else if constexpr (N == 192) {
        asm volatile(ASYNCGEMM_WGMMA("192", "bf16", ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63 ", " ASYNCGEMM_WGMMA_D64_95,
                                     "%96", "%97", "%98", "%99", "%100")
                     : ASYNCGEMM_F64(0), ASYNCGEMM_F32(64)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else if constexpr (!kBF16) {
        asm volatile(ASYNCGEMM_WGMMA("256", "f16", ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63 ", " ASYNCGEMM_WGMMA_D64_127,
                                     "%128", "%129", "%130", "%131", "%132")
                     : ASYNCGEMM_F64(0), ASYNCGEMM_F64(64)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    } else {
        asm volatile(ASYNCGEMM_WGMMA("256", "bf16", ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63 ", " ASYNCGEMM_WGMMA_D64_127,
                                     "%128", "%129", "%130", "%131", "%132")
                     : ASYNCGEMM_F64(0), ASYNCGEMM_F64(64)
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(int{TransA}), "n"(int{TransB}));
    }
}

// The kinds wgmma reads K-major only, whose PTX takes no transpose immediates: fp32 operands read
// as tf32 (the top 19 bits of each) and the 8-bit floats.  SHAPE_TYPES is the instruction's tail
// after m64n{N} ("k8.f32.tf32.tf32"); the operands follow the D registers as in ASYNCGEMM_WGMMA.
#define ASYNCGEMM_WGMMA_K_MAJOR(N, SHAPE_TYPES, D_LIST, DESC_A, DESC_B, SCALE_D)                                \
    "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE_D ", 0;\n"                                                        \
    "wgmma.mma_async.sync.aligned.m64n" N SHAPE_TYPES " {" D_LIST "}, " DESC_A ", " DESC_B ", p, 1, 1;\n}\n"
// The body of a K-major-only wrapper for N = 64, 128, 192 or 256 (d, desc_a, desc_b, accumulate in
// scope).
#define ASYNCGEMM_WGMMA_K_MAJOR_BODY(SHAPE_TYPES)                                                             \
    if constexpr (N == 64) {                                                                                  \
        asm volatile(ASYNCGEMM_WGMMA_K_MAJOR("64", SHAPE_TYPES, ASYNCGEMM_WGMMA_D0_31, "%32", "%33", "%34")     \
                     : ASYNCGEMM_F32(0)                                                                       \
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate));                                            \
    } else if constexpr (N == 128) {                                                                          \
        asm volatile(ASYNCGEMM_WGMMA_K_MAJOR("128", SHAPE_TYPES, ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63, \
                                             "%64", "%65", "%66")                                             \
                     : ASYNCGEMM_F64(0)                                                                       \
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate));                                            \
    } else if constexpr (N == 192) {                                                                          \
        asm volatile(ASYNCGEMM_WGMMA_K_MAJOR("192", SHAPE_TYPES,                                              \
                                             ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63 ", " ASYNCGEMM_WGMMA_D64_95, \
                                             "%96", "%97", "%98")                                             \
                     : ASYNCGEMM_F64(0), ASYNCGEMM_F32(64)                                                    \
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate));                                            \
    } else {                                                                                                  \
        asm volatile(ASYNCGEMM_WGMMA_K_MAJOR("256", SHAPE_TYPES,                                              \
                                             ASYNCGEMM_WGMMA_D0_31 ", " ASYNCGEMM_WGMMA_D32_63 ", " ASYNCGEMM_WGMMA_D64_127, \
                                             "%128", "%129", "%130")                                          \
                     : ASYNCGEMM_F64(0), ASYNCGEMM_F64(64)                                                    \
                     : "l"(desc_a), "l"(desc_b), "r"(accumulate));                                            \
    }

// wgmma.mma_async.sync.aligned.m64n{N}k8.f32.tf32.tf32: as wgmma_m64k16 for fp32 operands read as
// tf32, K-major only (the instruction has no transpose for 32-bit types).
template <int N>
__device__ __forceinline__ void wgmma_m64k8_tf32(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, int accumulate) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                  "wgmma_m64k8_tf32 is instantiated for N = 64, 128, 192 and 256");
    ASYNCGEMM_WGMMA_K_MAJOR_BODY("k8.f32.tf32.tf32")
}

// wgmma.mma_async.sync.aligned.m64n{N}k32.f32.{e4m3,e5m2}.{e4m3,e5m2}: as wgmma_m64k16 for 8-bit
// float operands, A e5m2 where AE5M2 (else e4m3) and B likewise, 32 of K per instruction (32 bytes,
// as k16 of 16-bit), K-major only.  The products are exact; DeepGEMM reports that the Hopper tensor
// core keeps fewer bits of the running sum than fp32 does, which long K exposes.
template <bool AE5M2, bool BE5M2, int N>
__device__ __forceinline__ void wgmma_m64k32_f8(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, int accumulate) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                  "wgmma_m64k32_f8 is instantiated for N = 64, 128, 192 and 256");
    if constexpr (!AE5M2 && !BE5M2) {
        ASYNCGEMM_WGMMA_K_MAJOR_BODY("k32.f32.e4m3.e4m3")
    } else if constexpr (!AE5M2) {
        ASYNCGEMM_WGMMA_K_MAJOR_BODY("k32.f32.e4m3.e5m2")
    } else if constexpr (!BE5M2) {
        ASYNCGEMM_WGMMA_K_MAJOR_BODY("k32.f32.e5m2.e4m3")
    } else {
        ASYNCGEMM_WGMMA_K_MAJOR_BODY("k32.f32.e5m2.e5m2")
    }
}

#undef ASYNCGEMM_WGMMA_K_MAJOR_BODY
#undef ASYNCGEMM_WGMMA_K_MAJOR
#undef ASYNCGEMM_WGMMA
#undef ASYNCGEMM_F64
#undef ASYNCGEMM_F32
#undef ASYNCGEMM_F8
#undef ASYNCGEMM_WGMMA_D64_127
#undef ASYNCGEMM_WGMMA_D64_95
#undef ASYNCGEMM_WGMMA_D32_63
#undef ASYNCGEMM_WGMMA_D0_31

// setmaxnreg.{inc,dec}.sync.aligned.u32: the warpgroup's per-thread register budget becomes
// Registers, so the producer's spare registers go to the consumers.
template <int Registers>
__device__ __forceinline__ void setmaxnreg_inc() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ __forceinline__ void setmaxnreg_dec() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

// stmatrix.sync.aligned.m8n8.x4.shared.b16: the inverse of ldmatrix.x4.  Lanes 8q..8q+7 give the
// shared addresses of matrix q's eight 16-byte rows; each lane supplies, in r[q], the two elements
// (row lane / 4, columns 2 (lane % 4), +1) of matrix q.
__device__ __forceinline__ void stmatrix_x4(uint32_t smem_address, const uint32_t (&r)[4]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem_address), "r"(r[0]),
                 "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
}

// bar.sync id, threads: a barrier among `threads` threads (whole warps) of the block; id 0 is
// __syncthreads', so a family numbers its own from 1.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace asyncgemm
