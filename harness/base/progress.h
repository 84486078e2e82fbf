// A progress line for long runs: cases done, rate and time left, redrawn twice a second on stderr when
// stderr is a terminal; nothing at all otherwise (logs and pipes stay clean).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace qc {

class ProgressLine {
public:
    // Starts showing `done` out of `total` under the given label, if stderr is a terminal.
    ProgressLine(std::string label, uint64_t total, const std::atomic<uint64_t> &done);
    ~ProgressLine();  // stop()
    // Stops and erases the line.
    void stop();

    // The text of the line, e.g. "run: 1200/20000 cases (6%), 850 cases/s, 22 s left". Exposed for tests.
    static std::string format(const std::string &label, uint64_t done, uint64_t total, double elapsed_s);

private:
    std::string label_;
    uint64_t total_;
    const std::atomic<uint64_t> &done_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
};

}  // namespace qc
