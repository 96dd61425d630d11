// The arithmetic of every family's epilogue: D = act(alpha * acc + beta * C + bias) in fp32, rounded
// once to D's type by the caller, under the BLAS rules.
//  - alpha == 0 means there is no product: the accumulators are not read.  They may hold a NaN from
//    A or B, or never have been written, and 0 * NaN would carry it into D.
//  - beta == 0 means there is no C: a family reads C only where beta != 0 and only then calls
//    plus_scaled_c, so a NaN in C (or in D's old contents, when C is D) never reaches D.
// Plain C++ (host and device), so tests/unit pins it against a double-precision reference.
#pragma once

#include <math.h>
#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

// The select picks the accumulator, not the product: written so, ptxas keeps the SIMT kernels within
// their 128 registers on sm_90, where selecting the product spilled 16 bytes.
ASYNCGEMM_HOST_DEVICE inline float scaled_product(float alpha, float acc) { return alpha * (alpha != 0.f ? acc : 0.f); }

// beta * c + product as one fused multiply-add (one rounding), for beta != 0.
ASYNCGEMM_HOST_DEVICE inline float plus_scaled_c(float product, float beta, float c) { return fmaf(beta, c, product); }

// The activations of a fused epilogue, numbered as asyncgemm_activation_t (version 0.2 of the C API).
enum class Activation : int32_t { None = 0, Relu = 1, GeluTanh = 2, GeluErf = 3, Silu = 4 };

// The exponential and the division of the activations: on the GPU the SFU's approximations in their
// flush-to-zero forms, one MUFU instruction each (and a multiply for the division), where the forms
// without .ftz (__expf, __fdividef in a build without -ftz) add a rescaling around the MUFU for
// subnormal values, and the accurate library forms are longer still; exact library calls on the
// host.  They cost the activations a few ulp of fp32 (GELU (erf) about 10 near 0 as emulated on
// the host, more in the ill-conditioned left tails): far inside the rounding of 16-bit D, and inside
// the 1e-5 the f32 GPU tests allow.  An intermediate below fp32's normal range flushes to 0, so a result within a factor of
// about 2 above it may be 0 too.
// 2^x: ex2.approx.ftz.f32
ASYNCGEMM_HOST_DEVICE inline float activation_exp2(float x) {
#if defined(__CUDA_ARCH__)
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return exp2f(x);
#endif
}
// x * rcp.approx.ftz.f32(y)
ASYNCGEMM_HOST_DEVICE inline float activation_divide(float x, float y) {
#if defined(__CUDA_ARCH__)
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(y));
    return x * r;
#else
    return x / y;
#endif
}

// x / (1 + e) for e >= 0 (or NaN): a zero of x's sign where 1 + e is infinite, so that x = -inf,
// whose e is infinite, gives -0 and not -inf / inf.
ASYNCGEMM_HOST_DEVICE inline float over_one_plus(float x, float e) {
    const float d = 1.f + e;
    return isinf(d) ? copysignf(0.f, x) : activation_divide(x, d);
}

// ln(erfc(z) / t) + z^2 for t = 1 / (1 + z / 2), z >= 0: a polynomial in t - 1/2 of degree 9, a
// Chebyshev fit over t in [0.1, 1] (z up to 18, past which erfc(z) is far below fp32's range), within
// 9.1e-8 before its coefficients were rounded to fp32 and about 1e-7 after, and so erfc(z) within
// about 1e-7 relative before the roundings of its evaluation (1.6e-7 with them).
ASYNCGEMM_HOST_DEVICE inline float erfc_exponent(float t) {
    const float s = t - 0.5f;
    float p = 0.180421159f;
    p = fmaf(p, s, -0.0560410693f);
    p = fmaf(p, s, -0.266844153f);
    p = fmaf(p, s, 0.114908755f);
    p = fmaf(p, s, 0.279243469f);
    p = fmaf(p, s, -0.158136904f);
    p = fmaf(p, s, -0.375039995f);
    p = fmaf(p, s, 0.189378709f);
    p = fmaf(p, s, 1.34528506f);
    return fmaf(p, s, -0.671794116f);
}

// Each written so that it stays accurate in fp32 where the textbook form cancels, so that NaN
// propagates and the infinities meet their limits (-inf goes to -0 for GELU and SiLU, where
// x * (a factor that tends to 0) would make it NaN), and without branches: a fused pass applies them
// to many elements at once, and a branch per element would split their chains.
//  - ReLU: x < 0 ? 0 : x keeps NaN (fmaxf would drop it) and -0.
//  - GELU (tanh): 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3); the
//    first form loses every digit to 1 + tanh(u) for x below about -5.  exp(-2u) is 2^(x (c1 + c2 x^2))
//    with the constants folded (three multiplies and adds before the exponential, not five): each
//    element costs two MUFU instructions, the exponential and the reciprocal, and those bound a
//    fused epilogue of GELU on Hopper, where the SFU takes 16 a clock per SM.
//  - GELU (erf): x Phi(x), Phi(x) = 0.5 erfc(-x / sqrt 2), from h = 0.5 erfc(|x| / sqrt 2) as h for
//    x < 0 (accurate in the left tail) and 1 - h for x >= 0; erfc(z) = t exp(-z^2 + P(t)), t =
//    1 / (1 + z / 2), P a polynomial of degree 9 fitted to the exact exponent over t in [0.1, 1]
//    (erfc_exponent), so that it costs two MUFU instructions and about twenty others, as GELU
//    (tanh) does, where the library's erfcf took about forty.  A zero of x's sign where Phi is 0 (x =
//    -inf).
//  - SiLU: x / (1 + exp(-x)).
ASYNCGEMM_HOST_DEVICE inline float activate(float x, Activation activation) {
    switch (activation) {
    case Activation::None: return x;
    case Activation::Relu: return x < 0.f ? 0.f : x;
    case Activation::GeluTanh: {
        constexpr float kC1 = -2.3022081981f;  // -2 sqrt(2/pi) log2(e)
        constexpr float kC2 = -0.1029432396f;  // 0.044715 kC1
        return over_one_plus(x, activation_exp2(x * fmaf(kC2, x * x, kC1)));
    }
    case Activation::GeluErf: {
        const float z = 0.7071067812f * fabsf(x);
        const float t = activation_divide(1.f, fmaf(0.5f, z, 1.f));
        const float exponent = fmaf(-z, z, erfc_exponent(t));  // ln(erfc(z)) - ln(t)
        const float h = t * activation_exp2(fmaf(exponent, 1.4426950409f, -1.f));  // 0.5 erfc(z)
        const float phi = x < 0.f ? h : 1.f - h;
        return phi == 0.f ? copysignf(0.f, x) : x * phi;
    }
    default: return over_one_plus(x, activation_exp2(-1.4426950409f * x));  // exp(-x), -log2(e) x
    }
}

// D's fp32 value from the product, C's term and the bias (0 where there is none), before rounding.
ASYNCGEMM_HOST_DEVICE inline float epilogue_value(float product_plus_c, float bias, Activation activation) {
    return activate(product_plus_c + bias, activation);
}

}  // namespace asyncgemm
