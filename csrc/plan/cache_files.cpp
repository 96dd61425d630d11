#include "plan/cache_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>

#include "asyncgemm.h"

namespace asyncgemm::plan {
namespace {

std::string errno_text(const std::string &what) { return what + ": " + strerror(errno); }

bool is_directory(const std::string &path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Writes `text` to a new file `path` (which must not exist) and flushes it to disk, so the rename
// that publishes it never publishes a short file; "" on success, else why not.
std::string write_new_file(const std::string &path, const std::string &text) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return errno_text("cannot create " + path);
    std::string problem;
    for (size_t done = 0; done < text.size() && problem.empty();) {
        const ssize_t wrote = write(fd, text.data() + done, text.size() - done);
        if (wrote > 0)
            done += static_cast<size_t>(wrote);
        else if (wrote == 0 || errno != EINTR)
            problem = errno_text("cannot write " + path);
    }
    if (problem.empty() && fsync(fd) != 0) problem = errno_text("cannot flush " + path);
    if (close(fd) != 0 && problem.empty()) problem = errno_text("cannot close " + path);
    return problem;
}

// Names this process's temporary files apart from every other writer's: the pid tells processes
// apart (a fork() child has its own), the counter threads and caches within one process.
std::string temporary_path(const std::string &path) {
    static std::atomic<unsigned long> counter{0};
    return path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter.fetch_add(1));
}

}  // namespace

std::string default_cache_directory() {
    const auto variable = [](const char *name) {
        const char *value = getenv(name);
        return std::string(value != nullptr ? value : "");
    };
    const std::string explicit_directory = variable("ASYNCGEMM_CACHE_DIR");
    if (!explicit_directory.empty()) return explicit_directory;
    // The XDG base directory specification ignores relative paths.
    const std::string xdg_cache = variable("XDG_CACHE_HOME");
    if (!xdg_cache.empty() && xdg_cache[0] == '/') return xdg_cache + "/asyncgemm";
    const std::string home = variable("HOME");
    if (!home.empty()) return home + "/.cache/asyncgemm";
    return "";
}

std::string library_version() {
    return std::to_string(ASYNCGEMM_VERSION_MAJOR) + "." + std::to_string(ASYNCGEMM_VERSION_MINOR) + "." +
           std::to_string(ASYNCGEMM_VERSION_PATCH);
}

std::string file_name_safe(std::string name) {
    for (char &c : name) {
        const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                          c == '-' || c == '_';
        if (!kept) c = '_';
    }
    return name;
}

std::optional<std::string> read_small_file(const std::string &path, size_t max_bytes, bool &missing,
                                           std::string &problem) {
    missing = false;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        // ENOTDIR: the directory is not there either (a file stands in its place); writing will say so.
        missing = errno == ENOENT || errno == ENOTDIR;
        problem = errno_text("cannot be opened");
        return std::nullopt;
    }
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) problem = errno_text("cannot be read");
        if (got <= 0) break;
        text.append(buffer, static_cast<size_t>(got));
        if (text.size() > max_bytes) {
            problem = "is larger than any cache file this library writes";
            break;
        }
    }
    close(fd);
    if (!problem.empty()) return std::nullopt;
    return text;
}

std::string make_directories(const std::string &directory) {
    for (size_t slash = directory.find('/', 1);; slash = directory.find('/', slash + 1)) {
        const std::string prefix = directory.substr(0, slash);
        // An existing parent may answer EACCES rather than EEXIST when its own parent is not writable.
        if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
            const std::string problem = errno_text("cannot create " + prefix);
            if (!is_directory(prefix)) return problem;
        }
        if (slash == std::string::npos) break;
    }
    return is_directory(directory) ? "" : directory + " is not a directory";
}

std::string replace_file(const std::string &path, const std::string &text) {
    const std::string temporary = temporary_path(path);
    std::string problem = write_new_file(temporary, text);
    if (problem.empty() && rename(temporary.c_str(), path.c_str()) != 0)
        problem = errno_text("cannot rename " + temporary + " to " + path);
    if (!problem.empty()) unlink(temporary.c_str());
    return problem;
}

}  // namespace asyncgemm::plan
