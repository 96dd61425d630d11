// The files the library keeps in its cache directory (the autotune cache, the self-check's verdicts):
// where that directory is, and how a file there is read and replaced.
//
// Writers never lock: a file is replaced by renaming a private, fully written temporary file over it,
// so a reader in any process sees the old file or the new one, never a short one.
#pragma once

#include <stddef.h>

#include <optional>
#include <string>

namespace asyncgemm::plan {

// $ASYNCGEMM_CACHE_DIR, else $XDG_CACHE_HOME/asyncgemm, else $HOME/.cache/asyncgemm (empty
// variables count as unset; XDG_CACHE_HOME must be absolute); "" when none is set.
std::string default_cache_directory();

// "0.1.0": the version of the library, which names every cache file.
std::string library_version();

// `name` with every character but letters, digits, '.', '-' and '_' replaced by '_'.
std::string file_name_safe(std::string name);

// The bytes of `path`, or nullopt with `problem` saying why not; `missing` is set when it does not
// exist.  A file larger than `max_bytes` is refused: no cache file of this library grows that large.
std::optional<std::string> read_small_file(const std::string &path, size_t max_bytes, bool &missing,
                                           std::string &problem);

// Creates `directory` and its missing parents; "" on success, else why not.
std::string make_directories(const std::string &directory);

// Replaces `path` (in an existing directory) with a file holding `text`: written to a temporary file
// of its own, flushed to disk, renamed over `path`.  "" on success, else why not, and then
// no temporary file is left behind.
std::string replace_file(const std::string &path, const std::string &text);

}  // namespace asyncgemm::plan
