// A GPU's UUID in the text form nvidia-smi prints and CUDA_VISIBLE_DEVICES accepts: the name that
// stays the same for one GPU whatever ordinal a process's environment gives it.
#pragma once

#include <cuda.h>
#include <stdio.h>

#include <string>

namespace asyncgemm {

// "GPU-" and the 16 bytes in hexadecimal, grouped 8-4-4-4-12.
inline std::string uuid_string(const CUuuid &uuid) {
    std::string text = "GPU-";
    for (int i = 0; i < 16; ++i) {
        char digits[3];
        snprintf(digits, sizeof digits, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
        text += digits;
        if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
    }
    return text;
}

}  // namespace asyncgemm
