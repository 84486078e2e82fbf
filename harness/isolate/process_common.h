// What the two out-of-process backends share: shared-library plugins in `quatcheck worker` processes
// (isolated.cpp) and process plugins speaking docs/plugin-protocol.md (process_plugin.cpp).
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace qc {

// How a child process ended, from its waitpid status: "killed by SIGSEGV", "exited with status 3", "ended".
std::string describe_exit(int status);

// Once per process, before the first worker or adapter is spawned: SIGPIPE is ignored (a dead child's pipe
// is an error, not a signal), and this process becomes a child subreaper (PR_SET_CHILD_SUBREAPER), so that
// what a plugin or adapter forks is handed to it, not to init, when its parent dies.
void prepare_to_spawn();
// After SIGKILL to a child's process group (a worker's, an adapter's) and the child reaped: reaps the
// group's other members, handed to this process as they lose their parent, so that nothing the plugin or
// adapter forked outlives quatcheck, not even as a zombie waiting for init. Waits at most 1 s for them.
void reap_group(pid_t pgid);

// Idle child processes of one backend, reused across batches: take() hands out an idle one (nullptr when
// none is idle: the caller starts a fresh one), give() returns one that answered its batch correctly. A
// process that failed is never given back; its destructor kills it.
template <class Process> class IdlePool {
public:
    std::unique_ptr<Process> take() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (idle_.empty()) return nullptr;
        auto p = std::move(idle_.back());
        idle_.pop_back();
        return p;
    }
    void give(std::unique_ptr<Process> p) {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_.push_back(std::move(p));
    }

private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<Process>> idle_;
};

}  // namespace qc
