// ALGO_SM100_TCGEN05's self-check verdicts on disk: one small file per check (the family's, its MX
// scales'), GPU, driver and library build, in the autotune cache's directory (plan/cache_files.h), so
// that the helper runs once per GPU rather than once per process.
//
// The file, named selfcheck-<check>-<device name>-<UUID>-driver<driver version>-<library version>.txt
// (<check> sm100 or sm100-mx; every character but letters, digits, '.', '-' and '_' replaced by '_'),
// reads
//
//   asyncgemm-selfcheck format=1 family=sm100 library=0.1.0 kernels=3c2f0a9d41b7e655 driver=13000 uuid=GPU-... device=NVIDIA B200
//   pass
//
// or "fail <detail>" on its second line; kernels is a fingerprint of the family's embedded fatbin, so
// that a library rebuilt with other kernels under the same version checks again.  A file is trusted
// whole or not at all: anything else (another header, a third line, a missing final newline) makes it
// foreign, ignored with one warning and replaced by the next verdict.  Files are replaced by rename,
// so concurrent processes read a whole verdict or none; two that check at once both write the same.
// Needs no GPU: tests/unit exercises all of it.
#pragma once

#include <stdint.h>

#include <functional>
#include <optional>
#include <string>

#include "plan/self_check.h"

namespace asyncgemm::plan {

// The GPU, driver and library build a verdict holds for.
struct VerdictKey {
    std::string device_name;  // as cuDeviceGetName reports it
    std::string uuid;         // "GPU-..." (driver/device_uuid.h)
    int driver_version = 0;   // as cuDriverGetVersion reports it
    uint64_t kernels = 0;     // fingerprint of the family's fatbins
    std::string check = "sm100";  // which check (check_name: "sm100" the family's, "sm100-mx" its MX scales')
};

// The first line of the key's file.
std::string verdict_header(const VerdictKey &key);

// The key's file name (no directory).
std::string verdict_file_name(const VerdictKey &key);

class VerdictCache {
public:
    using Warn = std::function<void(const std::string &message)>;

    // The verdict file of `key` in `directory` ("": none, the verdict lives in memory only), which
    // tells the user of a foreign file or of a directory it cannot write through `warn`, at most once.
    VerdictCache(std::string directory, const VerdictKey &key, Warn warn);

    // The verdict on file, nullopt when there is none or it is not to be trusted.
    std::optional<SelfCheckOutcome> find();
    // Replaces the file with `outcome`, creating the directory if need be; when that fails the
    // verdict is kept in memory only (by the caller), and I/O failures never throw.
    void remember(const SelfCheckOutcome &outcome);

    // The file, "" when there is none.
    const std::string &path() const { return path_; }

private:
    void warn_once(const std::string &message);

    std::string directory_;
    std::string path_;
    std::string header_;
    Warn warn_;
    bool warned_ = false;
};

}  // namespace asyncgemm::plan
