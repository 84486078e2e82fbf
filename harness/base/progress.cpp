#include "base/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace qc {

std::string ProgressLine::format(const std::string &label, uint64_t done, uint64_t total, double elapsed_s) {
    std::string s = fmt::format("{}: {}/{} cases ({}%)", label, done, total, total ? done * 100 / total : 100);
    if (done == 0 || elapsed_s <= 0) return s;
    const double rate = double(done) / elapsed_s;
    const double left = double(total - std::min(done, total)) / rate;
    s += fmt::format(", {:.0f} cases/s", rate);
    if (left >= 60) s += fmt::format(", {} min {:02d} s left", int(left) / 60, int(left) % 60);
    else s += fmt::format(", {} s left", int(left + 0.5));
    return s;
}

ProgressLine::ProgressLine(std::string label, uint64_t total, const std::atomic<uint64_t> &done)
    : label_(std::move(label)), total_(total), done_(done) {
    if (!isatty(STDERR_FILENO)) return;
    thread_ = std::thread([this] {
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stopping_; })) {
            double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::string line = format(label_, done_.load(std::memory_order_relaxed), total_, elapsed);
            std::fprintf(stderr, "\r\033[K%s", line.c_str());
            std::fflush(stderr);
        }
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
    });
}

void ProgressLine::stop() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

ProgressLine::~ProgressLine() { stop(); }

}  // namespace qc
