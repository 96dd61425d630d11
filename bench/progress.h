// The "[ 7/42] 4096x4096x4096 f16 NN PIPELINED ..." line on stderr, rewritten in place as the rows
// go by and erased at the end.  Silent when stderr is not a terminal, so logs stay clean.
#pragma once

#include <cstddef>
#include <string>

namespace bench {

class Progress {
public:
    Progress();
    void set_total(int steps) { total_ = steps; }
    void start(const std::string &step);  // the next step begins
    void skip(int steps);                 // steps that will not run
    void clear();

private:
    bool on_terminal_;
    int total_ = 0;
    int done_ = 0;
    std::size_t shown_ = 0;  // characters on the line now
};

}  // namespace bench
