// The self-check's verdicts on disk without a GPU: file name and header, the round trip, files that
// must not be trusted, and a directory that cannot be written.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "plan/cache_files.h"
#include "plan/self_check_cache.h"
#include "scratch.h"

namespace asyncgemm::plan {
namespace {

namespace fs = std::filesystem;
using test::only_file_left;
using test::read_text;
using test::TempDir;
using test::write_file;

const VerdictKey kB200{"NVIDIA B200", "GPU-01234567-89ab-cdef-0123-456789abcdef", 13000, 0x0123456789abcdefull};

// Collects the cache's warnings instead of printing them.
struct Warnings {
    std::vector<std::string> messages;
    VerdictCache::Warn warn() {
        return [this](const std::string &message) { messages.push_back(message); };
    }
};


}  // namespace

TEST_CASE("verdict cache: the file's name and header name the GPU, driver and library") {
    const std::string version = library_version();
    CHECK(verdict_file_name(kB200) ==
          "selfcheck-sm100-NVIDIA_B200-GPU-01234567-89ab-cdef-0123-456789abcdef-driver13000-" + version + ".txt");
    CHECK(verdict_header(kB200) == "asyncgemm-selfcheck format=1 family=sm100 library=" + version +
                                       " kernels=0123456789abcdef driver=13000 uuid=GPU-01234567-89ab-cdef-0123-456789abcdef "
                                       "device=NVIDIA B200");
    VerdictKey mx = kB200;
    mx.check = "sm100-mx";  // the MX scales' check, a file of its own
    CHECK(verdict_file_name(mx) ==
          "selfcheck-sm100-mx-NVIDIA_B200-GPU-01234567-89ab-cdef-0123-456789abcdef-driver13000-" + version + ".txt");
    CHECK(verdict_header(mx).find(" family=sm100-mx ") != std::string::npos);
    CHECK(verdict_file_name({"a/b\\c", "u:v", 12080, 0}).find_first_of("/\\:") == std::string::npos);
    CHECK(verdict_header({"two\nlines", "GPU-1", 13000, 0}).find('\n') == std::string::npos);
}

TEST_CASE("verdict cache: a pass and a failure survive a round trip, in a directory created on demand") {
    const TempDir temp;
    const std::string directory = temp.path() + "/nested/cache";
    const std::string file = verdict_file_name(kB200);
    Warnings warnings;
    {
        VerdictCache cache(directory, kB200, warnings.warn());
        CHECK_FALSE(cache.find().has_value());
        CHECK_FALSE(fs::exists(directory));  // a lookup alone writes nothing
        cache.remember({true, "", false});
        CHECK(cache.path() == directory + "/" + file);
    }
    CHECK(read_text(directory + "/" + file) == verdict_header(kB200) + "\npass\n");
    std::optional<SelfCheckOutcome> found = VerdictCache(directory, kB200, warnings.warn()).find();
    REQUIRE(found.has_value());
    CHECK(found->passed);

    // A later verdict replaces the file whole; a line break in the detail cannot split it.
    VerdictCache(directory, kB200, warnings.warn()).remember({false, "f16 row N/N 8x8x8:\nrelative error", false});
    CHECK(read_text(directory + "/" + file) == verdict_header(kB200) + "\nfail f16 row N/N 8x8x8: relative error\n");
    found = VerdictCache(directory, kB200, warnings.warn()).find();
    REQUIRE(found.has_value());
    CHECK_FALSE(found->passed);
    CHECK(found->detail == "f16 row N/N 8x8x8: relative error");
    CHECK(only_file_left(directory, file));
    CHECK(warnings.messages.empty());

    // Another GPU of the same model, or the same GPU under another driver, has a file of its own.
    for (const VerdictKey &other : {VerdictKey{kB200.device_name, "GPU-ffffffff-89ab-cdef-0123-456789abcdef", 13000, kB200.kernels},
                                    VerdictKey{kB200.device_name, kB200.uuid, 13010, kB200.kernels}}) {
        VerdictCache cache(directory, other, warnings.warn());
        CHECK_FALSE(cache.find().has_value());
        CHECK(cache.path() != directory + "/" + file);
    }
    CHECK(warnings.messages.empty());
}

TEST_CASE("verdict cache: without a directory the verdict lives in memory only, silently") {
    Warnings warnings;
    VerdictCache cache("", kB200, warnings.warn());
    CHECK(cache.path().empty());
    CHECK_FALSE(cache.find().has_value());
    cache.remember({true, "", false});
    CHECK_FALSE(cache.find().has_value());
    CHECK(warnings.messages.empty());
}

TEST_CASE("verdict cache: a corrupt or foreign file is ignored with one warning and replaced") {
    const std::string header = verdict_header(kB200);
    struct Case {
        const char *what;
        std::string text;
    };
    const Case cases[] = {
        {"garbage", "\x7f" "ELF\x01\x02 not a verdict\n"},
        {"an empty file", ""},
        {"a header alone", header + "\n"},
        {"a verdict cut short", header + "\npas"},
        {"a third line", header + "\npass\npass\n"},
        {"no verdict", header + "\nmaybe\n"},
        {"a failure without its detail", header + "\nfail \n"},
        {"another kernel build's header", verdict_header({kB200.device_name, kB200.uuid, 13000, 1}) + "\npass\n"},
        {"another format's header", "asyncgemm-selfcheck format=0" + header.substr(header.find(" family")) + "\npass\n"},
        {"a file far too large", header + "\npass\n" + std::string(100 * 1024, 'x') + "\n"},
    };
    for (const Case &c : cases) {
        CAPTURE(c.what);
        const TempDir temp;
        const std::string path = temp.path() + "/" + verdict_file_name(kB200);
        write_file(path, c.text);
        Warnings warnings;
        VerdictCache cache(temp.path(), kB200, warnings.warn());
        CHECK_FALSE(cache.find().has_value());
        REQUIRE(warnings.messages.size() == 1);
        CHECK(warnings.messages[0].rfind("asyncgemm: self-check cache " + path + " ", 0) == 0);
        CHECK(warnings.messages[0].find(": ignored, and replaced after the check") != std::string::npos);
        cache.remember({true, "", false});
        CHECK(read_text(path) == header + "\npass\n");
        CHECK(warnings.messages.size() == 1);
        CHECK(only_file_left(temp.path(), verdict_file_name(kB200)));
    }
}

TEST_CASE("verdict cache: a directory that cannot be written leaves the verdict in memory, with one warning") {
    const TempDir temp;
    // A path below a regular file cannot be created, whoever runs the test (root included).
    write_file(temp.path() + "/file", "x");
    Warnings warnings;
    VerdictCache cache(temp.path() + "/file/cache", kB200, warnings.warn());
    CHECK_FALSE(cache.find().has_value());  // ENOTDIR reads as no file yet
    CHECK_NOTHROW(cache.remember({false, "why", false}));
    REQUIRE(warnings.messages.size() == 1);
    CHECK(warnings.messages[0].rfind("asyncgemm: self-check cache: cannot create " + temp.path() + "/file/cache", 0) == 0);
    CHECK(warnings.messages[0].find("the verdict is kept in memory only") != std::string::npos);
    CHECK(cache.path().empty());
    cache.remember({false, "why", false});
    CHECK(warnings.messages.size() == 1);
}

}  // namespace asyncgemm::plan
