// The worker side of containment: `quatcheck worker` loads one plugin (or picks one built-in family),
// then evaluates batches from the parent until its command pipe closes. Everything it does to itself
// (crash, hang, scribble) stays in this process; the parent sees a status.
#include "isolate/child_process.h"
#include "isolate/plugin_functions.h"
#include "isolate/protocol.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <type_traits>
#include <utility>
#include <csignal>
#include <cstring>
#include <thread>

namespace qc {

namespace {

// The protocol's descriptors once moved out of the plugin's reach (protocol.h), the trap's read end, and
// this worker's pid (a call that returns in another process was forked by the plugin).
int g_cmd_fd = isolate::kCommandFd, g_reply_fd = isolate::kReplyFd, g_trap_fd = -1;
pid_t g_self = 0;

void send_hello(const std::string &text) {
    uint32_t len = uint32_t(text.size());
    write_all(g_reply_fd, &len, sizeof len);
    write_all(g_reply_fd, text.data(), text.size());
}

// Guarded buffers. Each argument sits in the middle of its own page (4096 bytes) filled with a canary
// pattern, and every page is fenced by kGuardPages PROT_NONE pages on both sides. After each call every
// input page must be unchanged and the output page unchanged outside out[0..3]: a stray write within 2 KB
// of an argument is reported as out-of-bounds at its case; one that reaches a guard page (up to
// 2 KB + kGuardPages * 4 KB away) ends the worker with SIGSEGV, reported as crashed at its case.
constexpr size_t kPage = 4096;
constexpr size_t kGuardPages = 16;
constexpr int kArgs = 5;  // q0, q1, s0, s1, out

template <class T> T canary() {
    T v;
    if constexpr (sizeof(T) == 4) {
        uint32_t b = 0x7fa5a5a5u;
        std::memcpy(&v, &b, 4);
    } else {
        uint64_t b = 0x7ff5a5a5a5a5a5a5ull;
        std::memcpy(&v, &b, 8);
    }
    return v;
}

template <class T> struct GuardedArgs {
    static constexpr size_t kPerPage = kPage / sizeof(T), kSlot = kPerPage / 2;
    T *page[kArgs] = {};
    T expected[kArgs][kPerPage];  // what each page must hold after the call (the out slot excepted)

    GuardedArgs() {
        const size_t total = (kArgs * (1 + kGuardPages) + kGuardPages) * kPage;
        void *m = ::mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) ::_exit(4);
        auto *base = static_cast<char *>(m);
        for (int a = 0; a < kArgs; a++) {
            char *pg = base + (kGuardPages + size_t(a) * (1 + kGuardPages)) * kPage;
            if (::mprotect(pg, kPage, PROT_READ | PROT_WRITE) != 0) ::_exit(4);
            page[a] = reinterpret_cast<T *>(pg);
            for (size_t i = 0; i < kPerPage; i++) page[a][i] = expected[a][i] = canary<T>();
        }
    }
    T *slot(int a) { return page[a] + kSlot; }
    void load(const double *rec) {
        for (int a = 0; a < 4; a++)
            for (int i = 0; i < 4; i++) page[a][kSlot + size_t(i)] = expected[a][kSlot + size_t(i)] = T(rec[4 * a + i]);
        for (int i = 0; i < 4; i++) page[4][kSlot + size_t(i)] = canary<T>();
    }
    // Whether the call wrote only into out[0..3].
    bool clean() const {
        for (int a = 0; a < 4; a++)
            if (std::memcmp(page[a], expected[a], kPage) != 0) return false;
        return std::memcmp(page[4], expected[4], kSlot * sizeof(T)) == 0 &&
               std::memcmp(page[4] + kSlot + 4, expected[4] + kSlot + 4, (kPerPage - kSlot - 4) * sizeof(T)) == 0;
    }
};

template <class T> GuardedArgs<T> &guarded_args() {
    static GuardedArgs<T> g;
    return g;
}

// One precision's functions of a descriptor: the qc_impl_v1 members of T's precision, and slerp_tau from the
// same descriptor's qc_impl_v2 when the plugin exports qc_plugin_v2 (t2), else nullptr.
// Evaluates one record with f (f.has(fn) checked); returns false when the function wrote where it must not.
template <class T> bool eval_guarded(const PluginFunctions<T> &f, EvalFn fn, const double *rec, double *res) {
    GuardedArgs<T> &g = guarded_args<T>();
    g.load(rec);
    const T tt = T(rec[16]);
    T *q0 = g.slot(0), *q1 = g.slot(1), *s0 = g.slot(2), *s1 = g.slot(3), *out = g.slot(4);
    f.call(fn, q0, q1, s0, s1, tt, T(rec[kEvalTauIndex]), out);
    // A copy of this worker forked inside the call: it must neither answer nor write a result.
    if (::getpid() != g_self) ::_exit(0);
    for (int i = 0; i < 4; i++) res[i] = double(out[i]);
    return g.clean();
}

bool printable_name(const char *s) {
    if (!s || !*s) return false;
    size_t n = 0;
    for (const char *c = s; *c; ++c, ++n) {
        if (n > 64) return false;
        bool ok =
            (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';
        if (!ok) return false;
    }
    return true;
}

}  // namespace

unsigned function_bits(const qc_impl_v1 &t, const qc_impl_v2 *t2) {
    const std::pair<bool, FunctionBit> set[] = {
        {t.slerp_f32 != nullptr, kSlerpF32},     {t.nlerp_f32 != nullptr, kNlerpF32},
        {t.squad_f32 != nullptr, kSquadF32},     {t.squad_setup_f32 != nullptr, kSquadSetupF32},
        {t.slerp_f64 != nullptr, kSlerpF64},     {t.nlerp_f64 != nullptr, kNlerpF64},
        {t.squad_f64 != nullptr, kSquadF64},     {t.squad_setup_f64 != nullptr, kSquadSetupF64},
        {t2 && t2->slerp_tau_f32, kSlerpTauF32}, {t2 && t2->slerp_tau_f64, kSlerpTauF64}};
    unsigned m = 0;
    for (const auto &[present, bit] : set)
        if (present) m |= bit;
    return m;
}

std::string check_descriptor(const qc_impl_v1 *table, size_t count) {
    if (!table) return "qc_plugin_v1 returned a NULL table";
    if (count == 0) return "qc_plugin_v1 returned no descriptors (count = 0)";
    if (count > 1024) return fmt::format("qc_plugin_v1 returned an implausible count {}", count);
    std::set<std::string> seen;
    for (size_t i = 0; i < count; ++i) {
        const qc_impl_v1 &t = table[i];
        if (!t.family || !*t.family) return fmt::format("descriptor {} has an empty family name", i);
        if (!printable_name(t.family))
            return fmt::format("descriptor {} has a family name that is not [A-Za-z0-9_-]{{1,64}}", i);
        if (!seen.insert(t.family).second) return fmt::format("family '{}' is declared twice", t.family);
        const unsigned bits = function_bits(t);
        if (!(bits & kAnyF32) && !(bits & kAnyF64))
            return fmt::format("family '{}' provides no function at all", t.family);
        if ((t.squad_f32 != nullptr) != (t.squad_setup_f32 != nullptr) ||
            (t.squad_f64 != nullptr) != (t.squad_setup_f64 != nullptr))
            return fmt::format("family '{}' provides squad without squad_setup or the reverse", t.family);
    }
    return {};
}

namespace {

// Out of the plugin's reach: the protocol's pipes go above kWorkerFdFloor, the shared block's fd is closed (it
// is mapped), every other inherited descriptor is closed, and fds 3-9 become one trap pipe. Returns the
// hello's error text, or empty.
std::string guard_descriptors() {
    int c = ::fcntl(isolate::kCommandFd, F_DUPFD_CLOEXEC, isolate::kWorkerFdFloor);
    int r = ::fcntl(isolate::kReplyFd, F_DUPFD_CLOEXEC, isolate::kWorkerFdFloor);
    if (c < 0 || r < 0) return "worker: cannot move its descriptors";
    g_cmd_fd = c, g_reply_fd = r;
    ::close_range(3, unsigned(isolate::kWorkerFdFloor - 1), 0);
    ::close_range(unsigned(std::max(c, r) + 1), ~0u, 0);
    int trap[2];
    if (::pipe2(trap, O_CLOEXEC | O_NONBLOCK) != 0) return "worker: cannot create its descriptor trap";
    g_trap_fd = ::fcntl(trap[0], F_DUPFD_CLOEXEC, isolate::kWorkerFdFloor);
    for (int fd = isolate::kTrapFdFirst; fd <= isolate::kTrapFdLast; fd++)
        if (fd != trap[1]) ::dup2(trap[1], fd);
    if (trap[0] < isolate::kTrapFdFirst || trap[0] > isolate::kTrapFdLast) ::close(trap[0]);
    if (trap[1] < isolate::kTrapFdFirst || trap[1] > isolate::kTrapFdLast) ::close(trap[1]);
    return {};
}

// The descriptors a worker serves: a plugin's qc_impl_v1 table, or its qc_impl_v2 table (v2) with `table`
// pointing at copies of its bases, or one built-in family.
struct Served {
    const qc_impl_v1 *table = nullptr;
    const qc_impl_v2 *v2 = nullptr;
    std::vector<qc_impl_v1> bases;
    size_t count = 0;
};

// Loads the plugin and checks its table; returns the hello's error text, or empty.
std::string load_plugin(const std::string &path, Served &s) {
    void *h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = ::dlerror();
        std::string why = e ? e : "unknown dlopen error";
        for (auto &ch : why)
            if (ch == '\n' || ch == '\t') ch = ' ';
        return "cannot load plugin: " + why;
    }
    auto entry = reinterpret_cast<qc_plugin_v1_fn>(::dlsym(h, "qc_plugin_v1"));
    auto entry2 = reinterpret_cast<qc_plugin_v2_fn>(::dlsym(h, "qc_plugin_v2"));
    if (!entry && !entry2) return "not a quatcheck plugin: no qc_plugin_v1 or qc_plugin_v2 entry point";
    if (entry2) {  // version 2 preferred; its bases are checked exactly as a v1 table
        s.v2 = entry2(&s.count);
        if (s.v2 && s.count > 0 && s.count <= 1024)
            for (size_t i = 0; i < s.count; i++) s.bases.push_back(s.v2[i].base);
        // (count 0 or implausible: check_descriptor refuses on the count alone, never reading the table)
        s.table = !s.v2 ? nullptr : s.bases.empty() ? &s.v2->base : s.bases.data();
    } else {
        s.table = entry(&s.count);
    }
    std::string why = check_descriptor(s.table, s.count);
    for (size_t i = 0; why.empty() && s.v2 && i < s.count; i++)
        if ((s.v2[i].slerp_tau_f32 && !s.v2[i].base.slerp_f32) || (s.v2[i].slerp_tau_f64 && !s.v2[i].base.slerp_f64))
            why = fmt::format("family '{}' provides slerp_tau without slerp in the same precision", s.table[i].family);
    return why.empty() ? why : "refused: " + why;
}

// Bytes the plugin wrote to the trap (fds 3-9) since the last look, drained.
int trapped() {
    int n = 0;
    if (g_trap_fd < 0 || ::ioctl(g_trap_fd, FIONREAD, &n) != 0 || n <= 0) return 0;
    char sink[4096];
    int total = 0;
    for (ssize_t k; (k = ::read(g_trap_fd, sink, sizeof sink)) > 0;) total += int(k);
    return total;
}

// Evaluates a batch's records with f; the reply says how far it went and why it stopped.
template <class T>
isolate::Reply serve_batch(const PluginFunctions<T> &f, EvalFn fn, const isolate::Command &cmd, isolate::Shared *shm) {
    isolate::Reply reply{isolate::kMagic, cmd.seq, isolate::kReplyOk, cmd.n, 0};
    for (uint32_t i = 0; i < cmd.n; i++) {
        shm->progress.store(i, std::memory_order_release);
        if (!eval_guarded(f, fn, shm->in[i], shm->out[i])) {
            reply.status = isolate::kReplyOutOfBounds, reply.done = i;
            break;
        }
        if (int bytes = trapped()) {
            reply.status = isolate::kReplyFdWrite, reply.done = i, reply.bytes = uint32_t(bytes);
            break;
        }
    }
    return reply;
}

// Serves batches until the command pipe closes (0), or stops at a malformed command (2) or after a batch that
// wrote where it must not (3: memory may be corrupt, do not serve another batch).
int serve(const Served &s, isolate::Shared *shm) {
    isolate::Command cmd;
    while (read_all(g_cmd_fd, &cmd, sizeof cmd)) {
        if (cmd.magic != isolate::kMagic || cmd.descriptor >= s.count || cmd.precision > 1 || cmd.fn > 4 ||
            cmd.n > isolate::kMaxBatch)
            return 2;
        const qc_impl_v1 &t = s.table[cmd.descriptor];
        const qc_impl_v2 *t2 = s.v2 ? &s.v2[cmd.descriptor] : nullptr;
        const EvalFn fn = EvalFn(cmd.fn);
        const PluginFunctions<float> f32 = plugin_functions<float>(t, t2);
        const PluginFunctions<double> f64 = plugin_functions<double>(t, t2);
        if (cmd.precision == 0 ? !f32.has(fn) : !f64.has(fn)) return 2;
        const isolate::Reply reply =
            cmd.precision == 0 ? serve_batch(f32, fn, cmd, shm) : serve_batch(f64, fn, cmd, shm);
        if (!write_all(g_reply_fd, &reply, sizeof reply)) return 0;
        if (reply.status != 0) return 3;
    }
    return 0;
}

}  // namespace

int worker_main(const std::string &plugin_path, const std::string &builtin_family, const qc_impl_v1 *builtin_table) {
    // Never outlive the parent, even stuck in a plugin that hangs. (PR_SET_PDEATHSIG would fire when the
    // parent *thread* that spawned this worker ends, which the runner's threads do after every region.)
    const pid_t parent = ::getppid();
    std::thread([parent] {
        while (::getppid() == parent) ::usleep(200000);
        ::_exit(0);
    }).detach();
    g_self = ::getpid();
    struct rlimit no_core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);  // a crashing plugin is reported, not dumped
    auto *shm = static_cast<isolate::Shared *>(
        ::mmap(nullptr, sizeof(isolate::Shared), PROT_READ | PROT_WRITE, MAP_SHARED, isolate::kSharedFd, 0));
    std::string error =
        shm == MAP_FAILED ? "worker: cannot map the shared block (run by quatcheck only)" : guard_descriptors();
    Served served;
    if (error.empty() && !plugin_path.empty()) {
        error = load_plugin(plugin_path, served);
    } else if (error.empty()) {
        served.table = builtin_table, served.count = 1;
        if (!builtin_table) error = "no built-in family '" + builtin_family + "'";
    }
    if (!error.empty()) {
        send_hello("error\t" + error + "\n");
        return 2;
    }
    std::string hello = "ok\n";
    for (size_t i = 0; i < served.count; i++)
        hello += fmt::format("{}\t{}\n", served.table[i].family,
                             function_bits(served.table[i], served.v2 ? &served.v2[i] : nullptr));
    trapped();  // what the plugin's constructor wrote there is not a case's
    send_hello(hello);
    return serve(served, shm);
}

}  // namespace qc
