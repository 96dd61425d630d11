#!/usr/bin/env bash
# Installs what building asyncgemm needs on a Debian/Ubuntu machine (CMake, Ninja, doctest), if
# missing.  The CUDA toolkit (nvcc 13.0) must already be installed: it is not in Debian's archive.
set -euo pipefail

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v g++ >/dev/null || missing+=(g++)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v node >/dev/null || missing+=(nodejs)   # the Julia binding checks run under node
command -v npm >/dev/null || missing+=(npm)
[ -f /usr/include/doctest/doctest.h ] || missing+=(doctest-dev)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: nvcc not found: install the CUDA toolkit 13.0 (it provides nvcc and fatbinary)" >&2
    exit 1
fi
