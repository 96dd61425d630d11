// This thread's last failure message (see last_error.h).
#include "runtime/last_error.h"

#include <utility>

namespace asyncgemm {
namespace {

thread_local std::string message_of_this_thread;

}  // namespace

void set_last_error(std::string message) noexcept {
    message_of_this_thread = std::move(message);
}

const char *last_error() noexcept { return message_of_this_thread.c_str(); }

}  // namespace asyncgemm
