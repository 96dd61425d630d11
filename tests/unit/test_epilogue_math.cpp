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

namespace {
using asyncgemm::Activation;
using asyncgemm::activate;

// The activations in double precision, from their definitions.
double reference(double x, Activation a) {
    switch (a) {
    case Activation::None: return x;
    case Activation::Relu: return x < 0 ? 0 : x;
    case Activation::GeluTanh: {
        const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
        return std::isinf(u) ? (u > 0 ? x : 0.0) : x / (1 + std::exp(-2 * u));
    }
    case Activation::GeluErf: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    case Activation::Silu: return x / (1 + std::exp(-x));
    }
    return 0;
}

// How much a relative error in x (or in an intermediate as large as x's terms) grows in a(x):
// |x a'(x) / a(x)|, by central differences in double.  The left tails of GELU are ill-conditioned
// (at x = -10 a rounding of u is multiplied by 2|u| = 87 through exp), so no fp32 form can promise a
// few ulps there; what is asked is the conditioning's share plus a few roundings.
double condition(double x, Activation a) {
    const double f = reference(x, a);
    if (f == 0 || x == 0) return 0;
    const double h = 1e-6;
    return std::fabs((reference(x * (1 + h), a) - reference(x * (1 - h), a)) / (2 * h) / f);
}

// Within 8 fp32 roundings plus 4 per unit of conditioning of the double value, or both below
// fp32's normal range.
bool close(float got, float x, Activation a) {
    const double want = reference(x, a);
    const double tolerance = (8 + 4 * condition(x, a)) * std::ldexp(std::fabs(want), -24) + 1e-37;
    return std::fabs(double(got) - want) <= tolerance;
}

constexpr Activation kActivations[] = {Activation::None, Activation::Relu, Activation::GeluTanh,
                                       Activation::GeluErf, Activation::Silu};
}  // namespace

TEST_CASE("every activation agrees with its double-precision definition, tails included") {
    for (Activation a : kActivations) {
        CAPTURE(static_cast<int>(a));
        // A sweep of both signs over 2^-30 .. 2^30 (four points an octave), and the centre densely.
        for (int e = -30 * 4; e <= 30 * 4; ++e)
            for (float sign : {1.0f, -1.0f}) {
                const float x = sign * static_cast<float>(std::exp2(e / 4.0));
                CAPTURE(x);
                CHECK(close(activate(x, a), x, a));
            }
        for (int i = -4000; i <= 4000; ++i) {
            const float x = static_cast<float>(i) / 256.0f;
            CAPTURE(x);
            CHECK(close(activate(x, a), x, a));
        }
        for (float x : {0.0f, 1e-40f, -1e-40f, 88.0f, -88.0f, 104.0f, -104.0f, 1e20f, -1e20f, 3.0e38f, -3.0e38f}) {
            CAPTURE(x);
            CHECK(close(activate(x, a), x, a));
        }
    }
}

TEST_CASE("GELU (erf)'s erfc, t exp(-z^2 + P(t)), is within 4e-7 (1 + z^2) of erfc(z) over z in [0, 9]") {
    // The fit of P (erfc_exponent) is within 9.1e-8; the rest is fp32's roundings, the largest that of
    // -z^2 + P(t) (an absolute error of the exponent, so a relative one of erfc, growing with z^2).
    // Past z = 9 erfc(z) is below 4.2e-37, within a factor of 40 of fp32's smallest normal.
    for (int i = 0; i <= 9000; ++i) {
        const float z = static_cast<float>(i) / 1000.0f;
        CAPTURE(z);
        const float t = 1.0f / std::fmaf(0.5f, z, 1.0f);
        const float e = t * std::exp2(std::fmaf(-z, z, asyncgemm::erfc_exponent(t)) * 1.4426950409f);
        const double want = std::erfc(double(z));
        CHECK(std::fabs(double(e) - want) <= 4e-7 * (1.0 + double(z) * z) * want);
    }
}

TEST_CASE("activations propagate NaN and meet their limits at the infinities") {
    for (Activation a : kActivations) {
        CAPTURE(static_cast<int>(a));
        CHECK(std::isnan(activate(kNaN, a)));
        CHECK(activate(kInf, a) == kInf);
    }
    CHECK(activate(-kInf, Activation::None) == -kInf);
    for (Activation a : {Activation::Relu, Activation::GeluTanh, Activation::GeluErf, Activation::Silu}) {
        CAPTURE(static_cast<int>(a));
        CHECK(activate(-kInf, a) == 0.0f);
        CHECK(activate(-1e30f, a) == 0.0f);  // an fp32 zero, not a NaN from -inf * 0
    }
    CHECK(!std::signbit(activate(-2.0f, Activation::Relu)));
    CHECK(std::signbit(activate(-0.0f, Activation::Relu)));  // -0 stays -0
}

TEST_CASE("the epilogue value is act(product + C term + bias)") {
    CHECK(asyncgemm::epilogue_value(1.5f, -2.0f, Activation::Relu) == 0.0f);
    CHECK(asyncgemm::epilogue_value(1.5f, 2.0f, Activation::Relu) == 3.5f);
    CHECK(asyncgemm::epilogue_value(1.5f, 0.25f, Activation::None) == 1.75f);
    CHECK(std::isnan(asyncgemm::epilogue_value(kInf, -kInf, Activation::Silu)));
}
