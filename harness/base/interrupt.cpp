#include "base/interrupt.h"

#include <fmt/format.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace qc {

namespace {
std::atomic<int> g_signal{0};        // the first signal received
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

StopToken signal_stop_token() { return StopToken(&g_pending, &g_signal); }
int interrupt_signal() { return g_signal.load(); }
void acknowledge_interrupt() { g_pending.store(false); }
Interrupted::Interrupted(int s)
    : std::runtime_error(fmt::format("interrupted by SIG{}", sigabbrev_np(s) ? sigabbrev_np(s) : "?")), sig(s) {}

}  // namespace qc
