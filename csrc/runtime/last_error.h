// This thread's last failure message, which asyncgemm_last_error() hands out.
//
// The C entry points record the message of the exception a call failed with; internal code records
// why it turned something down without failing the call (a family disabled by its self-check), so
// that a caller who sees the fallback can ask why.
#pragma once

#include <string>

namespace asyncgemm {

// Replaces this thread's message.  The message is moved in, so storing it allocates nothing and
// cannot fail; building it (string concatenation) may throw, and is the caller's business.
void set_last_error(std::string message) noexcept;

// This thread's message, "" if none; valid until the next set_last_error on this thread.
const char *last_error() noexcept;

}  // namespace asyncgemm
