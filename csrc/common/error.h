// The library's one internal error type: a public status plus a one-line message.
//
// Host code throws asyncgemm::Error; the C entry points (capi/) catch it, store the message for
// asyncgemm_last_error() and return the status.  Nothing else crosses the ABI.
#pragma once

#include <stdexcept>
#include <string>

#include "asyncgemm.h"

namespace asyncgemm {

class Error : public std::runtime_error {
public:
    Error(asyncgemm_status_t status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    asyncgemm_status_t status() const noexcept { return status_; }

private:
    asyncgemm_status_t status_;
};

[[noreturn]] inline void fail(asyncgemm_status_t status, const std::string &message) {
    throw Error(status, message);
}

}  // namespace asyncgemm
