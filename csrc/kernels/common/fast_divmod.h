// Division by a number fixed at launch, as a multiply and a shift (Granlund and Montgomery,
// "Division by invariant integers using multiplication", 1994).
//
// The persistent kernels turn a work item's index into a tile at the start of every tile, where a
// 64-bit `/` is a subroutine of about a hundred dependent instructions: four of them took about
// 0.9 us between two tiles of the Hopper kernel on an H100 (bench/RESULTS.md).  The host computes the
// multiplier once; the kernel pays a wide multiply and a shift.  Plain C++: the host tests check it
// against `/` (tests/unit/test_persistent_order.cpp).
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

// For a divisor d in [1, 2^31] and s = ceil(log2 d): m = ceil(2^(31 + s) / d) fits in 32 bits, and
// (n * m) >> (31 + s) == n / d for every n < 2^31.  (m d - 2^(31+s) = e lies in [0, d), so
// n m / 2^(31+s) = n / d + n e / (d 2^(31+s)), and the second term is below 2^-s <= 1 / d: too
// little to carry n / d past the next integer.)
struct FastDivmod {
    uint32_t divisor = 1;
    uint32_t multiplier = 1u << 31;
    uint32_t shift = 31;

    // n / divisor for n < 2^31.
    ASYNCGEMM_HOST_DEVICE constexpr uint32_t quotient(uint32_t n) const {
        return static_cast<uint32_t>((static_cast<uint64_t>(n) * multiplier) >> shift);
    }
};

// divisor in [1, 2^31].
constexpr FastDivmod fast_divmod(uint32_t divisor) {
    uint32_t s = 0;
    while ((uint64_t{1} << s) < divisor) ++s;
    const uint64_t scale = uint64_t{1} << (31 + s);
    return {divisor, static_cast<uint32_t>((scale + divisor - 1) / divisor), 31 + s};
}

}  // namespace asyncgemm
