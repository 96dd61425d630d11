// A position in a ring of shared-memory buffers guarded by mbarriers: the buffer, and the parity of
// its barriers' current phase, which flips each time the ring wraps.  Producer and consumer each keep
// one and advance it in the same order, so they meet on the same buffer and phase.
#pragma once

#include <stdint.h>

namespace asyncgemm {

template <int Size>
struct RingPosition {
    int index = 0;
    uint32_t phase = 0;
    __device__ __forceinline__ void advance() {
        if (++index == Size) {
            index = 0;
            phase ^= 1u;
        }
    }
};

}  // namespace asyncgemm
