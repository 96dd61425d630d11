#include "progress.h"

#include <cstdio>

#include <unistd.h>

namespace bench {

Progress::Progress() : on_terminal_(isatty(STDERR_FILENO) == 1) {}

void Progress::start(const std::string &step) {
    ++done_;
    if (!on_terminal_) return;
    const int digits = std::snprintf(nullptr, 0, "%d", total_);
    char counter[32];
    std::snprintf(counter, sizeof counter, "[%*d/%d] ", digits, done_, total_);
    const std::string line = counter + step + " ...";
    // Spaces cover whatever a longer previous line left behind.
    const int pad = shown_ > line.size() ? int(shown_ - line.size()) : 0;
    std::fprintf(stderr, "\r%s%*s", line.c_str(), pad, "");
    std::fflush(stderr);
    shown_ = line.size();
}

void Progress::skip(int steps) {
    done_ += steps;
}

void Progress::clear() {
    if (!on_terminal_ || shown_ == 0) return;
    std::fprintf(stderr, "\r%*s\r", int(shown_), "");
    std::fflush(stderr);
    shown_ = 0;
}

}  // namespace bench
