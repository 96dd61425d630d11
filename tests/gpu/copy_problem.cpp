#include "copy_problem.h"

#include <algorithm>
#include <sstream>

namespace agtest {

namespace {
constexpr int64_t kGuard = 32;  // poisoned elements on each side of dst's allocation

// dst = op(src): src is rows x cols for OP_N and cols x rows for OP_T.
MatrixLayout src_layout(const CopyCase &c) {
    return MatrixLayout::of_op(c.rows, c.cols, c.op, c.order, c.ld_src_pad);
}

size_t allocation(const MatrixLayout &layout, int64_t front, int64_t back) {
    return static_cast<size_t>(front + std::max<int64_t>(layout.span(), 1) + back);
}
}  // namespace

std::string CopyCase::describe() const {
    std::ostringstream s;
    s << "copy2d " << dtype_name(dtype) << ' ' << order_name(order) << " op=" << op_name(op)
      << " algo=" << copy_algo_name(algo) << " layout=" << layout_name(layout) << " vector_bytes=" << vector_bytes
      << " rows=" << rows << " cols=" << cols << " ld_pad=(" << ld_src_pad << ',' << ld_dst_pad << ')';
    if (offset_src || offset_dst) s << " offset=" << (offset_src ? "src" : "") << (offset_dst ? "dst" : "");
    s << " alpha=" << alpha;
    return s.str();
}

CopyCase random_copy_case(Rng &rng, int64_t max_dim) {
    const auto dim = [&] {
        return chance(rng, 0.5) ? std::min(pick(rng, kTailSizes), max_dim) : uniform(rng, 1, max_dim);
    };
    const auto odd_pad = [&] { return chance(rng, 0.5) ? 2 * uniform(rng, 0, 8) + 1 : 0; };
    CopyCase c;
    c.rows = dim();
    c.cols = dim();
    c.ld_src_pad = odd_pad();
    c.ld_dst_pad = odd_pad();
    c.offset_src = chance(rng, 0.3);
    c.offset_dst = chance(rng, 0.3);
    return c;
}

CopyProblem::CopyProblem(const CopyCase &c)
    : case_(c), src_layout_(src_layout(c)), dst_layout_(MatrixLayout::padded(c.rows, c.cols, c.order, c.ld_dst_pad)),
      src_front_(c.offset_src), dst_front_(kGuard + c.offset_dst),
      src_host_(c.dtype, allocation(src_layout_, src_front_, 0)),
      dst_host_(c.dtype, allocation(dst_layout_, dst_front_, kGuard)), src_device_(src_host_.bytes()),
      dst_device_(dst_host_.bytes()) {}

void CopyProblem::fill(Rng &rng, cudaStream_t stream) {
    const bool bit_patterns = case_.alpha == 1.0f;
    const uint32_t bit_mask = element_size(case_.dtype) == 4 ? 0xFFFFFFFFu : 0xFFFFu;
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (int64_t row = 0; row < src_layout_.rows; ++row)
        for (int64_t col = 0; col < src_layout_.cols; ++col) {
            const auto at = static_cast<size_t>(src_front_ + src_layout_.offset(row, col));
            if (bit_patterns)
                src_host_.set_bits(at, static_cast<uint32_t>(rng()) & bit_mask);
            else
                src_host_.set(at, value(rng));
        }
    src_device_.upload(src_host_.data(), stream);
    dst_device_.upload(dst_host_.data(), stream);  // all poison: dst_host_ is never written
}

asyncgemm_status_t CopyProblem::launch(asyncgemm_handle_t handle, cudaStream_t stream) const {
    const size_t bytes = element_size(case_.dtype);
    return asyncgemm_copy2d(handle, case_.order, case_.op, case_.rows, case_.cols, case_.alpha,
                            src_device_.get() + src_front_ * bytes, src_layout_.ld,
                            dst_device_.get() + dst_front_ * bytes, dst_layout_.ld, case_.dtype, case_.algo,
                            case_.layout, case_.vector_bytes, stream);
}

std::string CopyProblem::verify(cudaStream_t stream) const {
    HostArray dst(case_.dtype, dst_host_.count());
    dst_device_.download(dst.data(), stream);
    HostArray expected = dst_host_;
    std::vector<bool> in_window(dst.count(), false);
    for (int64_t i = 0; i < case_.rows; ++i)
        for (int64_t j = 0; j < case_.cols; ++j) {
            const auto at = static_cast<size_t>(dst_front_ + dst_layout_.offset(i, j));
            const auto from = static_cast<size_t>(src_front_ + (case_.op == ASYNCGEMM_OP_N ? src_layout_.offset(i, j)
                                                                                           : src_layout_.offset(j, i)));
            in_window[at] = true;
            if (case_.alpha == 1.0f)
                expected.set_bits(at, src_host_.bits(from));
            else
                expected.set(at, case_.alpha * static_cast<float>(src_host_.value(from)));
        }
    size_t wrong = 0, outside = 0, first_wrong = 0, first_outside = 0;
    for (size_t e = 0; e < dst.count(); ++e) {
        if (dst.bits(e) == expected.bits(e)) continue;
        if (in_window[e] && wrong++ == 0) first_wrong = e;
        if (!in_window[e] && outside++ == 0) first_outside = e;
    }
    std::ostringstream s;
    if (wrong) {
        const int64_t at = static_cast<int64_t>(first_wrong) - dst_front_;
        s << wrong << " elements of dst's window wrong; the first " << at << " elements from dst: bits 0x" << std::hex
          << dst.bits(first_wrong) << ", expected 0x" << expected.bits(first_wrong) << std::dec;
    }
    if (outside) {
        s << (wrong ? "; " : "") << outside << " elements outside dst's window (padding, guards) changed; the first "
          << static_cast<int64_t>(first_outside) - dst_front_ << " elements from dst";
    }
    return s.str();
}

std::string CopyProblem::verify_untouched(cudaStream_t stream) const {
    HostArray dst(case_.dtype, dst_host_.count());
    dst_device_.download(dst.data(), stream);
    size_t changed = 0;
    for (size_t e = 0; e < dst.count(); ++e) changed += dst.bits(e) != dst_host_.bits(e);
    return changed ? std::to_string(changed) + " elements of dst changed although the call failed" : "";
}

std::string run_copy(asyncgemm_handle_t handle, const CopyCase &copy_case, Rng &rng, cudaStream_t stream,
                     bool *refused) {
    CopyProblem problem(copy_case);
    problem.fill(rng, stream);
    const asyncgemm_status_t status = problem.launch(handle, stream);
    const std::string message = asyncgemm_last_error();
    const std::string message_failure = status == ASYNCGEMM_STATUS_SUCCESS ? "" : check_last_error();
    *refused = status != ASYNCGEMM_STATUS_SUCCESS;
    const bool refusal_status = status == ASYNCGEMM_STATUS_INVALID_VALUE || status == ASYNCGEMM_STATUS_MISALIGNED ||
                                status == ASYNCGEMM_STATUS_NOT_SUPPORTED;
    std::string failure;
    if (status == ASYNCGEMM_STATUS_SUCCESS)
        failure = problem.verify(stream);
    else if (!copy_case.all_automatic() && refusal_status)
        failure = message_failure.empty() ? problem.verify_untouched(stream) : message_failure;
    else
        failure = std::string("returned ") + asyncgemm_status_string(status) + ": " + message;
    return failure.empty() ? "" : copy_case.describe() + "\n  " + failure;
}

}  // namespace agtest
