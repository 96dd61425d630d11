#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <utility>

#include "check.h"
#include "enums.h"

namespace bench {

namespace {

struct Column {
    const char *title;
    bool right_aligned;
};

// Columns as wide as their widest cell, two spaces apart; the last one, free text, is not padded.
class TextTable {
public:
    explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

    void add(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

    void print(std::ostream &out) const {
        std::vector<std::string> titles;
        for (const Column &column : columns_) titles.push_back(column.title);
        std::vector<std::size_t> widths(columns_.size());
        for (std::size_t i = 0; i < columns_.size(); ++i) {
            widths[i] = titles[i].size();
            for (const std::vector<std::string> &row : rows_) widths[i] = std::max(widths[i], row[i].size());
        }
        print_line(out, titles, widths);
        for (const std::vector<std::string> &row : rows_) print_line(out, row, widths);
    }

private:
    void print_line(std::ostream &out, const std::vector<std::string> &cells,
                    const std::vector<std::size_t> &widths) const {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string padding(widths[i] - cells[i].size(), ' ');
            const bool last = i + 1 == cells.size();
            if (i > 0) line += "  ";
            line += columns_[i].right_aligned ? padding + cells[i] : cells[i] + (last ? "" : padding);
        }
        out << line << '\n';
    }

    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
};

// printf-formatted, or "-" (terminal) / "" (CSV) when there is no value.
std::string format(const std::optional<double> &value, const char *printf_format, const char *none) {
    if (!value) return none;
    char text[32];
    std::snprintf(text, sizeof text, printf_format, *value);
    return text;
}

// 652.6, 40.7, 0.0381: a decimal for large rates, three significant digits for small ones.
std::string format_rate(const std::optional<double> &rate) {
    return format(rate, rate && *rate >= 100.0 ? "%.1f" : "%#.3g", "-");
}

const char *outcome_word(Outcome outcome) {
    switch (outcome) {
    case Outcome::ok: return "ok";
    case Outcome::skipped: return "skipped";
    case Outcome::failed: return "FAILED";
    }
    return "?";
}

std::string result_text(Outcome outcome, const std::string &note) {
    return note.empty() ? outcome_word(outcome) : std::string(outcome_word(outcome)) + ": " + note;
}

// 13000 -> "13.0": CUDA's version numbers are 1000 * major + 10 * minor.
std::string cuda_version(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string algorithm_list(const std::vector<asyncgemm_algo_t> &algorithms) {
    std::string list;
    for (asyncgemm_algo_t algo : algorithms) list += (list.empty() ? "" : " ") + std::string(algo_name(algo));
    return list.empty() ? "none" : list;
}

std::string copy_workload(const CopyResult &r) {
    return std::to_string(r.rows) + "x" + std::to_string(r.cols) + " f32";
}

void print_header(std::ostream &out, const RunInfo &info) {
    out << "asyncgemm-bench, " << info.date << '\n'
        << "device      " << info.device << ": " << info.device_name << ", compute capability " << info.cc_major
        << '.' << info.cc_minor << ", " << info.sm_count << " SMs, " << (info.l2_bytes >> 20) << " MiB L2\n"
        << "software    driver " << cuda_version(info.driver_version) << ", runtime "
        << cuda_version(info.runtime_version) << ", asyncgemm " << info.asyncgemm_version << ", " << info.cublas
        << '\n'
        << "monitor     " << info.monitor << '\n'
        << "seed        " << info.seed << " (--seed " << info.seed << " repeats these inputs)\n"
        << "timing      " << info.timing << (info.autotune ? ", the handle autotuned" : "") << '\n'
        << "algorithms  " << algorithm_list(info.algorithms);
    if (!info.unavailable.empty()) out << "; not on this device: " << algorithm_list(info.unavailable);
    out << '\n';
}

void print_gemm_table(std::ostream &out, const std::vector<const GemmResult *> &results, bool bursts) {
    bool labelled = false;
    for (const GemmResult *r : results) labelled = labelled || !r->workload.label.empty();
    std::vector<Column> columns = {{"workload", false}};
    if (labelled) columns.push_back({"what", false});
    for (const Column &column : std::vector<Column>{{"algorithm", false}, {"median ms", true}, {"TFLOP/s", true},
                                                    {"GB/s", true}, {"x cuBLAS", true}, {"max rel err", true},
                                                    {"SM MHz", true}, {"mJ/run", true}, {"C", true},
                                                    {"result", false}})
        columns.push_back(column);
    TextTable table(columns);
    std::string previous_workload;
    for (const GemmResult *r : results) {
        const std::string workload = describe(r->workload);
        const bool first = workload != previous_workload;
        std::vector<std::string> cells = {first ? workload : ""};
        if (labelled) cells.push_back(first ? r->workload.label : "");
        for (std::string cell : {r->algorithm, format(r->median_ms, bursts ? "%.5f" : "%.4f", "-"),
                                 format_rate(r->tflops()), format_rate(r->gb_per_s()),
                                 format(r->vs_cublas, "%.2f", "-"), format(r->max_rel_err, "%.2e", "-"),
                                 format(r->sm_mhz, "%.0f", "-"), format(r->mj_per_run, "%.1f", "-"),
                                 format(r->temperature_c, "%.0f", "-"), result_text(r->outcome, r->note)})
            cells.push_back(std::move(cell));
        table.add(std::move(cells));
        previous_workload = workload;
    }
    table.print(out);
}

// Ratios of one kind (an algorithm against one reference): their geometric mean and the least.
class RatioSummary {
public:
    void add(double ratio, const GemmResult &row) {
        log_sum_ += std::log(ratio);
        ++count_;
        if (!worst_ || ratio < worst_ratio_) worst_ = &row, worst_ratio_ = ratio;
    }

    // "llm-prefill: AUTO geometric mean 0.981x cuBLAS over 40 workloads; worst 0.85x at <workload> (<label>)"
    void print(std::ostream &out, const std::string &title, const std::string &algorithm,
               const std::string &against) const {
        if (count_ == 0) return;
        char line[256];
        std::snprintf(line, sizeof line, "%s: %s geometric mean %.3fx %s over %d workloads; worst %.2fx at ",
                      title.c_str(), algorithm.c_str(), std::exp(log_sum_ / count_), against.c_str(), count_,
                      worst_ratio_);
        out << line << describe(worst_->workload)
            << (worst_->workload.label.empty() ? "" : " (" + worst_->workload.label + ")") << '\n';
    }

private:
    double log_sum_ = 0.0;
    int count_ = 0;
    const GemmResult *worst_ = nullptr;
    double worst_ratio_ = 0.0;
};

// What a reference row is read as: its library, cuBLAS's plain GEMM standing in for an epilogue
// cuBLASLt does not have, or cuBLASLt's block-scaled FP8, summed apart from its tensor-scaled FP8.
std::string reference_text(const GemmResult &reference) {
    if (reference.workload.has_epilogue() && reference.algorithm == "cuBLAS") return "cuBLAS plain GEMM";
    return reference.workload.block_scales ? reference.algorithm + " block-scaled" : reference.algorithm;
}

void add_unique(std::vector<std::string> &list, const std::string &item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

constexpr const char *kPassRow = "GEMM+pass";

// The same product with bf16 inputs, which a tensor-scaled 8-bit workload's speed-up is read against.
std::optional<std::string> bf16_twin(const GemmWorkload &w) {
    if (!w.fp8() || w.block_scales) return std::nullopt;
    GemmWorkload twin = w;
    twin.dtype = ASYNCGEMM_R_16BF;
    twin.b_other_format = false;
    return describe(twin);
}

// The same product with tensor scales, which a block-scaled workload's cost is read against.
std::optional<std::string> tensor_scaled_twin(const GemmWorkload &w) {
    if (!w.block_scales) return std::nullopt;
    GemmWorkload twin = w;
    twin.block_scales = false;
    return describe(twin);
}

// Per algorithm: its time on each workload whose twin is in the table against its own time on the
// twin (the twin's median over the workload's), geometric mean and worst row, "<algorithm> <on>".
template <typename Twin>
void print_twin_summary(std::ostream &out, const std::string &title, const std::vector<const GemmResult *> &results,
                        const std::vector<std::string> &algorithms, Twin twin, const std::string &on) {
    for (const std::string &algorithm : algorithms) {
        RatioSummary summary;
        for (const GemmResult *row : results) {
            const std::optional<std::string> spec = twin(row->workload);
            if (row->algorithm != algorithm || !row->median_ms || !spec) continue;
            for (const GemmResult *r : results)
                if (r->algorithm == algorithm && r->median_ms && describe(r->workload) == *spec)
                    summary.add(*r->median_ms / *row->median_ms, *row);
        }
        summary.print(out, title, algorithm, algorithm + " " + on);
    }
}

// Per algorithm and reference: the geometric mean of x cuBLAS (or x cuBLASLt) over the rows that
// have one, and the worst row; then, where workloads have a GEMM+pass row, each fused algorithm's
// time against it (GEMM+pass's median over the algorithm's: above 1, fusing is faster); and where an
// 8-bit workload's bf16 twin is in the table too (the fp8 suite), each algorithm's tensor-scaled 8-bit
// time against its bf16 one (the bf16 median over the 8-bit one: the speed-up of FP8), and its
// block-scaled time against its tensor-scaled one (what the block scales cost).
void print_summary(std::ostream &out, const std::string &title, const std::vector<const GemmResult *> &results) {
    // A workload's rows follow its reference row, where it has one.
    std::vector<std::string> references(results.size());
    std::string current;
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (i > 0 && describe(results[i]->workload) != describe(results[i - 1]->workload)) current.clear();
        if (results[i]->reference) current = reference_text(*results[i]);
        references[i] = current;
    }
    std::vector<std::string> algorithms, against;
    for (std::size_t i = 0; i < results.size(); ++i)
        if (!results[i]->reference && results[i]->vs_cublas) {
            add_unique(algorithms, results[i]->algorithm);
            add_unique(against, references[i]);
        }
    for (const std::string &algorithm : algorithms)
        for (const std::string &reference : against) {
            RatioSummary summary;
            for (std::size_t i = 0; i < results.size(); ++i)
                if (results[i]->algorithm == algorithm && references[i] == reference && results[i]->vs_cublas)
                    summary.add(*results[i]->vs_cublas, *results[i]);
            summary.print(out, title, algorithm, reference);
        }

    for (const std::string &algorithm : algorithms) {
        if (algorithm == kPassRow) continue;
        RatioSummary summary;
        for (const GemmResult *pass : results) {
            if (pass->algorithm != kPassRow || !pass->median_ms) continue;
            for (const GemmResult *r : results)
                if (r->algorithm == algorithm && r->median_ms && describe(r->workload) == describe(pass->workload))
                    summary.add(*pass->median_ms / *r->median_ms, *r);
        }
        summary.print(out, title, algorithm, kPassRow);
    }

    print_twin_summary(out, title, results, algorithms, bf16_twin, "on bf16");
    print_twin_summary(out, title, results, algorithms, tensor_scaled_twin, "on tensor scales");
}

// One table per suite, in the order the rows ran, and the rows of no suite (the seed workloads and
// --shape) in one of their own; each followed by its summary.
void print_gemm_tables(std::ostream &out, const std::vector<GemmResult> &results, const std::string &timing) {
    const bool bursts = timing != "events";
    out << "\nGEMM: row-major D = op_a(A) op_b(B) + beta C, alpha 1 (e4m3 and e5m2: A and B scaled by 0.5 and "
           "0.25, or with scales=block by 0.25 to 4 per 1x128 block of A and 128x128 block of B), median "
        << (timing == "graphs" ? "GPU time per call in replayed graphs of bursts"
                               : bursts ? "GPU time per call in bursts" : "of timed runs")
        << "; x cuBLAS > 1 is faster than the workload's reference (cuBLAS; for bias= and act= workloads cuBLASLt "
           "with the epilogue, or cuBLAS's plain GEMM where it has none; for e4m3 and e5m2 workloads cuBLASLt's FP8 "
           "matmul); GEMM+pass: AUTO's plain GEMM, then a separate bias and activation pass; GB/s counts A and B "
           "read once, C read, D written; SM MHz, mJ/run and C: the GPU's mean clock, energy per run and "
           "temperature over the timed runs\n";
    std::vector<std::string> groups;
    for (const GemmResult &r : results)
        if (std::find(groups.begin(), groups.end(), r.workload.suite) == groups.end()) groups.push_back(r.workload.suite);
    for (const std::string &group : groups) {
        std::vector<const GemmResult *> rows;
        for (const GemmResult &r : results)
            if (r.workload.suite == group) rows.push_back(&r);
        out << '\n' << (group.empty() ? std::string("workloads") : "suite " + group) << '\n';
        print_gemm_table(out, rows, bursts);
        print_summary(out, group.empty() ? std::string("workloads") : group, rows);
    }
}

void print_copy_table(std::ostream &out, const std::vector<CopyResult> &results) {
    out << "\ncopy2d: " << copy_workload(results.front())
        << ", alpha 1; GB/s counts bytes read and written; x D2D > 1 is faster than the device-to-device copy\n";
    TextTable table({{"op", false}, {"algorithm", false}, {"layout", false}, {"vector", true}, {"median ms", true},
                     {"GB/s", true}, {"x D2D", true}, {"result", false}});
    for (const CopyResult &r : results)
        table.add({r.op ? std::string(1, op_letter(*r.op)) : "-", r.algorithm, r.layout,
                   r.op ? (r.vector_bytes ? std::to_string(r.vector_bytes) + " B" : std::string("auto")) : "-",
                   format(r.median_ms, "%.4f", "-"), format_rate(r.gb_per_s()),
                   format(r.vs_d2d, "%.2f", "-"), result_text(r.outcome, r.note)});
    table.print(out);
}

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string &text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

void write_csv_line(std::ostream &out, const std::vector<std::string> &fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << '\n';
}

}  // namespace

void print_report(std::ostream &out, const RunInfo &info, const Results &results) {
    print_header(out, info);
    if (!results.gemm.empty()) print_gemm_tables(out, results.gemm, info.timing);
    if (!results.copy.empty()) print_copy_table(out, results.copy);
    out.flush();
}

void write_csv(const std::string &path, const RunInfo &info, const Results &results) {
    std::ofstream out(path);
    if (!out) throw BenchError("cannot open " + path + " for writing");
    write_csv_line(out, {"device", "section", "workload", "m", "n", "k", "dtype", "ops", "algorithm", "layout",
                         "vector_bytes", "median_ms", "tflops", "gb_per_s", "ratio", "max_rel_err", "result", "note",
                         "sm_mhz", "mj_per_run", "temperature_c", "suite", "label", "batch", "out_dtype", "pad",
                         "beta", "in_place", "timing", "bias", "activation"});
    for (const GemmResult &r : results.gemm) {
        const GemmWorkload &w = r.workload;
        write_csv_line(out, {info.device_name, "gemm", describe(w), std::to_string(w.m), std::to_string(w.n),
                             std::to_string(w.k), type_text(w),
                             std::string{op_letter(w.op_a), op_letter(w.op_b)}, r.algorithm, "", "",
                             format(r.median_ms, "%.6g", ""), format(r.tflops(), "%.6g", ""),
                             format(r.gb_per_s(), "%.6g", ""), format(r.vs_cublas, "%.6g", ""),
                             format(r.max_rel_err, "%.6g", ""), outcome_word(r.outcome), r.note,
                             format(r.sm_mhz, "%.0f", ""), format(r.mj_per_run, "%.6g", ""),
                             format(r.temperature_c, "%.0f", ""), w.suite, w.label, std::to_string(w.batch),
                             dtype_name(w.out), std::to_string(w.pad), format(double(w.beta), "%g", ""),
                             w.in_place ? "1" : "0", info.timing, bias_text(w), activation_text(w.activation)});
    }
    for (const CopyResult &r : results.copy) {
        write_csv_line(out, {info.device_name, "copy", copy_workload(r), std::to_string(r.rows),
                             std::to_string(r.cols), "", "f32", r.op ? std::string(1, op_letter(*r.op)) : "",
                             r.algorithm, r.layout == "-" ? "" : r.layout,
                             r.op ? std::to_string(r.vector_bytes) : "", format(r.median_ms, "%.6g", ""), "",
                             format(r.gb_per_s(), "%.6g", ""), format(r.vs_d2d, "%.6g", ""), "",
                             outcome_word(r.outcome), r.note, "", "", "", "", "", "", "", "", "", "", info.timing, "",
                             ""});
    }
    out.close();
    if (!out) throw BenchError("could not finish writing " + path);
}

}  // namespace bench
