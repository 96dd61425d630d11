// What an asyncgemm_handle_t points to.  The C API's own; the GPU kernel tests, which link the
// library's objects, reach the Handle inside through it.
#pragma once

#include <memory>

#include "runtime/handle.h"

struct asyncgemm_handle_st {
    std::unique_ptr<asyncgemm::Handle> impl;
};
