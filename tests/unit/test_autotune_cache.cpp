// The autotune cache without a GPU: shape buckets, the cache directory's environment variables, the
// file's round trip, files that must not be trusted, and many threads and processes writing at once.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "asyncgemm.h"
#include "canonical_problem.h"
#include "plan/autotune_cache.h"
#include "scratch.h"

namespace asyncgemm::plan {
namespace {

namespace fs = std::filesystem;
using test::only_file_left;
using test::read_text;
using test::ScopedEnv;
using test::TempDir;
using test::write_file;

constexpr ConfigTable kConfigs{3, 0x0123456789abcdefull};

const GpuIdentity kH100{"NVIDIA H100 80GB HBM3", 9, 0};

// A distinct bucket per index, and the configuration the tests remember for it.
ShapeBucket bucket(int index) {
    ShapeBucket b;
    b.type_ab = index % 2 == 0 ? kF16 : kBF16;
    b.type_cd = kF32;
    b.a_k_major = true;
    b.b_k_major = index % 3 != 0;
    b.m = int64_t{1} << (index % 16);
    b.n = int64_t{1} << (index / 16 % 16);
    b.k = int64_t{1} << (index / 256 % 16 + 4);
    b.batch_count = 1;
    return b;
}
int config_of(int index) { return index % 2; }



GemmParams problem(int64_t m, int64_t n, int64_t k, int64_t batch_count) {
    GemmParams p = test::canonical_problem(m, n, k, kBF16, kF16, false, true);
    p.batch_count = batch_count;
    return p;
}

}  // namespace

TEST_CASE("autotune: shape buckets round m, n, k and the batch count up to powers of two") {
    CHECK(round_up_pow2(-5) == 1);
    CHECK(round_up_pow2(0) == 1);
    CHECK(round_up_pow2(1) == 1);
    CHECK(round_up_pow2(2) == 2);
    CHECK(round_up_pow2(3) == 4);
    CHECK(round_up_pow2(1024) == 1024);
    CHECK(round_up_pow2(1025) == 2048);
    CHECK(round_up_pow2((int64_t{1} << 40) + 1) == int64_t{1} << 41);
    CHECK(round_up_pow2(INT64_MAX) == int64_t{1} << 62);

    const ShapeBucket b = bucket_of(problem(1000, 4096, 14336, 3));
    CHECK(b.type_ab == kBF16);
    CHECK(b.type_cd == kF16);
    CHECK_FALSE(b.a_k_major);
    CHECK(b.b_k_major);
    CHECK(b.m == 1024);
    CHECK(b.n == 4096);
    CHECK(b.k == 16384);
    CHECK(b.batch_count == 4);
    CHECK(bucket_key(b) == "bf16.f16.amn.bk.m1024.n4096.k16384.b4");
    CHECK(bucket_of(problem(513, 4096, 9000, 4)) == b);
    CHECK_FALSE(bucket_of(problem(1025, 4096, 9000, 4)) == b);

    const auto parsed = parse_bucket_key("bf16.f16.amn.bk.m1024.n4096.k16384.b4");
    REQUIRE(parsed.has_value());
    CHECK(*parsed == b);
    for (int i = 0; i < 600; i += 7) {
        const auto again = parse_bucket_key(bucket_key(bucket(i)));
        REQUIRE(again.has_value());
        CHECK(*again == bucket(i));
    }
}

TEST_CASE("autotune: bucket keys parse only as bucket_key writes them") {
    for (const char *bad : {"", "bf16", "bf16.f16.amn.bk.m1024.n4096.k16384", "bf16.f16.amn.bk.m1024.n4096.k16384.b4.x",
                            "f8.f16.amn.bk.m1024.n4096.k16384.b4", "bf16.f16.ak.bx.m1024.n4096.k16384.b4",
                            "bf16.f16.amn.bk.m1000.n4096.k16384.b4", "bf16.f16.amn.bk.m0.n4096.k16384.b4",
                            "bf16.f16.amn.bk.m-4.n4096.k16384.b4", "bf16.f16.amn.bk.m01024.n4096.k16384.b4",
                            "bf16.f16.amn.bk.n1024.m4096.k16384.b4", "bf16.f16.amn.bk.m1024.n4096.k16384.b",
                            "bf16.f16.amn.bk.m1024.n4096.k16384.b99999999999999999999",
                            "bf16.f16.amn.bk.m1024.n4096.k16384.b4 "}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_bucket_key(bad).has_value());
    }
}

TEST_CASE("autotune: the cache file's name and header name the GPU and the library version") {
    const std::string version = std::to_string(ASYNCGEMM_VERSION_MAJOR) + "." + std::to_string(ASYNCGEMM_VERSION_MINOR) +
                                "." + std::to_string(ASYNCGEMM_VERSION_PATCH);
    CHECK(cache_file_name(kH100, kConfigs) == "autotune-sm80-NVIDIA_H100_80GB_HBM3-cc9.0-" + version + ".txt");
    CHECK(cache_file_name({"a/b\\c:d", 12, 0}, kConfigs) == "autotune-sm80-a_b_c_d-cc12.0-" + version + ".txt");
    CHECK(cache_file_name(kH100, ConfigTable{6, 1, "sm90"}) ==
          "autotune-sm90-NVIDIA_H100_80GB_HBM3-cc9.0-" + version + ".txt");
    CHECK(cache_header(kH100, kConfigs) == "asyncgemm-autotune format=1 library=" + version +
                                               " table=0123456789abcdef cc=9.0 device=NVIDIA H100 80GB HBM3");
    CHECK(cache_header({"two\nlines", 8, 6}, kConfigs).find('\n') == std::string::npos);
}

TEST_CASE("autotune: the cache directory comes from ASYNCGEMM_CACHE_DIR, XDG_CACHE_HOME or HOME") {
    SUBCASE("ASYNCGEMM_CACHE_DIR first") {
        const ScopedEnv dir("ASYNCGEMM_CACHE_DIR", "/scratch/tuned");
        const ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
        const ScopedEnv home("HOME", "/home/user");
        CHECK(default_cache_directory() == "/scratch/tuned");
    }
    SUBCASE("then XDG_CACHE_HOME, when absolute") {
        const ScopedEnv dir("ASYNCGEMM_CACHE_DIR", "");
        const ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
        const ScopedEnv home("HOME", "/home/user");
        CHECK(default_cache_directory() == "/xdg/asyncgemm");
    }
    SUBCASE("then HOME") {
        const ScopedEnv dir("ASYNCGEMM_CACHE_DIR", nullptr);
        const ScopedEnv xdg("XDG_CACHE_HOME", "relative/cache");
        const ScopedEnv home("HOME", "/home/user");
        CHECK(default_cache_directory() == "/home/user/.cache/asyncgemm");
    }
    SUBCASE("else none: memory only") {
        const ScopedEnv dir("ASYNCGEMM_CACHE_DIR", nullptr);
        const ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
        const ScopedEnv home("HOME", nullptr);
        CHECK(default_cache_directory().empty());
        AutotuneCache cache(default_cache_directory(), kH100, kConfigs);
        CHECK(cache.path().empty());
        cache.remember(bucket(1), 1);
        CHECK(cache.find(bucket(1)) == 1);
    }
}

TEST_CASE("autotune: winners survive a round trip through the file, in a directory created on demand") {
    const ScopedEnv quiet("ASYNCGEMM_QUIET", "1");
    const TempDir temp;
    const std::string directory = temp.path() + "/nested/cache";
    {
        AutotuneCache cache(directory, kH100, kConfigs);
        CHECK_FALSE(cache.find(bucket(0)).has_value());
        CHECK_FALSE(fs::exists(directory));  // a lookup alone writes nothing
        cache.remember(bucket(0), 1);
        cache.remember(bucket(1), 0);
        cache.remember(bucket(2), 2);
        cache.remember(bucket(0), 0);  // a later winner replaces the earlier one
        CHECK(cache.path() == directory + "/" + cache_file_name(kH100, kConfigs));
        CHECK_FALSE(cache.warned());
    }
    const std::string path = directory + "/" + cache_file_name(kH100, kConfigs);
    // Sorted by key: bf16 before f16, then "bk" before "bmn".
    CHECK(read_text(path) == cache_header(kH100, kConfigs) + "\n" + bucket_key(bucket(1)) + " 0\n" + bucket_key(bucket(2)) +
                                 " 2\n" + bucket_key(bucket(0)) + " 0\n");
    CHECK(only_file_left(directory, cache_file_name(kH100, kConfigs)));

    AutotuneCache fresh(directory, kH100, kConfigs);
    CHECK(fresh.find(bucket(0)) == 0);
    CHECK(fresh.find(bucket(1)) == 0);
    CHECK(fresh.find(bucket(2)) == 2);
    CHECK_FALSE(fresh.find(bucket(3)).has_value());
    CHECK_FALSE(fresh.warned());

    // Another GPU model has its own file and sees none of these.
    AutotuneCache other(directory, {"NVIDIA A100-SXM4-80GB", 8, 0}, kConfigs);
    CHECK_FALSE(other.find(bucket(0)).has_value());
    CHECK(other.path() != fresh.path());
}

TEST_CASE("autotune: winners the file format cannot hold are kept out of it") {
    const ScopedEnv quiet("ASYNCGEMM_QUIET", "1");
    const TempDir temp;
    AutotuneCache cache(temp.path(), kH100, kConfigs);
    ShapeBucket unknown_type = bucket(0);
    unknown_type.type_cd = 7;
    cache.remember(unknown_type, 0);
    cache.remember(bucket(0), kConfigs.count);
    cache.remember(bucket(0), -1);
    CHECK_FALSE(cache.find(bucket(0)).has_value());
    CHECK_FALSE(fs::exists(cache.path()));
}

TEST_CASE("autotune: a corrupt or foreign file is ignored with a warning and replaced") {
    const ScopedEnv quiet("ASYNCGEMM_QUIET", "1");
    const std::string header = cache_header(kH100, kConfigs);
    const std::string good = bucket_key(bucket(5)) + " 1\n";
    const std::string wanted = bucket_key(bucket(9)) + " 0\n";
    struct Case {
        const char *what;
        std::string text;
    };
    const Case cases[] = {
        {"garbage", "\x7f" "ELF\x01\x02 not a cache at all\n"},
        {"an empty file", ""},
        {"a last line cut short", header + "\n" + good + bucket_key(bucket(6))},
        {"a line without its configuration", header + "\n" + bucket_key(bucket(6)) + "\n" + good},
        {"a line with a bad bucket", header + "\n" + "f16.f32.ak.bk.m3.n4.k8.b1 0\n" + good},
        {"a line with a bad configuration", header + "\n" + bucket_key(bucket(6)) + " x1\n" + good},
        {"a line with extra fields", header + "\n" + bucket_key(bucket(6)) + " 1 1\n" + good},
        {"another GPU's header", cache_header({"NVIDIA A100-SXM4-80GB", 8, 0}, kConfigs) + "\n" + good},
        {"another kernel table's header", cache_header(kH100, {3, 0x0123456789abcdeeull}) + "\n" + good},
        {"another format's header", "asyncgemm-autotune format=0 " + header.substr(header.find("library=")) + "\n" + good},
    };
    for (const Case &c : cases) {
        CAPTURE(c.what);
        const TempDir temp;
        const std::string path = temp.path() + "/" + cache_file_name(kH100, kConfigs);
        write_file(path, c.text);
        CHECK(read_cache_file(path, header, kConfigs).state == CacheFileContents::State::Foreign);

        AutotuneCache cache(temp.path(), kH100, kConfigs);
        CHECK_FALSE(cache.find(bucket(5)).has_value());  // nothing of the file is trusted
        CHECK(cache.warned());
        cache.remember(bucket(9), 0);
        CHECK(read_text(path) == header + "\n" + wanted);
        CHECK(only_file_left(temp.path(), cache_file_name(kH100, kConfigs)));
    }
}

TEST_CASE("autotune: entries naming a configuration out of range are dropped, the rest kept") {
    const ScopedEnv quiet("ASYNCGEMM_QUIET", "1");
    const TempDir temp;
    const std::string path = temp.path() + "/" + cache_file_name(kH100, kConfigs);
    write_file(path, cache_header(kH100, kConfigs) + "\n" + bucket_key(bucket(1)) + " 1\n" + bucket_key(bucket(2)) + " " +
                         std::to_string(kConfigs.count) + "\n" + bucket_key(bucket(3)) + " -1\n");
    const CacheFileContents contents = read_cache_file(path, cache_header(kH100, kConfigs), kConfigs);
    CHECK(contents.state == CacheFileContents::State::Valid);
    CHECK(contents.dropped_entries == 2);
    CHECK(contents.entries.size() == 1);

    AutotuneCache cache(temp.path(), kH100, kConfigs);
    CHECK(cache.find(bucket(1)) == 1);
    CHECK_FALSE(cache.find(bucket(2)).has_value());
    CHECK_FALSE(cache.find(bucket(3)).has_value());
    CHECK(cache.warned());
    cache.remember(bucket(4), 0);
    CHECK(read_text(path) == cache_header(kH100, kConfigs) + "\n" + bucket_key(bucket(1)) + " 1\n" + bucket_key(bucket(4)) + " 0\n");
}

TEST_CASE("autotune: a directory that cannot be written leaves the winners in memory, with a warning") {
    const ScopedEnv quiet("ASYNCGEMM_QUIET", "1");
    const TempDir temp;
    // A path below a regular file cannot be created, whoever runs the test (root included).
    write_file(temp.path() + "/file", "x");
    AutotuneCache cache(temp.path() + "/file/cache", kH100, kConfigs);
    cache.remember(bucket(7), 1);
    CHECK(cache.warned());
    CHECK(cache.path().empty());
    CHECK(cache.find(bucket(7)) == 1);
    cache.remember(bucket(8), 0);
    CHECK(cache.find(bucket(8)) == 0);
}

TEST_CASE("autotune: concurrent writers never leave a file that does not parse") {
    const ScopedEnv quiet("ASYNCGEMM_QUIET", "1");
    const TempDir temp;
    const std::string file = cache_file_name(kH100, kConfigs);
    const std::string path = temp.path() + "/" + file;
    const std::string header = cache_header(kH100, kConfigs);
    constexpr int kWriters = 6, kBucketsEach = 25;

    std::map<std::string, int> remembered;  // by any writer below
    for (int i = 0; i <= kWriters * kBucketsEach; ++i) remembered[bucket_key(bucket(i))] = config_of(i);
    // A file may be missing (before the first write) but never foreign, and holds only what was remembered.
    const auto check_file = [&](const CacheFileContents &contents) {
        bool right = contents.state != CacheFileContents::State::Foreign && contents.dropped_entries == 0;
        for (const auto &[key, config] : contents.entries) {
            const auto found = remembered.find(key);
            right &= found != remembered.end() && found->second == config;
        }
        return right;
    };

    SUBCASE("threads, one cache each, and a reader") {
        std::atomic<bool> writing{true};
        std::atomic<int> bad_reads{0}, reads{0};
        std::thread reader([&] {
            while (writing.load()) {
                if (!check_file(read_cache_file(path, header, kConfigs))) ++bad_reads;
                ++reads;
            }
        });
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w) {
            writers.emplace_back([&, w] {
                AutotuneCache cache(temp.path(), kH100, kConfigs);
                for (int i = w * kBucketsEach; i < (w + 1) * kBucketsEach; ++i) cache.remember(bucket(i), config_of(i));
            });
        }
        for (std::thread &writer : writers) writer.join();
        writing = false;
        reader.join();
        CHECK(bad_reads == 0);
        CHECK(reads > 0);

        // Writers may lose each other's newest entries, but the next writer keeps all it finds and adds its own.
        const CacheFileContents before = read_cache_file(path, header, kConfigs);
        REQUIRE(before.state == CacheFileContents::State::Valid);
        CHECK(check_file(before));
        CHECK_FALSE(before.entries.empty());
        const int last = kWriters * kBucketsEach;
        AutotuneCache(temp.path(), kH100, kConfigs).remember(bucket(last), config_of(last));
        const CacheFileContents after = read_cache_file(path, header, kConfigs);
        CHECK(after.entries.size() == before.entries.size() + 1);
        for (const auto &[key, config] : before.entries) CHECK(after.entries.count(key) == 1);
        CHECK(after.entries.count(bucket_key(bucket(last))) == 1);
        CHECK(only_file_left(temp.path(), file));
    }

    SUBCASE("threads sharing one cache lose nothing") {
        AutotuneCache cache(temp.path(), kH100, kConfigs);
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w) {
            writers.emplace_back([&, w] {
                for (int i = w * kBucketsEach; i < (w + 1) * kBucketsEach; ++i) cache.remember(bucket(i), config_of(i));
            });
        }
        for (std::thread &writer : writers) writer.join();
        const CacheFileContents contents = read_cache_file(path, header, kConfigs);
        CHECK(check_file(contents));
        CHECK(contents.entries.size() == static_cast<size_t>(kWriters * kBucketsEach));
    }

    SUBCASE("processes") {
        std::vector<pid_t> children;
        for (int w = 0; w < kWriters; ++w) {
            const pid_t pid = fork();
            REQUIRE(pid >= 0);
            if (pid == 0) {
                // The child writes, then checks that the file parses and that its own cache saw every
                // entry it wrote; _exit skips the test framework's exit handlers.
                AutotuneCache cache(temp.path(), kH100, kConfigs);
                bool right = true;
                for (int i = w * kBucketsEach; i < (w + 1) * kBucketsEach; ++i) {
                    cache.remember(bucket(i), config_of(i));
                    right &= read_cache_file(path, header, kConfigs).state == CacheFileContents::State::Valid;
                }
                for (int i = w * kBucketsEach; i < (w + 1) * kBucketsEach; ++i) right &= cache.find(bucket(i)) == config_of(i);
                _exit(right && !cache.warned() ? 0 : 1);
            }
            children.push_back(pid);
        }
        int bad_reads = 0;
        for (int read = 0; read < 200; ++read) bad_reads += check_file(read_cache_file(path, header, kConfigs)) ? 0 : 1;
        for (const pid_t child : children) {
            int status = 0;
            REQUIRE(waitpid(child, &status, 0) == child);
            CHECK(WIFEXITED(status));
            CHECK(WEXITSTATUS(status) == 0);
        }
        CHECK(bad_reads == 0);
        const CacheFileContents contents = read_cache_file(path, header, kConfigs);
        CHECK(contents.state == CacheFileContents::State::Valid);
        CHECK(check_file(contents));
        CHECK(contents.entries.size() >= static_cast<size_t>(kBucketsEach));  // the last writer's own, at least
        CHECK(only_file_left(temp.path(), file));
    }
}

}  // namespace asyncgemm::plan
