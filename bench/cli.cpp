#include "cli.h"

#include <stdexcept>

namespace bench {

namespace {

// An unsigned decimal integer that fills the whole text, or nothing.
std::optional<unsigned long long> parse_unsigned(const std::string &text) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    try {
        return std::stoull(text);
    } catch (const std::out_of_range &) {
        return std::nullopt;
    }
}

}  // namespace

Options parse_options(int argc, char **argv) {
    Options options;
    std::vector<GemmWorkload> shapes;
    bool with_defaults = true, gemm_only = false, copy_only = false;

    for (int i = 1; i < argc; ++i) {
        std::string name = argv[i];
        std::optional<std::string> attached;  // the VALUE of --name=VALUE
        const std::size_t equals = name.find('=');
        if (name.rfind("--", 0) == 0 && equals != std::string::npos) {
            attached = name.substr(equals + 1);
            name.resize(equals);
        }
        auto value = [&]() -> std::string {
            if (attached) return *attached;
            if (i + 1 >= argc) throw std::invalid_argument(name + " needs a value");
            return argv[++i];
        };
        auto no_value = [&]() {
            if (attached) throw std::invalid_argument(name + " takes no value");
        };

        if (name == "--help" || name == "-h") {
            no_value();
            options.show_help = true;
        } else if (name == "--shape") {
            shapes.push_back(parse_workload(value()));
        } else if (name == "--no-defaults") {
            no_value();
            with_defaults = false;
        } else if (name == "--gemm-only") {
            no_value();
            gemm_only = true;
        } else if (name == "--copy-only") {
            no_value();
            copy_only = true;
        } else if (name == "--runs") {
            const std::string text = value();
            const auto runs = parse_unsigned(text);
            if (!runs || *runs < 1 || *runs > 1000000)
                throw std::invalid_argument("--runs '" + text + "' is not an integer in [1, 1000000]");
            options.min_runs = static_cast<int>(*runs);
        } else if (name == "--seed") {
            const std::string text = value();
            const auto seed = parse_unsigned(text);
            if (!seed) throw std::invalid_argument("--seed '" + text + "' is not an unsigned 64-bit integer");
            options.seed = *seed;
        } else if (name == "--csv") {
            options.csv_path = value();
            if (options.csv_path.empty()) throw std::invalid_argument("--csv needs a file name");
        } else {
            throw std::invalid_argument("unknown argument '" + std::string(argv[i]) + "'");
        }
    }

    if (gemm_only && copy_only) throw std::invalid_argument("--gemm-only and --copy-only exclude each other");
    if (!copy_only) {
        if (with_defaults) options.workloads = default_workloads();
        options.workloads.insert(options.workloads.end(), shapes.begin(), shapes.end());
    }
    options.run_copy = !gemm_only;
    if (options.workloads.empty() && !options.run_copy && !options.show_help)
        throw std::invalid_argument("--no-defaults with --gemm-only needs at least one --shape");
    return options;
}

void print_usage(std::ostream &out) {
    out << "usage: asyncgemm-bench [options]\n"
           "\n"
           "Times every available asyncgemm algorithm against cuBLAS on the seed GEMM workloads and\n"
           "asyncgemm_copy2d against a device-to-device copy, on CUDA device 0 (pick another with\n"
           "CUDA_VISIBLE_DEVICES).  Prints a table; exits 1 if any result is wrong, 2 without a GPU.\n"
           "\n"
           "  --shape MxNxK:dtype:ops  add a GEMM workload; dtype f16, bf16, f32 or tf32 (f32 data\n"
           "                           multiplied in TF32 by both libraries); ops NN, NT, TN or TT\n"
           "                           (e.g. 2048x2048x256:f32:NT is D = A * B^T); repeatable\n"
           "  --no-defaults            run only the --shape workloads, not the seed ones:\n"
           "                           4096x4096x4096:f16:NN 1024x1024x14336:f16:NN\n"
           "                           2048x2048x256:f32:NT 4096x4096x4096:f32:NN\n"
           "  --gemm-only              skip the copy2d section\n"
           "  --copy-only              skip the GEMM section\n"
           "  --runs N                 at least N timed runs per row (default 30; more if they take\n"
           "                           under 1 s together)\n"
           "  --seed S                 seed the input generator with S (default: from the clock;\n"
           "                           the table prints the seed used)\n"
           "  --csv FILE               also write every row to FILE as CSV\n"
           "  --help                   this text\n";
}

}  // namespace bench
