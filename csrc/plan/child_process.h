// Runs a helper program with a time limit and collects what it prints: how the self-check runs code
// that may hang or crash (plan/self_check_helper.h) without letting it into the caller's process.
#pragma once

#include <stddef.h>

#include <chrono>
#include <string>
#include <vector>

namespace asyncgemm::plan {

// More than any line a helper of this library prints; the rest of a longer output is read and dropped.
constexpr size_t kMaxChildOutput = 64 * 1024;

struct ChildResult {
    enum class End {
        NotStarted,  // posix_spawn failed: `problem` says why (a missing or non-executable file)
        Exited,      // `code` is its exit status
        Signaled,    // `code` is the signal that ended it
        TimedOut,    // still running (or still holding its output open) at the limit: killed with SIGKILL
        StatusLost,  // it ended, but someone else reaped it (the program ignores SIGCHLD or waits for any child)
    };
    End end = End::NotStarted;
    int code = 0;
    std::string output;   // its standard output, at most kMaxChildOutput bytes
    std::string problem;  // why it did not start
};

// Starts `path` with `arguments` after argv[0] and the caller's environment, by posix_spawn (no
// fork: the caller may be a large, multithreaded program), with standard input and error on
// /dev/null, standard output into a pipe, and every signal at its default and unblocked.  Reads its
// output until it closes it, then reaps it; at `limit` after the start, a child still running is
// killed with SIGKILL and reaped.  No zombie is ever left, whatever throws; EINTR is retried.
ChildResult run_child(const std::string &path, const std::vector<std::string> &arguments,
                      std::chrono::milliseconds limit);

}  // namespace asyncgemm::plan
