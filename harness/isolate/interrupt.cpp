#include "isolate/interrupt.h"

#include <fmt/format.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace qc {

namespace {
std::atomic<int> g_signal{0};      // the first signal received
std::atomic<bool> g_pending{false};  // stop requested and not yet acknowledged

void on_signal(int sig) {
    if (g_signal.load() != 0) {  // second signal: default action, now
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    g_signal.store(sig);
    g_pending.store(true);
}
}  // namespace

void install_interrupt_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

bool interrupt_requested() { return g_pending.load(std::memory_order_relaxed); }
int interrupt_signal() { return g_signal.load(); }
void acknowledge_interrupt() { g_pending.store(false); }
Interrupted::Interrupted(int s)
    : std::runtime_error(fmt::format("interrupted by SIG{}", sigabbrev_np(s) ? sigabbrev_np(s) : "?")), sig(s) {}

void throw_if_interrupted() {
    if (g_pending.load(std::memory_order_relaxed)) throw Interrupted(g_signal.load());
}

void request_interrupt_for_test(int sig) {
    g_signal.store(sig);
    g_pending.store(true);
}
void reset_interrupt_for_test() {
    g_pending.store(false);
    g_signal.store(0);
}

}  // namespace qc
