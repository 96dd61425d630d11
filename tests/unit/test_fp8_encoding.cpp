// The 8-bit float formats (OCP FP8, "OFP8 Formats for Deep Learning" v1.0) as the library relies on
// them: every e4m3 and e5m2 code decoded by cuda_fp8.h (the conversion the widening copy and SIMT's
// 8-bit kernels use) equals the value the specification's tables give, and f16 holds each one
// exactly; the host encoder the tests quantize with saturates and rounds to nearest even; and the
// sizes the planner derives from the types.
#include <doctest/doctest.h>

#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/common/params.h"
#include "kernels/common/smem_descriptor.h"

using namespace asyncgemm;

namespace {

// The OCP specification's value of `code`: E4M3 (bias 7, no infinities, S.1111.111 the only NaN)
// or E5M2 (bias 15, IEEE-like: S.11111.00 infinities, S.11111.xx NaN otherwise).
double ocp_value(uint8_t code, bool e4m3) {
    const int mantissa_bits = e4m3 ? 3 : 2;
    const int bias = e4m3 ? 7 : 15;
    const int exponent = (code & 0x7F) >> mantissa_bits;
    const int mantissa = code & ((1 << mantissa_bits) - 1);
    const double sign = code & 0x80 ? -1.0 : 1.0;
    const int all_ones = (1 << (7 - mantissa_bits)) - 1;
    if (e4m3 && exponent == all_ones && mantissa == (1 << mantissa_bits) - 1) return std::numeric_limits<double>::quiet_NaN();
    if (!e4m3 && exponent == all_ones)
        return mantissa == 0 ? sign * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    const double fraction = mantissa / double(1 << mantissa_bits);
    if (exponent == 0) return sign * std::ldexp(fraction, 1 - bias);  // subnormal
    return sign * std::ldexp(1.0 + fraction, exponent - bias);
}

// cuda_fp8.h's decoding of `code`, through f16 as the widening copy does.
double decoded(uint8_t code, bool e4m3) {
    const __half_raw raw = __nv_cvt_fp8_to_halfraw(code, e4m3 ? __NV_E4M3 : __NV_E5M2);
    return static_cast<double>(__half2float(__half(raw)));
}

uint8_t encoded(float value, bool e4m3) {
    return __nv_cvt_float_to_fp8(value, __NV_SATFINITE, e4m3 ? __NV_E4M3 : __NV_E5M2);
}

}  // namespace

TEST_CASE("fp8: every e4m3 and e5m2 code decodes through f16 to the OCP value, exactly") {
    for (bool e4m3 : {true, false}) {
        for (int code = 0; code < 256; ++code) {
            CAPTURE(e4m3);
            CAPTURE(code);
            const double want = ocp_value(static_cast<uint8_t>(code), e4m3);
            const double got = decoded(static_cast<uint8_t>(code), e4m3);
            if (std::isnan(want)) {
                CHECK(std::isnan(got));
            } else {
                CHECK(got == want);
                CHECK(std::signbit(got) == std::signbit(want));  // -0 stays -0
            }
        }
    }
}

TEST_CASE("fp8: the OCP tables' landmarks") {
    CHECK(ocp_value(0x7E, true) == 448.0);               // e4m3's largest finite
    CHECK(std::isnan(ocp_value(0x7F, true)));            // its only NaN (and 0xFF)
    CHECK(ocp_value(0x78, true) == 256.0);               // S.1111.000 is a number: no infinity
    CHECK(ocp_value(0x08, true) == std::ldexp(1.0, -6)); // smallest normal
    CHECK(ocp_value(0x01, true) == std::ldexp(1.0, -9)); // smallest subnormal
    CHECK(ocp_value(0x7B, false) == 57344.0);            // e5m2's largest finite
    CHECK(std::isinf(ocp_value(0x7C, false)));
    CHECK(std::isnan(ocp_value(0x7D, false)));
    CHECK(ocp_value(0x04, false) == std::ldexp(1.0, -14));
    CHECK(ocp_value(0x01, false) == std::ldexp(1.0, -16));
    // f16 reaches 2^-24 and 65504: every finite value of both formats is an f16 (the test above).
}

TEST_CASE("fp8: encoding rounds to nearest even and saturates to the largest finite value") {
    for (bool e4m3 : {true, false}) {
        CAPTURE(e4m3);
        // Every finite code encodes back to itself.
        for (int code = 0; code < 256; ++code) {
            const double value = ocp_value(static_cast<uint8_t>(code), e4m3);
            if (std::isfinite(value)) CHECK(encoded(static_cast<float>(value), e4m3) == code);
        }
        const uint8_t max = e4m3 ? 0x7E : 0x7B;
        CHECK(encoded(1e6f, e4m3) == max);
        CHECK(encoded(-1e6f, e4m3) == (max | 0x80));
        CHECK(std::isnan(decoded(encoded(std::numeric_limits<float>::quiet_NaN(), e4m3), e4m3)));
    }
    // Midpoints go to the even mantissa: 1 + 1/16 between 1 (000) and 1.125 (001) is 1; 1 + 3/16
    // between 1.125 and 1.25 (010) is 1.25 (e4m3).  e5m2: 1.125 between 1 (00) and 1.25 (01) is 1.
    CHECK(decoded(encoded(1.0625f, true), true) == 1.0);
    CHECK(decoded(encoded(1.1875f, true), true) == 1.25);
    CHECK(decoded(encoded(1.125f, false), false) == 1.0);
}

TEST_CASE("fp8: one byte an element, 128 of K per 128-byte stage row") {
    CHECK(input_element_bytes(kE4M3) == 1);
    CHECK(input_element_bytes(kE5M2) == 1);
    CHECK(input_element_bytes(kBF16) == 2);
    CHECK(input_element_bytes(kF32) == 4);
    CHECK(block_k(kE4M3) == 128);
    CHECK(block_k(kF16) == 64);
    CHECK(block_k(kF32) == 32);
    CHECK(k_block_count(1000, kE5M2) == 8);
    CHECK(k_block_count(1024, kE4M3) == 8);
}
