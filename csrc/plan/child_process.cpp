#include "plan/child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

extern char **environ;

namespace asyncgemm::plan {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(const std::string &what, int error) { return what + ": " + strerror(error); }

// A file descriptor, closed at the end of the scope.
class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() { reset(); }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    int get() const { return fd_; }
    void reset() {
        if (fd_ >= 0) close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

// `fd` moved above standard error if it is one of 0, 1, 2 (a program started with them closed gets
// pipe ends there): the child's file actions put /dev/null and the pipe on those three, and a pipe
// end already in place would be closed by them or keep its close-on-exec flag through dup2.
int above_standard_streams(int fd) {
    if (fd < 0 || fd > STDERR_FILENO) return fd;
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    const int error = errno;
    close(fd);
    errno = error;
    return moved;
}

// waitpid retried on EINTR: the pid once reaped, 0 while it runs (WNOHANG), -1 when it cannot be
// waited for (ECHILD: another part of the program reaped it).
pid_t wait_for(pid_t pid, int *status, int flags) {
    for (;;) {
        const pid_t got = waitpid(pid, status, flags);
        if (got >= 0 || errno != EINTR) return got;
    }
}

// A started child: unless reaped by then, killed and reaped at the end of the scope, so that no
// early return or exception leaves it running or a zombie.
class StartedChild {
public:
    explicit StartedChild(pid_t pid) : pid_(pid) {}
    ~StartedChild() {
        if (pid_ > 0) kill_and_reap();
    }
    StartedChild(const StartedChild &) = delete;
    StartedChild &operator=(const StartedChild &) = delete;

    pid_t pid() const { return pid_; }
    void reaped() { pid_ = -1; }
    // Blocks until the kernel has ended it: a process stuck in the GPU driver may take a moment.
    void kill_and_reap() {
        int status = 0;
        kill(pid_, SIGKILL);
        wait_for(pid_, &status, 0);
        pid_ = -1;
    }

private:
    pid_t pid_;
};

// What posix_spawn needs besides the program: where the child's standard streams go, and its signals.
class SpawnSetup {
public:
    explicit SpawnSetup(int output) {
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        int error = posix_spawn_file_actions_init(&actions_);
        if (error == 0) {
            actions_ready_ = true;
            error = posix_spawnattr_init(&attributes_);
        }
        if (error == 0) {
            attributes_ready_ = true;
            // The pipe first: it may sit on neither 0 nor 2, which the opens then take.
            error = posix_spawn_file_actions_adddup2(&actions_, output, STDOUT_FILENO);
        }
        if (error == 0) error = posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        if (error == 0) error = posix_spawn_file_actions_addopen(&actions_, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
        // The caller's blocked or ignored signals are its own business, not the helper's: a crash
        // must end it with its signal.
        if (error == 0) error = posix_spawnattr_setsigmask(&attributes_, &none);
        if (error == 0) error = posix_spawnattr_setsigdefault(&attributes_, &all);
        if (error == 0) error = posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        error_ = error;
    }
    ~SpawnSetup() {
        if (attributes_ready_) posix_spawnattr_destroy(&attributes_);
        if (actions_ready_) posix_spawn_file_actions_destroy(&actions_);
    }
    SpawnSetup(const SpawnSetup &) = delete;
    SpawnSetup &operator=(const SpawnSetup &) = delete;

    int error() const { return error_; }
    const posix_spawn_file_actions_t *actions() const { return &actions_; }
    const posix_spawnattr_t *attributes() const { return &attributes_; }

private:
    posix_spawn_file_actions_t actions_{};
    posix_spawnattr_t attributes_{};
    bool actions_ready_ = false, attributes_ready_ = false;
    int error_ = 0;
};

int milliseconds_until(Clock::time_point deadline) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<decltype(left)>(left, 0, 1 << 30));
}

// Reads `fd` into `output` (up to kMaxChildOutput bytes, dropping the rest) until end of file, a read
// error or the deadline.
void read_until_closed(int fd, Clock::time_point deadline, std::string &output) {
    char buffer[4096];
    for (;;) {
        const int wait = milliseconds_until(deadline);
        if (wait == 0) return;
        pollfd ready{fd, POLLIN, 0};
        const int events = poll(&ready, 1, wait);
        if (events < 0 && errno != EINTR) return;
        if (events <= 0) continue;
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) return;
        output.append(buffer, std::min(static_cast<size_t>(got), kMaxChildOutput - output.size()));
    }
}

}  // namespace

ChildResult run_child(const std::string &path, const std::vector<std::string> &arguments,
                      std::chrono::milliseconds limit) {
    ChildResult result;
    const Clock::time_point deadline = Clock::now() + limit;

    // Close-on-exec: a helper that another thread starts at the same moment must not inherit the
    // write end, or this one's end of file would wait for that one to exit.
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) {
        result.problem = errno_text("cannot create a pipe", errno);
        return result;
    }
    const Descriptor read_end(above_standard_streams(ends[0]));
    Descriptor write_end(above_standard_streams(ends[1]));
    if (read_end.get() < 0 || write_end.get() < 0) {
        result.problem = errno_text("cannot create a pipe", errno);
        return result;
    }
    const SpawnSetup setup(write_end.get());
    if (setup.error() != 0) {
        result.problem = errno_text("cannot prepare to start " + path, setup.error());
        return result;
    }
    std::vector<std::string> words{path};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char *> argv;
    for (std::string &word : words) argv.push_back(word.data());
    argv.push_back(nullptr);

    pid_t pid = -1;
    // glibc reports a failed exec (no such file, not executable) here, and reaps that child itself.
    const int error = posix_spawn(&pid, path.c_str(), setup.actions(), setup.attributes(), argv.data(), environ);
    if (error != 0) {
        result.problem = errno_text("cannot start " + path, error);
        return result;
    }
    StartedChild child(pid);
    write_end.reset();  // the child's copy is now the only one: its exit is our end of file

    read_until_closed(read_end.get(), deadline, result.output);
    // It closed its output (or ran out of time): wait for its exit, politely, until the deadline.
    int status = 0;
    for (auto pause = std::chrono::milliseconds(1);; pause = std::min(pause * 2, std::chrono::milliseconds(50))) {
        const pid_t got = wait_for(child.pid(), &status, WNOHANG);
        if (got < 0) {
            child.reaped();
            result.end = ChildResult::End::StatusLost;
            return result;
        }
        if (got == child.pid()) break;
        if (milliseconds_until(deadline) == 0) {
            child.kill_and_reap();
            result.end = ChildResult::End::TimedOut;
            return result;
        }
        std::this_thread::sleep_for(std::min(pause, std::chrono::milliseconds(milliseconds_until(deadline))));
    }
    child.reaped();
    if (WIFSIGNALED(status)) {
        result.end = ChildResult::End::Signaled;
        result.code = WTERMSIG(status);
    } else {
        result.end = ChildResult::End::Exited;
        result.code = WEXITSTATUS(status);
    }
    return result;
}

}  // namespace asyncgemm::plan
