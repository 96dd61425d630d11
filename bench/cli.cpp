#include "cli.h"

#include <stdexcept>

#include "enums.h"
#include "suites.h"

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
    std::vector<GemmWorkload> shapes, suite_workloads;
    bool with_defaults = true, gemm_only = false, copy_only = false, any_suite = false;
    std::optional<TimingMode> timing;

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
        } else if (name == "--suite") {
            const std::string suite = value();
            any_suite = true;
            if (suite == "all") {
                for (const Suite &each : all_suites())
                    suite_workloads.insert(suite_workloads.end(), each.workloads.begin(), each.workloads.end());
            } else if (const Suite *found = find_suite(suite)) {
                suite_workloads.insert(suite_workloads.end(), found->workloads.begin(), found->workloads.end());
            } else {
                throw std::invalid_argument("--suite '" + suite + "' is not a suite (--list shows them)");
            }
        } else if (name == "--fuse") {
            options.fuse = parse_fused_epilogue(value());
        } else if (name == "--list") {
            no_value();
            options.list_suites = true;
        } else if (name == "--algos") {
            std::vector<asyncgemm_algo_t> algos;
            for (const std::string &item : split(value(), ',')) {
                const std::optional<asyncgemm_algo_t> algo = parse_algo(item);
                if (!algo) throw std::invalid_argument("--algos: '" + item + "' is not an algorithm (AUTO, SIMT, "
                                                       "ASYNC_COPY, PIPELINED, SM90_TMA_WGMMA, SM100_TCGEN05)");
                algos.push_back(*algo);
            }
            options.algorithms = algos;
        } else if (name == "--timing") {
            const std::string text = value();
            if (text == "events") timing = TimingMode::events;
            else if (text == "bursts") timing = TimingMode::bursts;
            else if (text == "graphs") timing = TimingMode::graphs;
            else throw std::invalid_argument("--timing '" + text + "' is not events, bursts or graphs");
        } else if (name == "--autotune") {
            no_value();
            options.autotune = true;
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
    if (options.fuse && !any_suite && !options.list_suites)
        throw std::invalid_argument("--fuse is for suites and --list (--shape takes bias= and act=)");
    if (options.fuse)
        for (GemmWorkload &workload : suite_workloads) workload = with_epilogue(workload, *options.fuse);
    if (any_suite && copy_only) throw std::invalid_argument("--suite and --copy-only exclude each other");
    // A suite run is a GEMM run of its own: no seed workloads, no copy section but its baseline (the
    // bandwidth the GB/s column is read against), AUTO alone unless --algos says otherwise, timed in
    // bursts unless --timing says otherwise.
    if (any_suite) {
        with_defaults = false;
        gemm_only = true;
        options.copy_baseline = true;
        if (!options.algorithms) options.algorithms = std::vector<asyncgemm_algo_t>{ASYNCGEMM_ALGO_AUTO};
    }
    options.timing = timing.value_or(any_suite ? TimingMode::bursts : TimingMode::events);
    if (!copy_only) {
        options.workloads = suite_workloads;
        if (with_defaults) {
            const std::vector<GemmWorkload> seeds = default_workloads();
            options.workloads.insert(options.workloads.end(), seeds.begin(), seeds.end());
        }
        options.workloads.insert(options.workloads.end(), shapes.begin(), shapes.end());
    }
    options.run_copy = !gemm_only;
    if (options.workloads.empty() && !options.run_copy && !options.show_help && !options.list_suites)
        throw std::invalid_argument("--no-defaults with --gemm-only needs at least one --shape");
    return options;
}

void print_usage(std::ostream &out) {
    out << "usage: asyncgemm-bench [options]\n"
           "\n"
           "Times every available asyncgemm algorithm against cuBLAS on the seed GEMM workloads and\n"
           "asyncgemm_copy2d against a device-to-device copy, on CUDA device 0 (pick another with\n"
           "CUDA_VISIBLE_DEVICES), or AUTO against cuBLAS on benchmark suites.  Prints a table;\n"
           "exits 1 if any result is wrong, 2 without a GPU.\n"
           "\n"
           "  --suite NAME             run a benchmark suite (repeatable; 'all' runs every one): no seed\n"
           "                           workloads, of the copy section its device-to-device baseline\n"
           "                           alone, AUTO alone and burst timing unless --algos and --timing\n"
           "                           say otherwise\n"
           "  --fuse EPILOGUE          bias=B:act=F, or either alone (as --shape's options): every\n"
           "                           suite workload without an epilogue of its own, not 8-bit and\n"
           "                           not of the fp8 suite runs (and --list shows it) with this one\n"
           "                           fused, against cuBLASLt's epilogue\n"
           "                           (--suite llm-prefill --fuse bias=col:act=gelu)\n"
           "  --list                   print every suite's workloads and exit\n"
           "  --shape SPEC             add a GEMM workload MxNxK:dtype:ops[:option...]; dtype f16, bf16,\n"
           "                           f32 or tf32 (f32 data multiplied in TF32 by both libraries), or\n"
           "                           e4m3 or e5m2 (8-bit A and B with a scale each, D bf16 unless out=\n"
           "                           says, against cuBLASLt's FP8 matmul, which takes NT alone); ops NN,\n"
           "                           NT, TN or TT (2048x2048x256:f32:NT is D = A * B^T); options b=N (a\n"
           "                           strided batch), out=f32 (D's type), pad=P (leading dimensions P\n"
           "                           past the rows), beta=X (D = A*B + X*C), inplace (C is D), bias=row|col\n"
           "                           (a bias per row or column of D, of D's type; row32|col32: f32),\n"
           "                           act=relu|gelu|gelu_erf|silu (an activation applied last),\n"
           "                           scales=block (e4m3 and e5m2: 1x128 scales of A, 128x128 of B),\n"
           "                           typeb=e5m2|e4m3 (8-bit B of the other format);\n"
           "                           a workload with bias= or act= runs asyncgemm_matmul with the\n"
           "                           epilogue fused, against cuBLASLt's epilogue and AUTO's GEMM plus a\n"
           "                           separate pass (GEMM+pass); repeatable\n"
           "  --algos A,B,...          time only these algorithms (AUTO, SIMT, ASYNC_COPY, PIPELINED,\n"
           "                           SM90_TMA_WGMMA, SM100_TCGEN05)\n"
           "  --timing MODE            events: each launch between its own events (host overhead counts\n"
           "                           where it exceeds the GPU's work); bursts: GPU time per call, calls\n"
           "                           queued behind a held stream, cuBLAS and asyncgemm interleaved;\n"
           "                           graphs: the same bursts captured into CUDA graphs and replayed\n"
           "  --autotune               let the handle time its configurations for each shape\n"
           "                           (asyncgemm_set_autotune) before the rows are timed\n"
           "  --no-defaults            run only the --shape workloads, not the seed ones:\n"
           "                           4096x4096x4096:f16:NN 1024x1024x14336:f16:NN\n"
           "                           2048x2048x256:f32:NT 4096x4096x4096:f32:NN\n"
           "  --gemm-only              skip the copy2d section\n"
           "  --copy-only              skip the GEMM section\n"
           "  --runs N                 at least N timed runs (or rounds of bursts) per row (default 30;\n"
           "                           more if they take under 1 s, or 0.5 s for bursts, together)\n"
           "  --seed S                 seed the input generator with S (default: from the clock;\n"
           "                           the table prints the seed used)\n"
           "  --csv FILE               also write every row to FILE as CSV\n"
           "  --help                   this text\n";
}

void print_suites(std::ostream &out, const std::optional<SuiteEpilogue> &fuse) {
    std::size_t total = 0;
    for (const Suite &suite : all_suites()) {
        out << suite.name << ": " << suite.about << " (" << suite.workloads.size() << " workloads)\n";
        for (const GemmWorkload &each : suite.workloads) {
            const GemmWorkload w = fuse ? with_epilogue(each, *fuse) : each;
            out << "  " << describe(w) << "  " << w.label << '\n';
        }
        total += suite.workloads.size();
    }
    out << total << " workloads in " << all_suites().size() << " suites\n";
}

}  // namespace bench
