// The child-process plumbing the two out-of-process backends share: `quatcheck worker` processes for
// shared-library plugins (isolated.cpp, worker.cpp) and adapter programs for process plugins
// (process_plugin.cpp, docs/plugin-protocol.md): spawning a child in its own process group with the
// descriptors it needs, reading and writing whole buffers, waiting on a descriptor with a deadline, and
// ending a child with everything it forked.
#pragma once

#include "base/context.h"

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace qc {

// What to start: argv (argv[0] a path, or with search_path a name looked up in PATH), and the descriptors
// it gets: each {fd of this process, the number it has in the child}. The child runs in its own process
// group (Ctrl-C reaches quatcheck only, and a SIGKILL to the group reaches whatever the child forks), with
// SIGINT, SIGTERM and SIGPIPE at their defaults and no signal blocked. Its stderr goes to /dev/null unless
// keep_stderr (RunContext::keep_child_stderr, QC_WORKER_STDERR=1: a chatty library, or a sanitizer report, must not break the tool's
// one-line output); its stdout too when discard_stdout. close_others: every descriptor of this process
// other than the mapped ones is closed in the child (else only O_CLOEXEC ones are).
struct SpawnSpec {
    std::vector<std::string> argv;
    bool search_path = false;
    std::vector<std::pair<int, int>> fds;
    bool discard_stdout = false;
    bool keep_stderr = false;
    bool close_others = false;
};

// A started child: its pid and pidfd (-1 on kernels before 5.3, where only end of file tells its end).
struct Child {
    pid_t pid = -1;
    int pidfd = -1;
};

// Starts the child (prepare_to_spawn() first). Returns 0, or the errno that made it fail (then child.pid
// is -1). The caller closes its copies of the child's descriptors afterwards.
int spawn_child(const SpawnSpec &spec, Child &child);

// Opens two close-on-exec pipes A and B (a child's two directions). Returns "", or the reason ("pipe: ...") with
// neither pipe left open.
std::string open_pipe_pair(int a[2], int b[2]);

// How a waitpid status reads: "killed by SIGSEGV", "exited with status 3", "ended".
std::string describe_exit(int status);

// Ends a child and closes its pidfd: waits up to `grace` for it to end by itself (it closed its pipe and
// is dying), then SIGKILLs its process group, reaps it, and reaps the group's other members (reap_group).
// Returns its waitpid status, and whether it had ended before the kill. child.pid is -1 afterwards; a
// child with pid -1 is left alone (status 0, not by itself).
struct ChildEnd {
    int status = 0;
    bool by_itself = false;
};
ChildEnd end_child(Child &child, std::chrono::milliseconds grace = std::chrono::milliseconds(0));

// Once per process, before the first worker or adapter is spawned: SIGPIPE is ignored (a dead child's pipe
// is an error, not a signal), and this process becomes a child subreaper (PR_SET_CHILD_SUBREAPER), so that
// what a plugin or adapter forks is handed to it, not to init, when its parent dies.
void prepare_to_spawn();
// After SIGKILL to a child's process group (a worker's, an adapter's) and the child reaped: reaps the
// group's other members, handed to this process as they lose their parent, so that nothing the plugin or
// adapter forked outlives quatcheck, not even as a zombie waiting for init. Waits at most 1 s for them.
void reap_group(pid_t pgid);

// Blocking whole-buffer I/O (EINTR retried): false on end of file or an error before n bytes.
bool read_all(int fd, void *p, size_t n);
bool write_all(int fd, const void *p, size_t n);

// I/O on a non-blocking descriptor with a deadline. Io::closed: end of file, an error, or (pidfd >= 0) the
// child has ended while a process it started still holds the pipe open, so that no end of file would ever
// come (after one last look: bytes written before the end still count). Io::input_closed: the child has
// closed its end of the pipe this process writes to (a write failed with EPIPE, or the pipe named by
// `input` while waiting to read): it reads nothing more, though it may still be running and writing.
enum class Io { ok, timeout, interrupted, closed, input_closed };
using Deadline = std::chrono::steady_clock::time_point;
// Waits for `events` (POLLIN, POLLOUT) on fd until the deadline; polls in slices of 100 ms so that a stop
// request is noticed. Io::ok: ready, or hung up (the read or write that follows says which). `input` (>= 0):
// the write end of the child's stdin pipe, watched too: when the child closes its end (and fd is not ready
// after one last look) the wait returns Io::input_closed.
Io wait_fd(int fd, short events, Deadline deadline, const StopToken &stop, int pidfd = -1, int input = -1);
// Io::input_closed when a write fails with EPIPE.
Io write_all(int fd, const char *p, size_t n, Deadline deadline, const StopToken &stop, int pidfd = -1);
// Reads exactly n bytes; *got says how many arrived (for a short answer's message). `input` as for wait_fd.
Io read_exact(int fd, char *p, size_t n, Deadline deadline, const StopToken &stop, int pidfd, size_t *got = nullptr,
              int input = -1);

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
