// Scratch state for one host test: a temporary directory, small files and executable stubs in it,
// an environment variable set for one scope.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace asyncgemm::test {

// A fresh directory from mkdtemp, removed with its contents at the end of the scope.
class TempDir {
public:
    TempDir() {
        char pattern[] = "/tmp/asyncgemm-test-XXXXXX";
        REQUIRE(mkdtemp(pattern) != nullptr);
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

// Sets (or, given nullptr, unsets) an environment variable for one scope and puts the old value back.
class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value) : name_(name) {
        const char *old = getenv(name);
        had_old_ = old != nullptr;
        if (had_old_) old_ = old;
        if (value != nullptr)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv() {
        if (had_old_)
            setenv(name_, old_.c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    const char *name_;
    bool had_old_ = false;
    std::string old_;
};

inline void write_file(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

inline std::string read_text(const std::string &path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// True when `file` is the directory's only entry: every temporary file was renamed or removed.
inline bool only_file_left(const std::string &directory, const std::string &file) {
    int entries = 0;
    for (const auto &entry : std::filesystem::directory_iterator(directory)) {
        ++entries;
        if (entry.path().filename() != file) return false;
    }
    return entries == 1;
}

// An executable shell script `name` in `directory` running `body`; returns its path.  Write every
// stub before starting any: a script still open for writing in a process that forks cannot be run.
inline std::string write_stub(const std::string &directory, const std::string &name, const std::string &body) {
    const std::string path = directory + "/" + name;
    write_file(path, "#!/bin/sh\n" + body + "\n");
    REQUIRE(chmod(path.c_str(), 0755) == 0);
    return path;
}

}  // namespace asyncgemm::test
