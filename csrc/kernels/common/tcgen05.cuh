// The one tcgen05 primitive CCCL's cuda::ptx does not give in a safe form: a load from tensor memory
// together with the wait for it.  (cuda::ptx::tcgen05_ld_* is a non-volatile asm whose outputs are
// valid only after a separate tcgen05.wait::ld, and nothing stops the compiler from reading them
// before that wait; one asm statement for both makes the registers valid when it completes.)
#pragma once

#include <stdint.h>

namespace asyncgemm {

// tcgen05.ld.sync.aligned.32x32b.x32.b32 + tcgen05.wait::ld.sync.aligned: thread t of the warp
// gets 32 consecutive 32-bit columns, from `tmem_address` on, of lane (tmem_address >> 16) + t.
// Warp-collective; a warp may address only its quarter of the lanes (warp index % 4).
__device__ __forceinline__ void tmem_load_32x32b_x32(uint32_t tmem_address, float (&v)[32]) {
    asm volatile(
        "tcgen05.ld.sync.aligned.32x32b.x32.b32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];\n"
        "tcgen05.wait::ld.sync.aligned;\n"
        : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]), "=f"(v[4]), "=f"(v[5]), "=f"(v[6]), "=f"(v[7]),
          "=f"(v[8]), "=f"(v[9]), "=f"(v[10]), "=f"(v[11]), "=f"(v[12]), "=f"(v[13]), "=f"(v[14]), "=f"(v[15]),
          "=f"(v[16]), "=f"(v[17]), "=f"(v[18]), "=f"(v[19]), "=f"(v[20]), "=f"(v[21]), "=f"(v[22]), "=f"(v[23]),
          "=f"(v[24]), "=f"(v[25]), "=f"(v[26]), "=f"(v[27]), "=f"(v[28]), "=f"(v[29]), "=f"(v[30]), "=f"(v[31])
        : "r"(tmem_address)
        : "memory");
}

}  // namespace asyncgemm
