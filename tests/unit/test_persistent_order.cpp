// The persistent kernels' work order (kernels/common/raster.h) and the multiply-and-shift division it
// is built on (kernels/common/fast_divmod.h): the same answers as plain division and grouped_tile.
#include <doctest/doctest.h>

#include <stddef.h>
#include <stdint.h>

#include <set>
#include <tuple>
#include <vector>

#include "kernels/common/fast_divmod.h"
#include "kernels/common/raster.h"

using namespace asyncgemm;

namespace {

// Small divisors, the powers of two and their neighbours, and the edges of the range.
std::vector<uint32_t> divisors() {
    std::vector<uint32_t> d;
    for (uint32_t i = 1; i <= 300; ++i) d.push_back(i);
    for (int s = 1; s <= 31; ++s) {
        const uint32_t p = 1u << s;
        d.insert(d.end(), {p - 1, p});
        if (s < 31) d.push_back(p + 1);
    }
    d.insert(d.end(), {3 * 5 * 7 * 11 * 13u, 1000003u, 0x7fffffffu, 0x80000000u});
    return d;
}

// Dividends near 0, near each multiple boundary of d, and near 2^31.
std::vector<uint32_t> dividends(uint32_t d) {
    std::vector<uint32_t> n;
    for (uint32_t i = 0; i < 70; ++i) n.push_back(i);
    for (uint64_t q : {1ull, 2ull, 3ull, 1000ull, 0x7fffffffull / d, 0x7fffffffull / d - 1}) {
        if (q < 1 || q > 0x7fffffffull) continue;
        for (int64_t delta = -2; delta <= 2; ++delta) {
            const int64_t v = static_cast<int64_t>(q * d) + delta;
            if (v >= 0 && v <= 0x7fffffff) n.push_back(static_cast<uint32_t>(v));
        }
    }
    n.insert(n.end(), {0x7ffffffeu, 0x7fffffffu});
    return n;
}

}  // namespace

TEST_CASE("fast_divmod divides every dividend below 2^31 exactly") {
    for (const uint32_t d : divisors()) {
        const FastDivmod f = fast_divmod(d);
        CHECK(f.divisor == d);
        for (const uint32_t n : dividends(d)) {
            INFO("d = " << d << ", n = " << n);
            CHECK(f.quotient(n) == n / d);
        }
    }
}

TEST_CASE("the persistent order matches grouped_tile and plain division") {
    // (tiles_m, tiles_n, group, splits): whole and partial last bands, a group wider than the grid,
    // group 0 and 1 (row by row), one tile row, one tile column.
    const std::vector<std::tuple<int32_t, int32_t, int32_t, int32_t>> grids = {
        {7, 5, 4, 1}, {7, 5, 4, 3}, {32, 16, 16, 1}, {64, 32, 16, 2}, {33, 9, 16, 4},
        {5, 5, 64, 2}, {6, 4, 0, 1},  {6, 4, 1, 5},   {1, 64, 16, 2},  {64, 1, 16, 1},
    };
    const int64_t batches = 3;
    for (const auto &[tiles_m, tiles_n, group, splits] : grids) {
        INFO("tiles " << tiles_m << " x " << tiles_n << ", group " << group << ", splits " << splits);
        const PersistentOrder order = persistent_order(tiles_m, tiles_n, group, splits);
        const int64_t tiles = int64_t{tiles_m} * tiles_n;
        std::set<std::tuple<int64_t, int32_t, int32_t, int32_t>> seen;
        for (int64_t item = 0; item < tiles * batches * splits; ++item) {
            const WorkPlace at = order.place(static_cast<uint32_t>(item));
            const int64_t g = item / splits;
            const TileCoord expected = grouped_tile(static_cast<int32_t>(g % tiles), tiles_m, tiles_n, group);
            CHECK(at.group == g);
            CHECK(at.split == item % splits);
            CHECK(at.tile.batch == g / tiles);
            CHECK(at.tile.m == expected.m);
            CHECK(at.tile.n == expected.n);
            seen.insert({at.tile.batch, at.tile.m, at.tile.n, at.split});
        }
        CHECK(seen.size() == static_cast<size_t>(tiles * batches * splits));  // each item once
    }
}
