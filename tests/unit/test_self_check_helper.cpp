// The self-check's helper process without a GPU: stub helpers (shell scripts) that pass, fail,
// cannot check, crash, hang, print garbage or are missing, run through the real spawning code with
// time limits made short for the test; what the library concludes from each; where it looks.
#include <doctest/doctest.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "plan/child_process.h"
#include "plan/self_check_helper.h"
#include "scratch.h"

namespace asyncgemm::plan {
namespace {

using test::read_text;
using test::TempDir;
using test::write_stub;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kShortLimit{300};
// Long enough for a stub shell script on a busy machine, short of any stub's sleep.
constexpr milliseconds kEnoughTime{20 * 1000};

DeviceInfo blackwell() {
    DeviceInfo info;
    info.ordinal = 3;
    info.cc_major = 10;
    info.name = "NVIDIA B200";
    info.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
    return info;
}

HelperVerdict run_stub(const std::string &path, milliseconds limit = kEnoughTime) {
    return check_in_helper({path}, blackwell(), limit, Sm100Check::Family);
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// True once no process has the pid the stub wrote into `file`: the child was killed and reaped (a
// zombie still answers kill(pid, 0)).
bool gone(const std::string &file) {
    const pid_t pid = static_cast<pid_t>(std::stol(read_text(file)));
    return kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

TEST_CASE("helper: the lines the helper prints") {
    CHECK(verdict_line({true, "", false}) == "pass");
    CHECK(verdict_line({false, "f16 row N/N 8x8x8: relative error 1.0e-01 > 1.0e-02", false}) ==
          "fail: f16 row N/N 8x8x8: relative error 1.0e-01 > 1.0e-02");
    CHECK(verdict_line({false, "two\nlines\r", false}) == "fail: two lines ");
    CHECK(error_line("no NVIDIA driver") == "error: no NVIDIA driver");
}

TEST_CASE("helper: a passing helper passes, with its arguments naming the device by ordinal and UUID") {
    const TempDir dir;
    const std::string stub = write_stub(dir.path(), "pass",
                                        "[ $# = 2 ] && [ \"$1\" = 3 ] && [ \"$2\" = GPU-01234567-89ab-cdef-0123-456789abcdef ] "
                                        "|| { echo \"error: arguments $*\"; exit 2; }\n"
                                        "echo noise on stderr >&2\n"
                                        "read line && { echo \"error: stdin is not empty\"; exit 2; }\n"
                                        "echo pass");
    const HelperVerdict verdict = run_stub(stub);
    CHECK(verdict.outcome.passed);
    CHECK(verdict.outcome.detail == "");
    CHECK(verdict.lasting);
}

TEST_CASE("helper: a failed comparison keeps its detail and lasts") {
    const TempDir dir;
    const std::string stub =
        write_stub(dir.path(), "fail", "echo 'fail: f16 row N/N 200x136x520: relative error 3.1e-01 > 1.0e-02'; exit 1");
    const HelperVerdict verdict = run_stub(stub);
    CHECK_FALSE(verdict.outcome.passed);
    CHECK(verdict.outcome.detail == "f16 row N/N 200x136x520: relative error 3.1e-01 > 1.0e-02");
    CHECK(verdict.lasting);
}

TEST_CASE("helper: a helper that could not check fails for this process only") {
    const TempDir dir;
    const std::string stub = write_stub(dir.path(), "error", "echo 'error: libcuda.so.1 not found'; exit 2");
    const HelperVerdict verdict = run_stub(stub);
    CHECK_FALSE(verdict.outcome.passed);
    CHECK(verdict.outcome.detail == "asyncgemm-selfcheck (" + stub + ") could not run the check: libcuda.so.1 not found");
    CHECK_FALSE(verdict.lasting);
}

TEST_CASE("helper: a crash fails and lasts; a signal someone else sent does not last") {
    const TempDir dir;
    struct Case {
        const char *signal;
        bool crash;
    };
    for (const Case c : {Case{"SEGV", true}, Case{"ABRT", true}, Case{"BUS", true}, Case{"TERM", false},
                         Case{"KILL", false}}) {
        CAPTURE(c.signal);
        const std::string stub = write_stub(dir.path(), c.signal, std::string("kill -s ") + c.signal + " $$\necho pass");
        const HelperVerdict verdict = run_stub(stub);
        CHECK_FALSE(verdict.outcome.passed);
        const std::string helper = "asyncgemm-selfcheck (" + stub + ")";
        CHECK(verdict.outcome.detail ==
              helper + (c.crash ? " crashed (SIG" + std::string(c.signal) + ")" : " was killed by SIG" + std::string(c.signal)));
        CHECK(verdict.lasting == c.crash);
    }
}

TEST_CASE("helper: a crash ends the helper even where the caller blocks that signal") {
    const TempDir dir;
    const std::string stub = write_stub(dir.path(), "segv", "kill -s SEGV $$\necho pass");
    sigset_t segv, old;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    REQUIRE(pthread_sigmask(SIG_BLOCK, &segv, &old) == 0);
    const HelperVerdict verdict = run_stub(stub);
    REQUIRE(pthread_sigmask(SIG_SETMASK, &old, nullptr) == 0);
    CHECK(contains(verdict.outcome.detail, "crashed (SIGSEGV)"));
}

TEST_CASE("helper: a hang is killed at the time limit and reaped, and lasts") {
    const TempDir dir;
    SUBCASE("while it holds its output open") {
        const std::string stub = write_stub(dir.path(), "hang", "echo $$ > " + dir.path() + "/pid\nexec sleep 30");
        const Clock::time_point start = Clock::now();
        const HelperVerdict verdict = run_stub(stub, kShortLimit);
        CHECK(Clock::now() - start < std::chrono::seconds(10));
        CHECK_FALSE(verdict.outcome.passed);
        CHECK(verdict.outcome.detail == "asyncgemm-selfcheck (" + stub + ") did not finish within 300 ms and was killed");
        CHECK(verdict.lasting);
        CHECK(gone(dir.path() + "/pid"));
    }
    SUBCASE("after printing a verdict and closing its output") {
        const std::string stub =
            write_stub(dir.path(), "linger", "echo $$ > " + dir.path() + "/pid\necho pass\nexec sleep 30 > /dev/null");
        const HelperVerdict verdict = run_stub(stub, kShortLimit);
        CHECK_FALSE(verdict.outcome.passed);
        CHECK(contains(verdict.outcome.detail, "did not finish within 300 ms"));
        CHECK(gone(dir.path() + "/pid"));
    }
}

TEST_CASE("helper: output that is no verdict fails for this process only, quoting it") {
    const TempDir dir;
    struct Case {
        const char *what;
        std::string body;
        std::string quoted;
    };
    const Case cases[] = {
        {"garbage", "echo 'hello world'", "exit status 0, output \"hello world\\n\""},
        {"nothing", "exit 0", "exit status 0, output nothing"},
        {"a pass with a failing status", "echo pass; exit 1", "exit status 1, output \"pass\\n\""},
        {"a failure with a passing status", "echo 'fail: x'; exit 0", "exit status 0, output \"fail: x\\n\""},
        {"a failure without its detail", "echo 'fail: '; exit 1", "exit status 1, output \"fail: \\n\""},
        {"two lines", "echo pass; echo pass", "exit status 0, output \"pass\\npass\\n\""},
        {"a line cut short", "printf pass", "exit status 0, output \"pass\""},
        {"an unknown status", "echo pass; exit 7", "exit status 7, output \"pass\\n\""},
        {"control characters", "printf 'pa\\033ss\\n'", "exit status 0, output \"pa?ss\\n\""},
    };
    for (const Case &c : cases) {
        CAPTURE(c.what);
        const std::string stub = write_stub(dir.path(), "garbage", c.body);
        const HelperVerdict verdict = run_stub(stub);
        CHECK_FALSE(verdict.outcome.passed);
        CHECK(verdict.outcome.detail == "asyncgemm-selfcheck (" + stub + ") gave no verdict (" + c.quoted + ")");
        CHECK_FALSE(verdict.lasting);
    }
}

TEST_CASE("helper: a flood of output is read to the end, kept in part and quoted in part") {
    const TempDir dir;
    const std::string stub = write_stub(dir.path(), "flood", "head -c 1000000 /dev/zero");
    const ChildResult run = run_child(stub, {}, kEnoughTime);
    CHECK(run.end == ChildResult::End::Exited);
    CHECK(run.code == 0);
    CHECK(run.output.size() == kMaxChildOutput);
    const HelperVerdict verdict = judge_helper_run(stub, run, kEnoughTime);
    CHECK_FALSE(verdict.lasting);
    CHECK(contains(verdict.outcome.detail, "output \"" + std::string(120, '?') + "\"...)"));
}

TEST_CASE("helper: a missing or unusable helper fails for this process only, naming where it looked") {
    const TempDir dir;
    SUBCASE("missing everywhere") {
        const HelperVerdict verdict = check_in_helper({dir.path() + "/a/asyncgemm-selfcheck", dir.path() + "/b/asyncgemm-selfcheck"},
                                                      blackwell(), kEnoughTime, Sm100Check::Family);
        CHECK_FALSE(verdict.outcome.passed);
        CHECK(verdict.outcome.detail == "asyncgemm-selfcheck, the helper that runs it, is not installed (looked for " +
                                            dir.path() + "/a/asyncgemm-selfcheck, " + dir.path() + "/b/asyncgemm-selfcheck)");
        CHECK_FALSE(verdict.lasting);
    }
    SUBCASE("nowhere to look") {
        const HelperVerdict verdict = check_in_helper({}, blackwell(), kEnoughTime, Sm100Check::Family);
        CHECK(contains(verdict.outcome.detail, "the library cannot tell where it was loaded from"));
        CHECK_FALSE(verdict.lasting);
    }
    SUBCASE("the first that exists is the one run") {
        const std::string stub = write_stub(dir.path(), "second", "echo pass");
        CHECK(check_in_helper({dir.path() + "/first", stub}, blackwell(), kEnoughTime, Sm100Check::Family).outcome.passed);
    }
    SUBCASE("not executable") {
        const std::string stub = write_stub(dir.path(), "plain", "echo pass");
        REQUIRE(chmod(stub.c_str(), 0644) == 0);
        const HelperVerdict verdict = run_stub(stub);
        CHECK_FALSE(verdict.outcome.passed);
        CHECK(verdict.outcome.detail == "cannot start " + stub + ": " + strerror(EACCES));
        CHECK_FALSE(verdict.lasting);
    }
    SUBCASE("a directory") {
        REQUIRE(mkdir((dir.path() + "/dir").c_str(), 0755) == 0);
        const HelperVerdict verdict = run_stub(dir.path() + "/dir");
        CHECK(contains(verdict.outcome.detail, "cannot start " + dir.path() + "/dir: "));
        CHECK_FALSE(verdict.lasting);
    }
}

TEST_CASE("helper: a helper reaped by someone else is judged by its line alone") {
    const TempDir dir;
    const std::string pass = write_stub(dir.path(), "pass", "echo pass");
    const std::string garbage = write_stub(dir.path(), "garbage", "echo hello");
    // With SIGCHLD ignored the kernel reaps children itself, and waitpid finds none.
    struct sigaction ignore {}, old{};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    REQUIRE(sigaction(SIGCHLD, &ignore, &old) == 0);
    const ChildResult run = run_child(pass, {}, kEnoughTime);
    const HelperVerdict passed = judge_helper_run(pass, run, kEnoughTime);
    const HelperVerdict refused = run_stub(garbage);
    REQUIRE(sigaction(SIGCHLD, &old, nullptr) == 0);
    CHECK(run.end == ChildResult::End::StatusLost);
    CHECK(passed.outcome.passed);
    CHECK(passed.lasting);
    CHECK_FALSE(refused.outcome.passed);
    CHECK(contains(refused.outcome.detail, "gave no verdict (exit status unknown, output \"hello\\n\")"));
}

namespace {
std::atomic<int> alarms{0};
void count_alarm(int) { ++alarms; }
}  // namespace

TEST_CASE("helper: signals that interrupt the waiting (EINTR) change nothing") {
    const TempDir dir;
    const std::string stub = write_stub(dir.path(), "slow", "sleep 0.3\necho pass");
    struct sigaction count {}, old{};
    count.sa_handler = count_alarm;  // no SA_RESTART: poll, read and waitpid return EINTR
    sigemptyset(&count.sa_mask);
    REQUIRE(sigaction(SIGALRM, &count, &old) == 0);
    itimerval every_millisecond{{0, 1000}, {0, 1000}}, stop{};
    alarms = 0;
    REQUIRE(setitimer(ITIMER_REAL, &every_millisecond, nullptr) == 0);
    const HelperVerdict verdict = run_stub(stub);
    REQUIRE(setitimer(ITIMER_REAL, &stop, nullptr) == 0);
    REQUIRE(sigaction(SIGALRM, &old, nullptr) == 0);
    CHECK(alarms.load() > 10);
    CHECK(verdict.outcome.passed);
}

TEST_CASE("helper: helpers started at once by several threads do not hold each other up") {
    const TempDir dir;
    const std::string hang = write_stub(dir.path(), "hang", "exec sleep 30");
    const std::string pass = write_stub(dir.path(), "pass", "echo pass");
    const milliseconds hang_limit{3000};
    // Threads start passing helpers one after another while others start hanging ones: a pipe end
    // that a hanging helper inherited would keep a passing helper's run waiting for the time limit.
    std::vector<std::thread> threads;
    std::vector<Clock::duration> slowest(4, Clock::duration::zero());
    for (size_t t = 0; t < slowest.size(); ++t)
        threads.emplace_back([&, t] {
            for (int run = 0; run < 25; ++run) {
                const Clock::time_point start = Clock::now();
                CHECK(run_stub(pass).outcome.passed);
                slowest[t] = std::max(slowest[t], Clock::now() - start);
            }
        });
    std::this_thread::sleep_for(milliseconds(20));
    for (int t = 0; t < 2; ++t) threads.emplace_back([&] { CHECK_FALSE(run_stub(hang, hang_limit).outcome.passed); });
    for (std::thread &thread : threads) thread.join();
    for (const Clock::duration duration : slowest) CHECK(duration < hang_limit / 2);
}

TEST_CASE("helper: it is looked for next to the library, installed layout first") {
    const std::vector<std::string> locations = helper_locations("/opt/asyncgemm/lib/libasyncgemm.so.0.1.0");
    REQUIRE(locations.size() == 2);
    // The installed layout, from GNUInstallDirs: ../libexec/asyncgemm with the usual directories.
    const std::filesystem::path installed(locations[0]);
    CHECK(installed == installed.lexically_normal());
    CHECK(installed.filename() == "asyncgemm-selfcheck");
    CHECK(installed.parent_path().filename() == "asyncgemm");
    CHECK(contains(locations[0], "libexec"));
    // The build tree, whose top holds the library.
    CHECK(locations[1] == "/opt/asyncgemm/lib/libexec/asyncgemm/asyncgemm-selfcheck");
    CHECK(helper_locations("").empty());

    // In the unit tests the objects are linked into the test program itself.
    const std::string self = loaded_library_file();
    CHECK(std::filesystem::path(self).is_absolute());
    CHECK(std::filesystem::equivalent(self, "/proc/self/exe"));
}

TEST_CASE("helper: the MX check adds --mx before the device ordinal and UUID") {
    using Args = std::vector<std::string>;
    CHECK(helper_arguments(blackwell(), Sm100Check::Family) == Args{"3", "GPU-01234567-89ab-cdef-0123-456789abcdef"});
    CHECK(helper_arguments(blackwell(), Sm100Check::MxScales) ==
          Args{"--mx", "3", "GPU-01234567-89ab-cdef-0123-456789abcdef"});
}

}  // namespace asyncgemm::plan
