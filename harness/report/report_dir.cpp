#include "report/report_dir.h"

#include "quatcheck/types.h"
#include "base/shard.h"
#include "tables/schemas.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace qc {

namespace fs = std::filesystem;

namespace {

// Writes CONTENT to a new file PATH (fsynced). Returns false with errno set on failure (PATH removed).
bool write_new_file(const fs::path &path, const std::string &content) {
    std::FILE *f = std::fopen(path.c_str(), "wbx");
    if (!f) return false;
    size_t n = std::fwrite(content.data(), 1, content.size(), f);
    bool ok = n == content.size() && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
    int err = errno;
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) {
        if (errno == 0) errno = err ? err : EIO;
        err = errno;
        std::remove(path.c_str());
        errno = err;
    }
    return ok;
}

void fsync_dir(const fs::path &dir) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// Whether process PID is gone (killed outright: SIGKILL, power loss).
bool pid_gone(long pid) { return pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH; }

// Whether the folder open as FD is the root of a mount (a bind mount, a volume, NFS) or lies on another
// device than DEV: a folder the tool must neither carry over nor delete into.
bool other_mount(int fd, dev_t dev) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_dev != dev) return true;
    struct statx sx {};
    if (::statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) == 0 && (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
        return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
    return false;
}

// Deletes the tree under the folder open as DIRFD (closed here) without ever leaving its file system: a
// folder that is the root of a mount, or on another device, is neither entered nor removed (its path is
// added to KEPT). Symlinks are removed, never followed.
void remove_contents(int dirfd, dev_t dev, const fs::path &path, std::vector<fs::path> &kept) {
    DIR *d = ::fdopendir(dirfd);
    if (!d) {
        ::close(dirfd);
        return;
    }
    std::vector<std::string> names;
    while (struct dirent *e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n != "." && n != "..") names.push_back(n);
    }
    for (const auto &n : names) {
        if (::unlinkat(dirfd, n.c_str(), 0) == 0) continue;
        if (errno == EBUSY) {  // a file bind-mounted over
            kept.push_back(path / n);
            continue;
        }
        if (errno != EISDIR && errno != EPERM) continue;
        int sub = ::openat(dirfd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) continue;
        if (other_mount(sub, dev)) {
            ::close(sub);
            kept.push_back(path / n);
            continue;
        }
        remove_contents(sub, dev, path / n, kept);
        ::unlinkat(dirfd, n.c_str(), AT_REMOVEDIR);
    }
    ::closedir(d);
}

// Removes folder PATH (or file) as remove_all does, but never descends into another file system (issue 44:
// a bind mount inside --out had its files deleted). Returns the mount points it left in place.
std::vector<fs::path> remove_tree(const fs::path &path) {
    std::vector<fs::path> kept;
    if (::unlink(path.c_str()) == 0 || errno == ENOENT) return kept;
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return kept;
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return kept;
    }
    remove_contents(fd, st.st_dev, path, kept);
    if (kept.empty()) ::rmdir(path.c_str());
    return kept;
}

// Removes a folder of the tool's own (a staging folder or the old report); a mount point found inside is left
// in place and said, with the folder that still holds it.
void remove_own_folder(const fs::path &path) {
    for (const auto &m : remove_tree(path))
        std::fprintf(stderr,
                     "quatcheck: warning: %s is a mount point; it was left in place (nothing in it was deleted): "
                     "unmount it, then remove %s\n",
                     m.c_str(), path.c_str());
}

// The mount points of this process (/proc/self/mountinfo, field 5, octal escapes decoded).
std::vector<fs::path> mount_points() {
    std::vector<fs::path> out;
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    while (std::getline(in, line)) {
        size_t at = 0;
        for (int field = 0; field < 4 && at != std::string::npos; field++) at = line.find(' ', at + 1);
        if (at == std::string::npos) continue;
        const size_t end = line.find(' ', at + 1);
        const std::string raw = line.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
        std::string m;
        for (size_t i = 0; i < raw.size(); i++) {
            if (raw[i] == '\\' && i + 3 < raw.size()) {
                const std::string oct = raw.substr(i + 1, 3);
                if (oct.size() == 3 && oct.find_first_not_of("01234567") == std::string::npos) {
                    m += char(std::stoi(oct, nullptr, 8));
                    i += 3;
                    continue;
                }
            }
            m += raw[i];
        }
        out.emplace_back(m);
    }
    return out;
}

// Refuses an --out that is a mount point or holds one (issue 44): the folder is replaced by a rename, which a
// mount point cannot take part in, and a mount inside would be carried into the new folder by copying and
// then deleted with the old one.
// REAL: the folder with every symbolic link resolved, as mountinfo names mount points.
void refuse_mounts(const fs::path &real, const fs::path &as_given) {
    for (const auto &m : mount_points()) {
        if (m == real)
            throw UsageError(fmt::format(
                "--out: {} is a mount point (a volume or a bind mount); quatcheck replaces a report folder as a "
                "whole by renaming it, which a mount point cannot be: write into a folder inside it, e.g. --out {}",
                as_given.string(), (as_given / "latest").string()));
        auto rel = m.lexically_relative(real);
        if (!rel.empty() && *rel.begin() != ".." && rel != ".")
            throw UsageError(fmt::format(
                "--out: {} holds a mount point, {}; quatcheck replaces a report folder as a whole, and will not "
                "carry a mounted file system into the new folder or delete from it: unmount it, move it out of the "
                "report folder, or choose another --out",
                as_given.string(), m.string()));
    }
}

// Copies the extended attributes of FROM (user tags, POSIX ACLs, security labels) to folder TO. Throws
// UsageError naming the attribute that cannot be kept.
void keep_xattrs(const fs::path &from, const fs::path &to) {
    ssize_t n = ::llistxattr(from.c_str(), nullptr, 0);
    if (n <= 0) return;  // none, or a file system without them
    std::string names(size_t(n), '\0');
    n = ::llistxattr(from.c_str(), names.data(), names.size());
    if (n < 0) return;
    names.resize(size_t(n));
    for (size_t at = 0; at < names.size();) {
        const std::string name = names.c_str() + at;
        at += name.size() + 1;
        ssize_t k = ::lgetxattr(from.c_str(), name.c_str(), nullptr, 0);
        if (k < 0) continue;
        std::string value(size_t(k), '\0');
        k = ::lgetxattr(from.c_str(), name.c_str(), value.data(), value.size());
        if (k < 0) continue;
        value.resize(size_t(k));
        if (::lsetxattr(to.c_str(), name.c_str(), value.data(), value.size(), 0) != 0)
            throw UsageError(fmt::format(
                "{}: cannot keep its extended attribute {} in the new report ({}); quatcheck replaces a report "
                "folder as a whole: remove the attribute or choose another --out",
                from.string(), name, std::strerror(errno)));
    }
}

// Gives folder TO the owner and group of AS (a folder the tool replaces, or one it carries over). Throws
// UsageError when it cannot (another user's folder): the new folder would change hands.
void keep_owner(const struct stat &as, const fs::path &from, const fs::path &to) {
    struct stat now {};
    if (::stat(to.c_str(), &now) == 0 && now.st_uid == as.st_uid && now.st_gid == as.st_gid) return;
    if (::chown(to.c_str(), as.st_uid, as.st_gid) != 0)
        throw UsageError(
            fmt::format("{}: owned by uid {} gid {}, which the new report folder cannot be given ({}); "
                        "quatcheck replaces a report folder as a whole: write it as its owner or choose another --out",
                        from.string(), as.st_uid, as.st_gid, std::strerror(errno)));
}

// Gives folder TO the permission bits and times of AS, after its content is in place.
void keep_mode_and_times(const struct stat &as, const fs::path &from, const fs::path &to) {
    const struct timespec times[2] = {as.st_atim, as.st_mtim};
    if (::chmod(to.c_str(), as.st_mode & 07777) != 0 || ::utimensat(AT_FDCWD, to.c_str(), times, 0) != 0)
        throw UsageError(
            fmt::format("{}: cannot keep its permissions in the new report: {}", from.string(), std::strerror(errno)));
}

// Puts FROM's content at TO (a new name in the staging folder): hard links for every file (no data copied,
// the same inode keeps its permissions, owner and times; FIFOs, sockets and devices too), the same link for
// symlinks, folders recreated recursively with their permissions, owner and times.
void carry_over(const fs::path &from, const fs::path &to) {
    std::error_code ec;
    struct stat st {};
    if (::lstat(from.c_str(), &st) != 0)
        throw UsageError(fmt::format("{}: cannot read: {}", from.string(), std::strerror(errno)));
    if (S_ISLNK(st.st_mode)) {
        fs::copy_symlink(from, to, ec);
    } else if (S_ISDIR(st.st_mode)) {
        // A mount that appeared after the start (refuse_mounts) is refused too: nothing is copied out of it.
        int fd = ::open(from.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat parent {};
        const bool mounted =
            fd >= 0 && ::stat(from.parent_path().c_str(), &parent) == 0 && other_mount(fd, parent.st_dev);
        if (fd >= 0) ::close(fd);
        if (mounted)
            throw UsageError(fmt::format(
                "{}: a mount point inside the report folder; quatcheck will not carry a mounted file system into "
                "the new folder or delete from it: unmount it or move it out of the report folder",
                from.string()));
        if (fs::create_directory(to, ec) && !ec) {
            keep_owner(st, from, to);
            keep_xattrs(from, to);
            for (const auto &e : fs::directory_iterator(from, ec)) carry_over(e.path(), to / e.path().filename());
            if (!ec) keep_mode_and_times(st, from, to);
        }
    } else if (::link(from.c_str(), to.c_str()) != 0) {
        if (!S_ISREG(st.st_mode))  // a file system without hard links: only a regular file can be copied
            throw UsageError(
                fmt::format("{}: cannot carry over into the new report (not a regular file, and no hard "
                            "link: {}); move it out of the report folder",
                            from.string(), std::strerror(errno)));
        fs::copy_file(from, to, ec);
    }
    if (ec) throw UsageError(fmt::format("{}: cannot carry over into the new report: {}", from.string(), ec.message()));
}

// The name of the sibling ".NAME" + SUFFIX of report folder NAME (its lock, staging and old folders). A name
// too long for the suffix and a process id within a file name's 255 bytes is cut to 200 bytes followed by a
// hash of the whole name, so that a legal folder name always has its siblings and two names never share them.
std::string sibling(const std::string &name, const std::string &suffix) {
    if (1 + name.size() + suffix.size() + 12 <= 255) return "." + name + suffix;
    return fmt::format(".{}~{}{}", name.substr(0, 200), fnv1a64_hex(name.data(), name.size()), suffix);
}

// The folder --out DIR names, absolute, with a symlink at its end resolved; refuses what cannot be replaced as
// a whole: the root, `.`/`..`, the current folder or one holding it, a mount point or a folder holding one.
fs::path report_folder(const fs::path &dir) {
    std::error_code ec;
    fs::path out;
    if (dir.empty()) throw UsageError("--out: empty folder name");
    // `.` and `..` as the last component name the folder that holds the current one (or it): checked on the
    // path as given, before normalising removes them.
    {
        std::string given = dir.string();
        while (given.size() > 1 && given.back() == '/') given.pop_back();
        const std::string last = fs::path(given).filename().string();
        if (last == "." || last == "..")
            throw UsageError(
                fmt::format("--out: {} names the current folder or one that holds it; quatcheck replaces "
                            "a report folder as a whole: name a folder of its own, e.g. --out {}",
                            dir.string(), (fs::path(given) / "report").string()));
    }
    out = fs::absolute(dir, ec).lexically_normal();
    if (!out.has_filename()) out = out.parent_path();  // a trailing slash
    // A symlinked --out: swap the folder it points to, and keep the link.
    if (fs::is_symlink(out, ec)) {
        fs::path target = fs::canonical(out, ec);
        if (ec) {
            std::error_code ec2;
            throw UsageError(
                fmt::format("--out: {} is a symbolic link to {}, which does not exist; create that folder "
                            "or remove the link",
                            dir.string(), fs::read_symlink(out, ec2).string()));
        }
        out = target;
    }
    if (out == out.root_path())
        throw UsageError(fmt::format("--out: cannot replace {} as a whole; name a folder of its own", dir.string()));
    // The current folder or one above it would be swapped away under this process (and its shell).
    std::error_code real_ec;
    const fs::path real = fs::weakly_canonical(out, real_ec);
    {
        const fs::path cwd = fs::current_path(ec);
        const fs::path rel = cwd.lexically_relative(real);
        if (!cwd.empty() && !rel.empty() && *rel.begin() != "..")
            throw UsageError(
                fmt::format("--out: {} is the current folder or holds it; quatcheck replaces a report "
                            "folder as a whole: name a folder of its own",
                            dir.string()));
    }
    if (!real_ec) refuse_mounts(real, dir);
    if (fs::exists(out, ec) && !fs::is_directory(out, ec))
        throw UsageError(fmt::format("--out: {} exists and is not a folder", out.string()));
    return out;
}

}  // namespace

void write_file_atomic(const fs::path &path, const std::string &content) {
    fs::path tmp = path;
    tmp += fmt::format(".tmp-{}", ::getpid());
    std::remove(tmp.c_str());
    if (!write_new_file(tmp, content))
        throw UsageError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw UsageError(fmt::format("{}: cannot move into place: {}", path.string(), ec.message()));
    }
}

void write_files_atomic(const fs::path &dir, const std::vector<std::pair<std::string, std::string>> &files) {
    std::vector<fs::path> tmps;
    auto drop = [&] {
        for (const auto &t : tmps) std::remove(t.c_str());
    };
    for (const auto &[name, content] : files) {
        fs::path tmp = dir / fmt::format(".{}.tmp-{}", name, ::getpid());
        std::remove(tmp.c_str());
        if (!write_new_file(tmp, content)) {
            int err = errno;
            drop();
            throw UsageError(fmt::format("{}: cannot write: {} (no file of this output was replaced)",
                                         (dir / name).string(), std::strerror(err)));
        }
        tmps.push_back(tmp);
    }
    for (size_t k = 0; k < files.size(); k++) {
        std::error_code ec;
        fs::rename(tmps[k], dir / files[k].first, ec);
        if (ec) {
            drop();
            throw UsageError(
                fmt::format("{}: cannot move into place: {}", (dir / files[k].first).string(), ec.message()));
        }
    }
    fsync_dir(dir);
}

namespace {
// The previous lock holder's pid, read from the lock file, when it was killed outright: its staging (or old)
// folder is the one leftover this writer may remove, recognised by that record, not by a name prefix alone.
void remove_dead_holder_leftovers(int lock_fd, const fs::path &parent, const std::string &name) {
    char prev[32] = {};
    ssize_t got = ::pread(lock_fd, prev, sizeof prev - 1, 0);
    const long prev_pid = got > 0 ? std::strtol(prev, nullptr, 10) : 0;
    if (prev_pid != ::getpid() && pid_gone(prev_pid))
        for (const char *suffix : {".staging-", ".old-"}) {
            const fs::path left = parent / fmt::format("{}{}", sibling(name, suffix), prev_pid);
            struct stat lst {};
            if (::lstat(left.c_str(), &lst) == 0 && S_ISDIR(lst.st_mode) && lst.st_uid == ::geteuid())
                remove_own_folder(left);
        }
}
}  // namespace

ReportDir::ReportDir(const fs::path &dir, StopToken stop) : stop_(stop) {
    std::error_code ec;
    dir_ = report_folder(dir);
    fs::path parent = dir_.has_parent_path() ? dir_.parent_path() : fs::path(".");
    const std::string name = dir_.filename().string();

    // Missing parents are created now (the lock and the staging folder live there) and removed again, if
    // still empty, when nothing is committed.
    for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        created_parents_.insert(created_parents_.begin(), p);
        if (p == p.parent_path()) break;
    }
    fs::create_directories(parent, ec);
    if (ec || !fs::is_directory(parent))
        throw UsageError(fmt::format("--out: cannot create report folder {}: {}", dir_.string(),
                                     ec ? ec.message() : "parent is not a folder"));

    // The lock: an exclusive flock on .NAME.lock. Its holder unlinks it before closing, so a waiter that
    // locked the unlinked file sees another inode under the name and starts over.
    lock_path_ = parent / sibling(name, ".lock");
    for (;;) {
        int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            int err = errno;
            release();
            throw UsageError(
                fmt::format("--out: report folder {} is not writable: {}", dir_.string(), std::strerror(err)));
        }
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            char buf[32] = {};
            ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
            long pid = n > 0 ? std::strtol(buf, nullptr, 10) : 0;
            ::close(fd);
            release();
            throw UsageError(
                fmt::format("--out: report folder {} is being written by another quatcheck{}; "
                            "try again when it has finished",
                            dir_.string(), pid > 0 ? fmt::format(" (pid {})", pid) : ""));
        }
        struct stat held {
        }, named{};
        if (::fstat(fd, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
            held.st_dev == named.st_dev) {
            lock_fd_ = fd;
            remove_dead_holder_leftovers(fd, parent, name);
            std::string pid = fmt::format("{}\n", ::getpid());
            if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
            }  // the pid is only for the error message above
            break;
        }
        ::close(fd);  // the previous holder removed it meanwhile
    }

    const std::string staging_prefix = sibling(name, ".staging-");
    staging_ = parent / fmt::format("{}{}", staging_prefix, ::getpid());
    remove_own_folder(staging_);
    if (!fs::create_directory(staging_, ec) || ::access(staging_.c_str(), W_OK) != 0) {
        const std::string why = ec ? ec.message() : std::strerror(EACCES);
        release();
        throw UsageError(fmt::format("--out: report folder {} is not writable: {}", dir_.string(), why));
    }
    // The new folder keeps the owner of the one it replaces (refused now, before any work, when it cannot).
    struct stat st {};
    if (::stat(dir_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        try {
            keep_owner(st, dir_, staging_);
            keep_xattrs(dir_, staging_);  // checked now, before any work; again at commit()
        } catch (const UsageError &) {
            release();
            throw;
        }
    }
}

void ReportDir::release() {
    // The staging folder goes before the lock: a kill in between leaves the lock file with this pid, by which
    // the next writer recognises the folder as a leftover of the tool's.
    if (!committed_ && !staging_.empty()) remove_own_folder(staging_);
    if (lock_fd_ >= 0) {
        ::unlink(lock_path_.c_str());
        ::close(lock_fd_);
        lock_fd_ = -1;
    }
    if (!committed_) {
        // Parents this object created, deepest first, if nothing else was put there (the lock file was).
        std::error_code ec;
        for (auto it = created_parents_.rbegin(); it != created_parents_.rend(); ++it) fs::remove(*it, ec);
    }
}

ReportDir::~ReportDir() { release(); }

void ReportDir::write(const std::string &name, const std::string &content) {
    stop_.throw_if_requested();
    if (name.empty() || name.find('/') != std::string::npos || name[0] == '.')
        throw UsageError(fmt::format("internal: bad report file name '{}'", name));
    // A failure (a full disk, ulimit -f) names the report file it was writing, not its staging copy.
    const fs::path staged = staging_ / name;
    std::remove(staged.c_str());
    if (!write_new_file(staged, content))
        throw UsageError(fmt::format("{}: cannot write: {}; {} left as it was", (dir_ / name).string(),
                                     std::strerror(errno), dir_.string()));
    if (std::find(files_.begin(), files_.end(), name) == files_.end()) files_.push_back(name);
}

void ReportDir::discard(const std::string &name) { discarded_.insert(name); }

void ReportDir::adopt(const std::string &name) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw UsageError(fmt::format("internal: ReportDir::adopt: bad name '{}'", name));
    if (std::find(files_.begin(), files_.end(), name) == files_.end()) files_.push_back(name);
}

void ReportDir::commit() {
    if (committed_) throw UsageError("internal: ReportDir committed twice");
    // schema.json: the columns of every table (as `quatcheck tables` prints them), beside the CSVs and
    // swapped in with them, for the Python readers (scripts/qc_tables.py).
    bool csv = std::any_of(files_.begin(), files_.end(),
                           [](const std::string &f) { return fs::path(f).extension() == ".csv"; });
    if (csv && std::find(files_.begin(), files_.end(), "schema.json") == files_.end())
        write("schema.json", tables::to_json().dump(1) + "\n");

    std::error_code ec;
    const bool exists = fs::is_directory(dir_, ec);
    if (exists) {
        // What this command does not rewrite stays: other commands' tables, the user's own files.
        for (const auto &e : fs::directory_iterator(dir_, ec)) {
            std::string n = e.path().filename().string();
            if (std::find(files_.begin(), files_.end(), n) != files_.end()) continue;
            if (discarded_.count(n)) continue;
            carry_over(e.path(), staging_ / n);
        }
        if (ec) throw UsageError(fmt::format("{}: cannot read: {}", dir_.string(), ec.message()));
    }
    // The folder keeps its extended attributes and permission bits (a 0700 report stays 0700); its times are
    // the swap's.
    if (exists) keep_xattrs(dir_, staging_);
    struct stat st {};
    if (exists && ::stat(dir_.c_str(), &st) == 0 && ::chmod(staging_.c_str(), st.st_mode & 07777) != 0)
        throw UsageError(
            fmt::format("{}: cannot keep its permissions in the new report: {}", dir_.string(), std::strerror(errno)));
    fsync_dir(staging_);
    stop_.throw_if_requested();  // the last moment an interrupt leaves --out as it was

    if (exists) {
        if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
            if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
                throw UsageError(
                    fmt::format("{}: cannot swap in the new report: {}", dir_.string(), std::strerror(errno)));
            // A file system without RENAME_EXCHANGE: two renames. In between, DIR is briefly absent (never
            // a mix of two reports).
            fs::path old =
                dir_.parent_path() / fmt::format("{}{}", sibling(dir_.filename().string(), ".old-"), ::getpid());
            fs::rename(dir_, old, ec);
            if (ec) throw UsageError(fmt::format("{}: cannot swap in the new report: {}", dir_.string(), ec.message()));
            fs::rename(staging_, dir_, ec);
            if (ec) {
                std::error_code back;
                fs::rename(old, dir_, back);
                throw UsageError(fmt::format("{}: cannot swap in the new report: {}", dir_.string(), ec.message()));
            }
            fs::rename(old, staging_, ec);
        }
    } else {
        if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_NOREPLACE) != 0) {
            if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
                throw UsageError(
                    fmt::format("{}: cannot move the new report into place: {}", dir_.string(), std::strerror(errno)));
            fs::rename(staging_, dir_, ec);
            if (ec)
                throw UsageError(
                    fmt::format("{}: cannot move the new report into place: {}", dir_.string(), ec.message()));
        }
    }
    committed_ = true;
    fsync_dir(dir_.parent_path());
    remove_own_folder(staging_);  // now the previous report (nothing, if there was none)
    release();
}

}  // namespace qc
