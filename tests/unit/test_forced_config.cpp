// The configuration test hooks' parsing (ASYNCGEMM_SM80_CONFIG, ASYNCGEMM_SM90_CONFIG).
#include <doctest/doctest.h>

#include <string>

#include "common/error.h"
#include "plan/forced_config.h"

using asyncgemm::plan::parse_forced_config;

TEST_CASE("forced configuration: <config>[:<splits>] within the family's table, else INVALID_VALUE") {
    CHECK_FALSE(parse_forced_config("V", nullptr, 8, 16).has_value());
    CHECK_FALSE(parse_forced_config("V", "", 8, 16).has_value());
    const auto plain = parse_forced_config("V", "7", 8, 16);
    REQUIRE(plain.has_value());
    CHECK(plain->config == 7);
    CHECK(plain->splits == 0);  // the heuristic's split
    const auto split = parse_forced_config("V", "3:16", 8, 16);
    REQUIRE(split.has_value());
    CHECK(split->config == 3);
    CHECK(split->splits == 16);
    for (const char *bad : {"8", "-1", "3:17", "3:-1", "x", "3:", "3:2x", "3 ", " 3", "3: 2"}) {
        CAPTURE(bad);
        try {
            parse_forced_config("ASYNCGEMM_SM90_CONFIG", bad, 8, 16);
            FAIL("accepted");
        } catch (const asyncgemm::Error &e) {
            CHECK(e.status() == ASYNCGEMM_STATUS_INVALID_VALUE);
            CHECK(std::string(e.what()).find("ASYNCGEMM_SM90_CONFIG=") == 0);
        }
    }
}
