// The epilogue arithmetic every family uses (kernels/common/epilogue_math.h), against double
// precision: alpha = 0 keeps NaN and infinity of the accumulators out of D, beta * C + product is
// one rounding, and infinities and NaN of real products propagate.
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <limits>

#include "kernels/common/epilogue_math.h"

using asyncgemm::plus_scaled_c;
using asyncgemm::scaled_product;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
}  // namespace

TEST_CASE("alpha = 0 reads no accumulator: NaN and infinity of A and B never reach D") {
    for (float acc : {kNaN, kInf, -kInf, 0.0f, 1.0f, -3.0e38f}) {
        CHECK(scaled_product(0.0f, acc) == 0.0f);
        CHECK(scaled_product(-0.0f, acc) == 0.0f);
    }
}

TEST_CASE("alpha * acc is the fp32 product of a real product, NaN and infinity included") {
    for (float alpha : {1.0f, -2.5f, 1e-30f, 3.0e38f})
        for (float acc : {0.0f, 1.0f, -7.25f, 1e20f, 6.0e37f}) {
            const double exact = double(alpha) * double(acc);
            CHECK(scaled_product(alpha, acc) == static_cast<float>(exact));  // one rounding of the exact product
        }
    CHECK(std::isnan(scaled_product(2.0f, kNaN)));
    CHECK(scaled_product(2.0f, kInf) == kInf);
    CHECK(scaled_product(-2.0f, kInf) == -kInf);
    CHECK(scaled_product(3.0e38f, 3.0e38f) == kInf);  // overflow, as the fp32 product
}

TEST_CASE("beta * c + product is rounded once, and a NaN or infinite C propagates") {
    // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; rounding the product first would lose the 2^-24.
    const float x = 1.0f + std::ldexp(1.0f, -12);
    CHECK(plus_scaled_c(-1.0f, x, x) == std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24));
    for (float product : {0.0f, 1.5f, -1e10f})
        for (float beta : {1.0f, -0.5f, 2.0f})
            for (float c : {0.0f, 3.0f, -1e-20f}) {
                const double exact = double(beta) * double(c) + double(product);
                CHECK(plus_scaled_c(product, beta, c) == static_cast<float>(exact));
            }
    CHECK(std::isnan(plus_scaled_c(1.0f, 1.0f, kNaN)));
    CHECK(plus_scaled_c(1.0f, 1.0f, kInf) == kInf);
    CHECK(std::isnan(plus_scaled_c(kInf, 1.0f, -kInf)));
}
