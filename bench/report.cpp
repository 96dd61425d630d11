#include "report.h"

#include <algorithm>
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
        << "algorithms  " << algorithm_list(info.algorithms);
    if (!info.unavailable.empty()) out << "; not on this device: " << algorithm_list(info.unavailable);
    out << '\n';
}

void print_gemm_table(std::ostream &out, const std::vector<GemmResult> &results) {
    out << "\nGEMM: row-major D = op_a(A) op_b(B), alpha 1, beta 0, median of timed runs; "
           "x cuBLAS > 1 is faster than cuBLAS; SM MHz, mJ/run and C: the GPU's mean clock, energy per run "
           "and temperature over the timed runs\n";
    TextTable table({{"workload", false}, {"algorithm", false}, {"median ms", true}, {"TFLOP/s", true},
                     {"x cuBLAS", true}, {"max rel err", true}, {"SM MHz", true}, {"mJ/run", true}, {"C", true},
                     {"result", false}});
    std::string previous_workload;
    for (const GemmResult &r : results) {
        const std::string workload = describe(r.workload);
        table.add({workload == previous_workload ? "" : workload, r.algorithm, format(r.median_ms, "%.4f", "-"),
                   format_rate(r.tflops()), format(r.vs_cublas, "%.2f", "-"),
                   format(r.max_rel_err, "%.2e", "-"), format(r.sm_mhz, "%.0f", "-"),
                   format(r.mj_per_run, "%.1f", "-"), format(r.temperature_c, "%.0f", "-"),
                   result_text(r.outcome, r.note)});
        previous_workload = workload;
    }
    table.print(out);
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
    if (!results.gemm.empty()) print_gemm_table(out, results.gemm);
    if (!results.copy.empty()) print_copy_table(out, results.copy);
    out.flush();
}

void write_csv(const std::string &path, const RunInfo &info, const Results &results) {
    std::ofstream out(path);
    if (!out) throw BenchError("cannot open " + path + " for writing");
    write_csv_line(out, {"device", "section", "workload", "m", "n", "k", "dtype", "ops", "algorithm", "layout",
                         "vector_bytes", "median_ms", "tflops", "gb_per_s", "ratio", "max_rel_err", "result", "note",
                         "sm_mhz", "mj_per_run", "temperature_c"});
    for (const GemmResult &r : results.gemm) {
        const GemmWorkload &w = r.workload;
        write_csv_line(out, {info.device_name, "gemm", describe(w), std::to_string(w.m), std::to_string(w.n),
                             std::to_string(w.k), w.tf32 ? "tf32" : dtype_name(w.dtype),
                             std::string{op_letter(w.op_a), op_letter(w.op_b)}, r.algorithm, "", "",
                             format(r.median_ms, "%.6g", ""), format(r.tflops(), "%.6g", ""), "",
                             format(r.vs_cublas, "%.6g", ""), format(r.max_rel_err, "%.6g", ""),
                             outcome_word(r.outcome), r.note, format(r.sm_mhz, "%.0f", ""),
                             format(r.mj_per_run, "%.6g", ""), format(r.temperature_c, "%.0f", "")});
    }
    for (const CopyResult &r : results.copy) {
        write_csv_line(out, {info.device_name, "copy", copy_workload(r), std::to_string(r.rows),
                             std::to_string(r.cols), "", "f32", r.op ? std::string(1, op_letter(*r.op)) : "",
                             r.algorithm, r.layout == "-" ? "" : r.layout,
                             r.op ? std::to_string(r.vector_bytes) : "", format(r.median_ms, "%.6g", ""), "",
                             format(r.gb_per_s(), "%.6g", ""), format(r.vs_d2d, "%.6g", ""), "",
                             outcome_word(r.outcome), r.note, "", "", ""});
    }
    out.close();
    if (!out) throw BenchError("could not finish writing " + path);
}

}  // namespace bench
