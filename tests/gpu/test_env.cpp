#include "test_env.h"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

namespace agtest {

namespace {
TestEnv g_env;

// Identifier characters: a name is found only where neither neighbour extends it.
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool names_identifier(const std::string &message, const std::string &name) {
    for (size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + 1)) {
        const bool starts = at == 0 || !identifier_char(message[at - 1]);
        const size_t end = at + name.size();
        const bool ends = end == message.size() || !identifier_char(message[end]);
        if (starts && ends) return true;
    }
    return false;
}
}  // namespace

void set_test_env(const TestEnv &env) { g_env = env; }
const TestEnv &test_env() { return g_env; }

Rng rng_for(const char *name) {
    uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a
    for (const char *c = name; *c; ++c) hash = (hash ^ static_cast<unsigned char>(*c)) * 0x100000001b3ull;
    std::seed_seq seq{static_cast<uint32_t>(g_env.seed), static_cast<uint32_t>(g_env.seed >> 32),
                      static_cast<uint32_t>(hash), static_cast<uint32_t>(hash >> 32)};
    return Rng(seq);
}

int64_t uniform(Rng &rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

bool chance(Rng &rng, double probability) { return std::bernoulli_distribution(probability)(rng); }

namespace {
// Explicit algorithms, split by availability; stops at the first value the library rejects as unknown.
std::vector<asyncgemm_algo_t> explicit_gemm_algos(asyncgemm_handle_t handle, int wanted_availability) {
    constexpr int kProbeLimit = 64;  // far beyond any plausible number of families
    std::vector<asyncgemm_algo_t> algos;
    for (int value = ASYNCGEMM_ALGO_AUTO + 1; value < kProbeLimit; ++value) {
        const auto algo = static_cast<asyncgemm_algo_t>(value);
        int available = -1;
        const asyncgemm_status_t status = asyncgemm_algo_available(handle, algo, &available);
        if (status == ASYNCGEMM_STATUS_INVALID_VALUE) break;
        if (status != ASYNCGEMM_STATUS_SUCCESS || (available != 0 && available != 1))
            throw std::runtime_error("asyncgemm_algo_available(" + algo_name(algo) + ") returned " +
                                     asyncgemm_status_string(status) + ", available " + std::to_string(available));
        if (available == wanted_availability) algos.push_back(algo);
    }
    return algos;
}
}  // namespace

namespace {
// The available algorithms AG_TEST_ALGOS=PIPELINED,SIMT names (gpu.sm100 in tests/gpu/CMakeLists.txt
// runs SM100_TCGEN05 alone); all of them when it is unset.
std::vector<asyncgemm_algo_t> requested(asyncgemm_handle_t handle) {
    std::vector<asyncgemm_algo_t> algos{ASYNCGEMM_ALGO_AUTO};
    for (asyncgemm_algo_t algo : explicit_gemm_algos(handle, 1)) algos.push_back(algo);
    const char *only = getenv("AG_TEST_ALGOS");
    if (only == nullptr || *only == '\0') return algos;
    const std::string wanted = std::string(",") + only + ",";
    std::vector<asyncgemm_algo_t> chosen;
    for (asyncgemm_algo_t algo : algos)
        if (wanted.find("," + algo_name(algo) + ",") != std::string::npos) chosen.push_back(algo);
    return chosen;
}
}  // namespace

bool requested_algos_available(asyncgemm_handle_t handle) { return !requested(handle).empty(); }

std::vector<asyncgemm_algo_t> available_gemm_algos(asyncgemm_handle_t handle) {
    std::vector<asyncgemm_algo_t> chosen = requested(handle);
    if (chosen.empty()) throw std::runtime_error("AG_TEST_ALGOS names no available algorithm");
    return chosen;
}

std::vector<asyncgemm_algo_t> unavailable_gemm_algos(asyncgemm_handle_t handle) {
    return explicit_gemm_algos(handle, 0);
}

std::string algo_name(asyncgemm_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_ALGO_AUTO: return "AUTO";
    case ASYNCGEMM_ALGO_SIMT: return "SIMT";
    case ASYNCGEMM_ALGO_ASYNC_COPY: return "ASYNC_COPY";
    case ASYNCGEMM_ALGO_PIPELINED: return "PIPELINED";
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: return "SM90_TMA_WGMMA";
    case ASYNCGEMM_ALGO_SM100_TCGEN05: return "SM100_TCGEN05";
    }
    return "algo " + std::to_string(static_cast<int>(algo));
}

std::string copy_algo_name(asyncgemm_copy_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_COPY_AUTO: return "AUTO";
    case ASYNCGEMM_COPY_SYNC: return "SYNC";
    case ASYNCGEMM_COPY_ASYNC: return "ASYNC";
    case ASYNCGEMM_COPY_PIPELINED: return "PIPELINED";
    case ASYNCGEMM_COPY_TMA: return "TMA";
    }
    return "copy algo " + std::to_string(static_cast<int>(algo));
}

std::string layout_name(asyncgemm_smem_layout_t layout) {
    switch (layout) {
    case ASYNCGEMM_SMEM_AUTO: return "AUTO";
    case ASYNCGEMM_SMEM_PLAIN: return "PLAIN";
    case ASYNCGEMM_SMEM_PADDED: return "PADDED";
    case ASYNCGEMM_SMEM_SWIZZLED: return "SWIZZLED";
    }
    return "layout " + std::to_string(static_cast<int>(layout));
}

std::string order_name(asyncgemm_order_t order) { return order == ASYNCGEMM_ORDER_ROW ? "ROW" : "COL"; }

std::string op_name(asyncgemm_op_t op) { return op == ASYNCGEMM_OP_N ? "N" : "T"; }

std::string check_last_error(const std::vector<std::string> &names) {
    const char *raw = asyncgemm_last_error();
    if (!raw) return "asyncgemm_last_error() returned NULL";
    const std::string message = raw;
    if (message.empty()) return "asyncgemm_last_error() is empty after a failure";
    if (message.find('\n') != std::string::npos) return "asyncgemm_last_error() is not one line: \"" + message + "\"";
    if (names.empty()) return "";
    for (const std::string &name : names)
        if (names_identifier(message, name)) return "";
    std::string wanted;
    for (const std::string &name : names) wanted += (wanted.empty() ? "" : " or ") + name;
    return "asyncgemm_last_error() \"" + message + "\" does not name " + wanted;
}

}  // namespace agtest
