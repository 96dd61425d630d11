#include "gemm_problem.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

namespace agtest {

namespace {
constexpr int64_t kGuard = 32;  // poisoned elements on each side of D's allocation

int64_t matrices(bool broadcast, int64_t batch_count) { return broadcast ? 1 : batch_count; }

// `x` elements of `dtype` rounded up to a whole number of 16-byte units.
int64_t round_up_16_bytes(int64_t x, asyncgemm_dtype_t dtype) {
    const auto per_unit = static_cast<int64_t>(16 / element_size(dtype));
    return (x + per_unit - 1) / per_unit * per_unit;
}

// The layout with its leading dimension rounded up to 16 bytes when `aligned16`.
MatrixLayout aligned(MatrixLayout layout, bool aligned16, asyncgemm_dtype_t dtype) {
    if (aligned16) layout.ld = round_up_16_bytes(layout.ld, dtype);
    return layout;
}

// Consecutive matrices sit `gap` elements apart (rounded up to 16 bytes when `aligned16`); never 0
// apart, so no stride reads as a broadcast.
int64_t batch_stride(const MatrixLayout &layout, bool broadcast, int64_t gap, bool aligned16, asyncgemm_dtype_t dtype) {
    if (broadcast) return 0;
    const int64_t stride = std::max<int64_t>(layout.span(), 1) + gap;
    return aligned16 ? round_up_16_bytes(stride, dtype) : stride;
}

MatrixLayout a_layout(const GemmCase &c) {
    return aligned(MatrixLayout::of_op(c.m, c.k, c.op_a, c.order, c.lda_pad), c.aligned16, c.type_ab);
}
MatrixLayout b_layout(const GemmCase &c) {
    return aligned(MatrixLayout::of_op(c.k, c.n, c.op_b, c.order, c.ldb_pad), c.aligned16, c.b_type());
}
MatrixLayout d_layout(const GemmCase &c) {
    return aligned(MatrixLayout::padded(c.m, c.n, c.order, c.ldd_pad), c.aligned16, c.type_cd);
}
// The bias as a row-major 1 x length matrix: m values (PER_ROW) or n (PER_COL); one element, never
// read, without a bias.
MatrixLayout bias_layout(const GemmCase &c) {
    const int64_t length = c.bias_mode == ASYNCGEMM_BIAS_PER_ROW ? c.m : c.bias_mode == ASYNCGEMM_BIAS_PER_COL ? c.n : 1;
    return MatrixLayout::padded(1, std::max<int64_t>(length, 1), ASYNCGEMM_ORDER_ROW, 0);
}

MatrixLayout c_layout(const GemmCase &c) {
    return c.c_source == CSource::SameAsD ? d_layout(c)
                                          : aligned(MatrixLayout::padded(c.m, c.n, c.order, c.ldc_pad), c.aligned16,
                                                    c.type_cd);
}
bool c_has_buffer(const GemmCase &c) { return c.c_source == CSource::Buffer || c.c_source == CSource::NanBuffer; }

float random_value(Rng &rng) { return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng); }

std::string c_source_name(CSource source) {
    switch (source) {
    case CSource::Buffer: return "buffer";
    case CSource::Null: return "NULL";
    case CSource::SameAsD: return "d (in place)";
    case CSource::NanBuffer: return "NaN buffer";
    }
    return "?";
}
}  // namespace

std::string GemmCase::describe() const {
    std::ostringstream s;
    s << "algo=" << algo_name(algo) << ' ' << order_name(order) << " op=" << op_name(op_a) << op_name(op_b) << ' '
      << dtype_name(type_ab) << (type_b ? std::string("x") + dtype_name(*type_b) : std::string()) << "->"
      << dtype_name(type_cd) << " m=" << m << " n=" << n << " k=" << k;
    if (batch_count != 1 || batched_api) s << " batches=" << batch_count << " gap=" << batch_gap;
    if (via_matmul) s << " (asyncgemm_matmul)";
    if (bias_mode != ASYNCGEMM_BIAS_NONE)
        s << " bias=" << (bias_mode == ASYNCGEMM_BIAS_PER_ROW ? "row" : "col") << (bias_f32 ? ":f32" : "")
          << (broadcast_bias ? ":broadcast" : "");
    if (activation != ASYNCGEMM_ACT_NONE) s << " act=" << int(activation);
    if (scale_a != 0.0f || scale_b != 0.0f) s << " scales=(" << scale_a << ',' << scale_b << ')';
    const auto block_name = [](asyncgemm_scale_t mode) {
        return mode == ASYNCGEMM_SCALE_BLOCK_1x128     ? "1x128"
               : mode == ASYNCGEMM_SCALE_BLOCK_128x128 ? "128x128"
               : mode == ASYNCGEMM_SCALE_MX_32         ? "mx32"
                                                       : "-";
    };
    if (block_a != ASYNCGEMM_SCALE_NONE || block_b != ASYNCGEMM_SCALE_NONE)
        s << " block_scales=(" << block_name(block_a) << ',' << block_name(block_b) << ')';
    if (broadcast_a || broadcast_b || broadcast_c)
        s << " broadcast=" << (broadcast_a ? "a" : "") << (broadcast_b ? "b" : "") << (broadcast_c ? "c" : "");
    if (aligned16) s << " aligned16";
    s << " ld_pad=(" << lda_pad << ',' << ldb_pad << ',' << ldc_pad << ',' << ldd_pad << ')';
    if (offset_a || offset_b || offset_c || offset_d)
        s << " offset=" << (offset_a ? "a" : "") << (offset_b ? "b" : "") << (offset_c ? "c" : "")
          << (offset_d ? "d" : "");
    s << " alpha=" << alpha << " beta=" << beta << " c=" << c_source_name(c_source);
    if (nan_operands) s << " NaN A and B";
    return s.str();
}

GemmCase random_gemm_case(Rng &rng, int64_t max_dim) {
    const auto dim = [&] {
        return chance(rng, 0.5) ? std::min(pick(rng, kTailSizes), max_dim) : uniform(rng, 1, max_dim);
    };
    const auto odd_pad = [&] { return chance(rng, 1.0 / 3) ? 2 * uniform(rng, 0, 8) + 1 : 0; };
    GemmCase c;
    c.m = dim();
    c.n = dim();
    c.k = dim();
    c.lda_pad = odd_pad();
    c.ldb_pad = odd_pad();
    c.ldc_pad = odd_pad();
    c.ldd_pad = odd_pad();
    c.offset_a = chance(rng, 0.25);
    c.offset_b = chance(rng, 0.25);
    c.offset_c = chance(rng, 0.25);
    c.offset_d = chance(rng, 0.25);
    static constexpr CSource kSources[] = {CSource::Buffer, CSource::Buffer,  CSource::Buffer, CSource::Buffer,
                                           CSource::Null,   CSource::Null,    CSource::SameAsD, CSource::SameAsD,
                                           CSource::NanBuffer};
    c.c_source = pick(rng, kSources);
    static constexpr float kAlphas[] = {1.0f, -1.0f, 0.5f, 1.75f, -2.25f};
    static constexpr float kBetas[] = {1.0f, -0.5f, 0.75f, 0.0f};
    c.alpha = pick(rng, kAlphas);
    c.beta = c.c_source == CSource::Buffer || c.c_source == CSource::SameAsD ? pick(rng, kBetas) : 0.0f;
    if (chance(rng, 0.25)) {
        c.batch_count = uniform(rng, 2, 4);
        c.batch_gap = odd_pad();
        c.broadcast_a = chance(rng, 0.3);
        c.broadcast_b = chance(rng, 0.3);
        c.broadcast_c = c.c_source == CSource::Buffer && chance(rng, 0.3);
    }
    c.batched_api = c.batch_count > 1 || chance(rng, 0.2);
    c.via_matmul = chance(rng, 0.3);
    if (chance(rng, 0.5)) {
        c.aligned16 = true;
        c.offset_a = c.offset_b = c.offset_c = c.offset_d = false;
    }
    return c;
}

double gemm_tolerance(asyncgemm_dtype_t type_ab, asyncgemm_dtype_t type_cd, asyncgemm_math_t math) {
    // fp32 FMA or exact 16-bit products accumulated in fp32 in some order: ~1e-7 for k <= 4096.
    double tolerance = 1e-5;
    if (type_ab == ASYNCGEMM_R_32F && math == ASYNCGEMM_MATH_TF32) tolerance = 5e-3;  // 10-bit mantissas in
    // Exact 8-bit products, summed by the tensor core with fewer bits than fp32 keeps.
    if (type_ab == ASYNCGEMM_R_8F_E4M3 || type_ab == ASYNCGEMM_R_8F_E5M2) tolerance = 2e-2;
    if (type_cd == ASYNCGEMM_R_16F) tolerance = std::max(tolerance, 1e-3);            // 2^-11 rounding out
    if (type_cd == ASYNCGEMM_R_16BF) tolerance = std::max(tolerance, 8e-3);           // 2^-8 rounding out
    return tolerance;
}

GemmProblem::Operand::Operand(const MatrixLayout &layout_, int64_t stride_, int64_t matrices_, int64_t front_,
                              int64_t back, asyncgemm_dtype_t dtype)
    : layout(layout_), stride(stride_), front(front_),
      host(dtype, static_cast<size_t>(front_ + (matrices_ - 1) * stride_ + std::max<int64_t>(layout_.span(), 1) +
                                      back)),
      device(host.bytes()) {}

void *GemmProblem::Operand::base() const { return device.get() + front * element_size(host.dtype()); }

GemmProblem::GemmProblem(const GemmCase &c)
    : case_(c),
      a_(a_layout(c), batch_stride(a_layout(c), c.broadcast_a, c.batch_gap, c.aligned16, c.type_ab),
         matrices(c.broadcast_a, c.batch_count), c.offset_a, 0, c.type_ab),
      b_(b_layout(c), batch_stride(b_layout(c), c.broadcast_b, c.batch_gap, c.aligned16, c.b_type()),
         matrices(c.broadcast_b, c.batch_count), c.offset_b, 0, c.b_type()),
      c_(c_layout(c), batch_stride(c_layout(c), c.broadcast_c, c.batch_gap, c.aligned16, c.type_cd),
         c_has_buffer(c) ? matrices(c.broadcast_c, c.batch_count) : 1, c.offset_c, 0, c.type_cd),
      d_(d_layout(c), batch_stride(d_layout(c), false, c.batch_gap, c.aligned16, c.type_cd), c.batch_count,
         kGuard + c.offset_d, kGuard, c.type_cd),
      bias_(bias_layout(c), c.broadcast_bias ? 0 : bias_layout(c).cols, c.broadcast_bias ? 1 : c.batch_count, 0, 0,
            c.bias_f32 ? ASYNCGEMM_R_32F : c.type_cd),
      scales_(2 * sizeof(float)),
      block_a_(c.block_a, c.m, c.k, matrices(c.broadcast_a, c.batch_count)),
      block_b_(c.block_b, c.n, c.k, matrices(c.broadcast_b, c.batch_count)) {}

namespace {

// The MX scales' layout as asyncgemm.h documents it (cuBLASLt's VEC32_UE8M0): 512-byte tiles of 128
// rows by 4 K blocks of 32, row tiles outermost, a row tile's K tiles in order, and in a tile the
// byte of row r and K block j at (r % 32) * 16 + (r / 32) * 4 + j; extents padded to whole tiles.
int64_t mx_k_tiles(int64_t k) { return (k + 127) / 128; }
int64_t mx_bytes(int64_t extent, int64_t k) { return (extent + 127) / 128 * mx_k_tiles(k) * 512; }
int64_t mx_offset(int64_t x, int64_t kb, int64_t k) {
    const int64_t r = x % 128, j = kb % 4;
    return (x / 128 * mx_k_tiles(k) + kb / 4) * 512 + r % 32 * 16 + r / 32 * 4 + j;
}

}  // namespace

GemmProblem::BlockScales::BlockScales(asyncgemm_scale_t mode, int64_t extent_, int64_t k_, int64_t matrices)
    : rows(mode == ASYNCGEMM_SCALE_BLOCK_1x128 ? 1 : mode == ASYNCGEMM_SCALE_BLOCK_128x128 ? 128 : 0),
      mx(mode == ASYNCGEMM_SCALE_MX_32),
      extent(extent_),
      k(k_),
      per_problem(mx ? mx_bytes(extent_, k_) : rows == 0 ? 1 : (k_ + 127) / 128 * ((extent_ + rows - 1) / rows)),
      host(ASYNCGEMM_R_32F, static_cast<size_t>(rows == 0 ? 1 : matrices * per_problem)),
      mx_host(static_cast<size_t>(mx ? matrices * per_problem : 0)),
      device(mx ? mx_host.size() : host.bytes()) {}

double GemmProblem::BlockScales::at(int64_t matrix, int64_t x, int64_t p) const {
    if (mx) {
        const uint8_t e = mx_host[static_cast<size_t>(matrix * per_problem + mx_offset(x, p / 32, k))];
        return std::ldexp(1.0, int(e) - 127);
    }
    if (rows == 0) return 1.0;
    const int64_t per_k_block = (extent + rows - 1) / rows;
    return host.value(static_cast<size_t>(matrix * per_problem + p / 128 * per_k_block + x / rows));
}

void GemmProblem::fill(Rng &rng, cudaStream_t stream) {
    const auto fill_windows = [&](Operand &x, int64_t count) {
        for (int64_t batch = 0; batch < count; ++batch)
            for (int64_t row = 0; row < x.layout.rows; ++row)
                for (int64_t col = 0; col < x.layout.cols; ++col)
                    x.host.set(static_cast<size_t>(x.index(batch, row, col)), random_value(rng));
    };
    if (!case_.nan_operands) {
        fill_windows(a_, matrices(case_.broadcast_a, case_.batch_count));
        fill_windows(b_, matrices(case_.broadcast_b, case_.batch_count));
    }
    a_.device.upload(a_.host.data(), stream);
    b_.device.upload(b_.host.data(), stream);
    if (case_.c_source == CSource::Buffer) fill_windows(c_, matrices(case_.broadcast_c, case_.batch_count));
    if (case_.bias_mode != ASYNCGEMM_BIAS_NONE) {
        fill_windows(bias_, case_.broadcast_bias ? 1 : case_.batch_count);
        bias_.device.upload(bias_.host.data(), stream);
    }
    if (c_has_buffer(case_)) c_.device.upload(c_.host.data(), stream);
    if (case_.scaled()) {
        const float scales[2] = {case_.scale_a, case_.scale_b};
        scales_.upload(scales, stream);
    }
    // Powers of two from 1/8 to 8: exact in every product, and a scale taken from the wrong block
    // is a factor of two off at least as often as not.
    for (BlockScales *x : {&block_a_, &block_b_}) {
        if (x->mx) {  // the padding too: the library reads it for rows past the extent
            for (uint8_t &e : x->mx_host) e = static_cast<uint8_t>(127 + uniform(rng, -3, 3));
            x->device.upload(x->mx_host.data(), stream);
        }
        if (x->rows == 0) continue;
        for (size_t e = 0; e < x->host.count(); ++e) x->host.set(e, std::ldexp(1.0f, static_cast<int>(uniform(rng, -3, 3))));
        x->device.upload(x->host.data(), stream);
    }
    d_.host = HostArray(case_.type_cd, d_.host.count());
    if (case_.c_source == CSource::SameAsD) fill_windows(d_, case_.batch_count);
    d_.device.upload(d_.host.data(), stream);
}

GemmCall GemmProblem::call() const {
    const GemmCase &c = case_;
    const void *c_ptr = nullptr;
    int64_t stride_c = c_.stride;
    if (c.c_source == CSource::SameAsD) {
        c_ptr = d_.base();
        stride_c = d_.stride;
    } else if (c_has_buffer(c)) {
        c_ptr = c_.base();
    }
    const bool batched = c.batched_api;
    return {c.order, c.op_a, c.op_b, c.m, c.n, c.k, c.alpha,
            a_.base(), a_.layout.ld, batched ? a_.stride : 0,
            b_.base(), b_.layout.ld, batched ? b_.stride : 0,
            c.beta, c_ptr, c_.layout.ld, batched ? stride_c : 0,
            d_.base(), d_.layout.ld, batched ? d_.stride : 0,
            c.type_ab, c.type_cd, batched ? c.batch_count : 1, c.algo,
            c.bias_mode, c.bias_mode != ASYNCGEMM_BIAS_NONE ? bias_.base() : nullptr, bias_.host.dtype(),
            batched ? bias_.stride : 0, c.activation,
            c.block_a != ASYNCGEMM_SCALE_NONE ? c.block_a
            : c.scale_a != 0.0f               ? ASYNCGEMM_SCALE_TENSOR
                                              : ASYNCGEMM_SCALE_NONE,
            c.block_a != ASYNCGEMM_SCALE_NONE ? static_cast<const void *>(block_a_.device.get()) : scales_.get(),
            c.block_b != ASYNCGEMM_SCALE_NONE ? c.block_b
            : c.scale_b != 0.0f               ? ASYNCGEMM_SCALE_TENSOR
                                              : ASYNCGEMM_SCALE_NONE,
            c.block_b != ASYNCGEMM_SCALE_NONE ? static_cast<const void *>(block_b_.device.get())
                                              : scales_.get() + sizeof(float),
            c.b_type()};
}

asyncgemm_matmul_desc_t matmul_desc(const GemmCall &x) {
    asyncgemm_matmul_desc_t desc;
    asyncgemm_matmul_desc_init(&desc);
    desc.order = x.order, desc.op_a = x.op_a, desc.op_b = x.op_b;
    desc.m = x.m, desc.n = x.n, desc.k = x.k, desc.batch_count = x.batch_count;
    desc.alpha = x.alpha, desc.beta = x.beta;
    desc.a = x.a, desc.type_a = x.type_ab, desc.lda = x.lda, desc.stride_a = x.stride_a;
    desc.b = x.b, desc.type_b = x.type_b, desc.ldb = x.ldb, desc.stride_b = x.stride_b;
    desc.c = x.c, desc.type_c = x.type_cd, desc.ldc = x.ldc, desc.stride_c = x.stride_c;
    desc.d = x.d, desc.type_d = x.type_cd, desc.ldd = x.ldd, desc.stride_d = x.stride_d;
    desc.bias_mode = x.bias_mode, desc.bias = x.bias, desc.type_bias = x.type_bias, desc.stride_bias = x.stride_bias;
    desc.activation = x.activation;
    desc.scale_mode_a = x.scale_mode_a, desc.scale_a = x.scale_a;
    desc.scale_mode_b = x.scale_mode_b, desc.scale_b = x.scale_b;
    desc.algo = x.algo;
    return desc;
}

namespace {

// The call through asyncgemm_matmul.
asyncgemm_status_t call_matmul(asyncgemm_handle_t handle, const GemmCall &x, cudaStream_t stream) {
    const asyncgemm_matmul_desc_t desc = matmul_desc(x);
    return asyncgemm_matmul(handle, &desc, stream);
}

// The API call with `x`'s arguments: asyncgemm_matmul, asyncgemm_gemm, or its strided-batched form.
asyncgemm_status_t call_api(asyncgemm_handle_t handle, const GemmCall &x, const GemmCase &gemm_case,
                            cudaStream_t stream) {
    if (gemm_case.via_matmul || gemm_case.fused() || gemm_case.scaled()) return call_matmul(handle, x, stream);
    if (!gemm_case.batched_api)
        return asyncgemm_gemm(handle, x.order, x.op_a, x.op_b, x.m, x.n, x.k, x.alpha, x.a, x.type_ab, x.lda, x.b,
                              x.type_b, x.ldb, x.beta, x.c, x.type_cd, x.ldc, x.d, x.type_cd, x.ldd, x.algo, stream);
    return asyncgemm_gemm_strided_batched(handle, x.order, x.op_a, x.op_b, x.m, x.n, x.k, x.alpha, x.a, x.type_ab,
                                          x.lda, x.stride_a, x.b, x.type_b, x.ldb, x.stride_b, x.beta, x.c,
                                          x.type_cd, x.ldc, x.stride_c, x.d, x.type_cd, x.ldd, x.stride_d,
                                          x.batch_count, x.algo, stream);
}

}  // namespace

asyncgemm_status_t GemmProblem::launch(asyncgemm_handle_t handle, cudaStream_t stream) const {
    return call_api(handle, call(), case_, stream);
}

namespace {

// The activations in double precision, in their textbook forms.
double activation_reference(double x, asyncgemm_activation_t activation) {
    switch (activation) {
    case ASYNCGEMM_ACT_RELU: return x < 0 ? 0 : x;
    case ASYNCGEMM_ACT_GELU_TANH: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    case ASYNCGEMM_ACT_GELU_ERF: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    case ASYNCGEMM_ACT_SILU: return x / (1 + std::exp(-x));
    case ASYNCGEMM_ACT_NONE: break;
    }
    return x;
}

}  // namespace

std::string GemmProblem::verify_batch(int64_t batch, const HostArray &d, double tolerance) const {
    const GemmCase &c = case_;
    const int64_t m = c.m, n = c.n, k = c.k;
    const auto a_at = [&](int64_t i, int64_t p) {
        return a_.host.value(c.op_a == ASYNCGEMM_OP_N ? a_.index(batch, i, p) : a_.index(batch, p, i));
    };
    const auto b_at = [&](int64_t p, int64_t j) {
        return b_.host.value(c.op_b == ASYNCGEMM_OP_N ? b_.index(batch, p, j) : b_.index(batch, j, p));
    };
    const Operand &c_operand = c.c_source == CSource::SameAsD ? d_ : c_;
    const bool reads_c = c.beta != 0.0f;
    // alpha and the 8-bit inputs' tensor scales (none: 1).
    const double product_scale = double(c.alpha) * (c.block_a == ASYNCGEMM_SCALE_NONE && c.scale_a != 0.0f ? c.scale_a : 1.0) *
                                 (c.block_b == ASYNCGEMM_SCALE_NONE && c.scale_b != 0.0f ? c.scale_b : 1.0);

    // op(A) as m x k and op(B) as k x n, dense and row-major, so the product below streams rows;
    // each element times its block scale (none: 1).
    std::vector<double> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
    std::vector<double> row(static_cast<size_t>(n)), row_magnitude(static_cast<size_t>(n));
    const int64_t a_matrix = c.broadcast_a ? 0 : batch, b_matrix = c.broadcast_b ? 0 : batch;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t p = 0; p < k; ++p) a[i * k + p] = a_at(i, p) * block_a_.at(a_matrix, i, p);
    for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j) b[p * n + j] = b_at(p, j) * block_b_.at(b_matrix, j, p);

    double error2 = 0, reference2 = 0, magnitude2 = 0, worst = -1, worst_got = 0, worst_want = 0;
    int64_t worst_i = 0, worst_j = 0, nonfinite = 0;
    for (int64_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), 0.0);
        std::fill(row_magnitude.begin(), row_magnitude.end(), 0.0);
        for (int64_t p = 0; p < k; ++p) {
            const double a_ip = a[i * k + p];
            const double *b_p = b.data() + p * n;
            for (int64_t j = 0; j < n; ++j) {
                row[j] += a_ip * b_p[j];
                row_magnitude[j] += std::abs(a_ip * b_p[j]);
            }
        }
        for (int64_t j = 0; j < n; ++j) {
            // As in BLAS, alpha = 0 means no product at all (NaN operands included).
            double want = c.alpha != 0.0f ? product_scale * row[j] : 0.0;
            double magnitude = c.alpha != 0.0f ? std::abs(product_scale) * row_magnitude[j] : 0.0;
            if (reads_c) {
                const double c_ij = double(c.beta) * c_operand.host.value(c_operand.index(batch, i, j));
                want += c_ij;
                magnitude += std::abs(c_ij);
            }
            if (c.bias_mode != ASYNCGEMM_BIAS_NONE) {
                const int64_t e = c.bias_mode == ASYNCGEMM_BIAS_PER_ROW ? i : j;
                const double bias = bias_.host.value(bias_.index(c.broadcast_bias ? 0 : batch, 0, e));
                want += bias;
                magnitude += std::abs(bias);
            }
            want = activation_reference(want, c.activation);
            const double got = d.value(d_.index(batch, i, j));
            const double diff = std::abs(got - want);
            nonfinite += !std::isfinite(got);
            if (!(diff <= worst)) {  // a NaN difference always wins, so a non-finite element is the one shown
                worst = std::isfinite(diff) ? diff : std::numeric_limits<double>::infinity();
                worst_i = i;
                worst_j = j;
                worst_got = got;
                worst_want = want;
            }
            error2 += diff * diff;
            reference2 += want * want;
            magnitude2 += magnitude * magnitude;
        }
    }
    // The error is relative to the reference, unless its terms nearly cancel (a tiny D, say 1 x 1):
    // then to the size a sum of k + 1 random-signed terms of these magnitudes typically has, since
    // fp32 rounding errors scale with the terms, not with what is left of them.
    const double error = std::sqrt(error2);
    const double scale = std::max(std::sqrt(reference2), 0.5 * std::sqrt(magnitude2) / std::sqrt(double(k + 1)));
    if (nonfinite == 0 && error <= tolerance * scale) return "";
    std::ostringstream s;
    s << "batch " << batch << ": ";
    if (nonfinite) s << nonfinite << " non-finite elements; ";
    s << "relative error " << (scale > 0 ? error / scale : error) << " (tolerance " << tolerance
      << "); worst D(" << worst_i << ',' << worst_j << ") = " << worst_got << ", reference " << worst_want;
    return s.str();
}

std::string GemmProblem::verify(cudaStream_t stream, asyncgemm_math_t math) const {
    HostArray d(d_.host.dtype(), d_.host.count());
    d_.device.download(d.data(), stream);
    const double tolerance = gemm_tolerance(case_.type_ab, case_.type_cd, math);
    std::string failures;
    std::vector<bool> in_window(d.count(), false);
    for (int64_t batch = 0; batch < case_.batch_count; ++batch) {
        for (int64_t i = 0; i < case_.m; ++i)
            for (int64_t j = 0; j < case_.n; ++j) in_window[static_cast<size_t>(d_.index(batch, i, j))] = true;
        const std::string failure = verify_batch(batch, d, tolerance);
        if (!failure.empty()) failures += (failures.empty() ? "" : "\n  ") + failure;
    }
    size_t overwritten = 0, first = 0;
    for (size_t e = 0; e < d.count(); ++e)
        if (!in_window[e] && d.bits(e) != d_.host.bits(e) && overwritten++ == 0) first = e;
    if (overwritten) {
        std::ostringstream s;
        s << overwritten << " elements outside D's windows (padding, batch gaps, guards) changed; the first at "
          << static_cast<int64_t>(first) - d_.front << " elements from d";
        failures += (failures.empty() ? "" : "\n  ") + s.str();
    }
    return failures;
}

std::string GemmProblem::verify_untouched(cudaStream_t stream) const {
    HostArray d(d_.host.dtype(), d_.host.count());
    d_.device.download(d.data(), stream);
    size_t changed = 0;
    for (size_t e = 0; e < d.count(); ++e) changed += d.bits(e) != d_.host.bits(e);
    return changed ? std::to_string(changed) + " elements of D changed although the call failed" : "";
}

std::vector<unsigned char> GemmProblem::d_bytes(cudaStream_t stream) const {
    std::vector<unsigned char> bytes(d_.device.bytes());
    d_.device.download(bytes.data(), stream);
    return bytes;
}

std::string run_gemm_with(const std::function<asyncgemm_status_t(const GemmCall &)> &launch, const GemmCase &gemm_case,
                          Rng &rng, cudaStream_t stream, asyncgemm_math_t math, bool *refused) {
    GemmProblem problem(gemm_case);
    problem.fill(rng, stream);
    const asyncgemm_status_t status = launch(problem.call());
    const std::string message = asyncgemm_last_error();
    const std::string message_failure = status == ASYNCGEMM_STATUS_SUCCESS ? "" : check_last_error();
    *refused = status != ASYNCGEMM_STATUS_SUCCESS;
    std::string failure;
    if (status == ASYNCGEMM_STATUS_SUCCESS) {
        failure = problem.verify(stream, math);
    } else if (gemm_case.algo != ASYNCGEMM_ALGO_AUTO &&
               (status == ASYNCGEMM_STATUS_NOT_SUPPORTED || status == ASYNCGEMM_STATUS_MISALIGNED)) {
        failure = message_failure.empty() ? problem.verify_untouched(stream) : message_failure;
    } else {
        failure = std::string("returned ") + asyncgemm_status_string(status) + ": " + message;
    }
    return failure.empty() ? "" : gemm_case.describe() + "\n  " + failure;
}

std::string run_gemm(asyncgemm_handle_t handle, const GemmCase &gemm_case, Rng &rng, cudaStream_t stream,
                     asyncgemm_math_t math, bool *refused) {
    const auto api = [&](const GemmCall &x) { return call_api(handle, x, gemm_case, stream); };
    return run_gemm_with(api, gemm_case, rng, stream, math, refused);
}

}  // namespace agtest
