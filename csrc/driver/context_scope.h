// Makes a context current on the calling thread for one scope, pushing it only when it is not
// current already (cuCtxGetCurrent reads thread-local state: cheap enough for every launch).
#pragma once

#include <cuda.h>

#include "driver/driver.h"
#include "driver/errors.h"

namespace asyncgemm {

class ContextScope {
public:
    ContextScope(const DriverApi &api, CUcontext context) : api_(api) {
        CUcontext current = nullptr;
        check(api_.cuCtxGetCurrent(&current), "cuCtxGetCurrent");
        if (current != context) {
            check(api_.cuCtxPushCurrent(context), "cuCtxPushCurrent");
            pushed_ = true;
        }
    }
    ~ContextScope() {
        // A pop of what this scope pushed cannot fail short of a broken driver, and a destructor has
        // no one to report to.
        CUcontext popped = nullptr;
        if (pushed_) api_.cuCtxPopCurrent(&popped);
    }
    ContextScope(const ContextScope &) = delete;
    ContextScope &operator=(const ContextScope &) = delete;

private:
    const DriverApi &api_;
    bool pushed_ = false;
};

}  // namespace asyncgemm
