// The worker side of containment: `quatcheck worker` loads one plugin (or picks one built-in family),
// then evaluates batches from the parent until its command pipe closes. Everything it does to itself
// (crash, hang, scribble) stays in this process; the parent sees a status.
#include "isolate/protocol.h"
#include "plugins/impls.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <thread>

namespace qc {

namespace {

bool read_all(int fd, void *p, size_t n) {
    auto *c = static_cast<char *>(p);
    while (n) {
        ssize_t k = ::read(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k, n -= size_t(k);
    }
    return true;
}

bool write_all(int fd, const void *p, size_t n) {
    auto *c = static_cast<const char *>(p);
    while (n) {
        ssize_t k = ::write(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k, n -= size_t(k);
    }
    return true;
}

void send_hello(const std::string &text) {
    uint32_t len = uint32_t(text.size());
    write_all(isolate::kReplyFd, &len, sizeof len);
    write_all(isolate::kReplyFd, text.data(), text.size());
}

// Guarded buffers: each argument sits at [kPad, kPad + 4) of a block filled with a canary pattern; after
// the call every canary and every input must be unchanged.
constexpr int kPad = 16, kBlock = 2 * kPad + 4;

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

// Evaluates one record; returns false when the function wrote where it must not.
template <class T> bool eval_guarded(const qc_impl_v1 &t, EvalFn fn, const double *rec, double *res) {
    alignas(64) T blk[5][kBlock];
    const T c = canary<T>();
    for (auto &b : blk)
        for (auto &x : b) x = c;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < 4; i++) blk[a][kPad + i] = T(rec[4 * a + i]);
    T before[4][kBlock];
    std::memcpy(before, blk, sizeof before);
    const T tt = T(rec[16]);
    T *q0 = blk[0] + kPad, *q1 = blk[1] + kPad, *s0 = blk[2] + kPad, *s1 = blk[3] + kPad, *out = blk[4] + kPad;
    constexpr bool f32 = sizeof(T) == 4;
    if constexpr (f32) {
        switch (fn) {
        case EvalFn::slerp: t.slerp_f32(q0, q1, tt, out); break;
        case EvalFn::nlerp: t.nlerp_f32(q0, q1, tt, out); break;
        case EvalFn::squad: t.squad_f32(q0, q1, s0, s1, tt, out); break;
        case EvalFn::squad_setup: t.squad_setup_f32(q0, q1, s0, out); break;
        }
    } else {
        switch (fn) {
        case EvalFn::slerp: t.slerp_f64(q0, q1, tt, out); break;
        case EvalFn::nlerp: t.nlerp_f64(q0, q1, tt, out); break;
        case EvalFn::squad: t.squad_f64(q0, q1, s0, s1, tt, out); break;
        case EvalFn::squad_setup: t.squad_setup_f64(q0, q1, s0, out); break;
        }
    }
    for (int i = 0; i < 4; i++) res[i] = double(out[i]);
    if (std::memcmp(before, blk, sizeof before) != 0) return false;
    for (int i = 0; i < kBlock; i++)
        if ((i < kPad || i >= kPad + 4) && std::memcmp(&blk[4][i], &c, sizeof(T)) != 0) return false;
    return true;
}

bool has_fn(const qc_impl_v1 &t, bool f32, EvalFn fn) {
    switch (fn) {
    case EvalFn::slerp: return f32 ? t.slerp_f32 != nullptr : t.slerp_f64 != nullptr;
    case EvalFn::nlerp: return f32 ? t.nlerp_f32 != nullptr : t.nlerp_f64 != nullptr;
    case EvalFn::squad: return f32 ? t.squad_f32 != nullptr : t.squad_f64 != nullptr;
    case EvalFn::squad_setup: return f32 ? t.squad_setup_f32 != nullptr : t.squad_setup_f64 != nullptr;
    }
    return false;
}

unsigned function_mask(const qc_impl_v1 &t) {
    const void *p[8] = {(void *)t.slerp_f32, (void *)t.nlerp_f32, (void *)t.squad_f32, (void *)t.squad_setup_f32,
                        (void *)t.slerp_f64, (void *)t.nlerp_f64, (void *)t.squad_f64, (void *)t.squad_setup_f64};
    unsigned m = 0;
    for (int k = 0; k < 8; k++)
        if (p[k]) m |= 1u << k;
    return m;
}

}  // namespace

int worker_main(const std::string &plugin_path, const std::string &builtin_family) {
    // Never outlive the parent, even stuck in a plugin that hangs. (PR_SET_PDEATHSIG would fire when the
    // parent *thread* that spawned this worker ends, which the runner's threads do after every region.)
    const pid_t parent = ::getppid();
    std::thread([parent] {
        while (::getppid() == parent) ::usleep(200000);
        ::_exit(0);
    }).detach();
    struct rlimit no_core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);  // a crashing plugin is reported, not dumped
    auto *shm = static_cast<isolate::Shared *>(
        ::mmap(nullptr, sizeof(isolate::Shared), PROT_READ | PROT_WRITE, MAP_SHARED, isolate::kSharedFd, 0));
    if (shm == MAP_FAILED) {
        send_hello("error\tworker: cannot map the shared block (run by quatcheck only)\n");
        return 2;
    }
    const qc_impl_v1 *table = nullptr;
    size_t count = 0;
    if (!plugin_path.empty()) {
        void *h = ::dlopen(plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *e = ::dlerror();
            std::string why = e ? e : "unknown dlopen error";
            for (auto &ch : why)
                if (ch == '\n' || ch == '\t') ch = ' ';
            send_hello("error\tcannot load plugin: " + why + "\n");
            return 2;
        }
        auto entry = reinterpret_cast<qc_plugin_v1_fn>(::dlsym(h, "qc_plugin_v1"));
        if (!entry) {
            send_hello("error\tnot a quatcheck plugin: no qc_plugin_v1 entry point\n");
            return 2;
        }
        table = entry(&count);
        if (auto why = check_descriptor(table, count); !why.empty()) {
            send_hello("error\trefused: " + why + "\n");
            return 2;
        }
    } else {
        for (const auto &b : builtin_impls())
            if (builtin_family == b.table->family) table = b.table, count = 1;
        if (!table) {
            send_hello("error\tno built-in family '" + builtin_family + "'\n");
            return 2;
        }
    }
    std::string hello = "ok\n";
    for (size_t i = 0; i < count; i++) hello += fmt::format("{}\t{}\n", table[i].family, function_mask(table[i]));
    send_hello(hello);

    isolate::Command cmd;
    while (read_all(isolate::kCommandFd, &cmd, sizeof cmd)) {
        if (cmd.magic != isolate::kMagic || cmd.descriptor >= count || cmd.precision > 1 || cmd.fn > 3 ||
            cmd.n > isolate::kMaxBatch)
            return 2;
        const qc_impl_v1 &t = table[cmd.descriptor];
        const bool f32 = cmd.precision == 0;
        const EvalFn fn = EvalFn(cmd.fn);
        if (!has_fn(t, f32, fn)) return 2;
        isolate::Reply reply{isolate::kMagic, 0, cmd.n};
        for (uint32_t i = 0; i < cmd.n; i++) {
            shm->progress.store(i, std::memory_order_release);
            bool clean = f32 ? eval_guarded<float>(t, fn, shm->in[i], shm->out[i])
                             : eval_guarded<double>(t, fn, shm->in[i], shm->out[i]);
            if (!clean) {
                reply.status = 1, reply.done = i;
                break;
            }
        }
        if (!write_all(isolate::kReplyFd, &reply, sizeof reply)) return 0;
        if (reply.status != 0) return 3;  // memory may be corrupt: do not serve another batch
    }
    return 0;
}

}  // namespace qc
