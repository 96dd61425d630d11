// FNV-1a over a run of ints: the fingerprint of a family's configuration table, which the autotune
// cache names in its header so that winners tuned for another table are not trusted.
#pragma once

#include <stdint.h>

namespace asyncgemm {

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

// `hash` extended by each of `values`.
template <int N>
constexpr uint64_t fnv1a(uint64_t hash, const int (&values)[N]) {
    for (int v : values) {
        hash ^= static_cast<uint32_t>(v);
        hash *= 0x100000001b3ull;
    }
    return hash;
}

}  // namespace asyncgemm
