#include "report/report_dir.h"

#include "quatcheck/types.h"
#include "run/shard.h"
#include "tables/schemas.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

// Whether the process of a `...-PID` leftover is gone (killed outright: SIGKILL, power loss).
bool owner_gone(const std::string &name, const std::string &prefix) {
    if (name.rfind(prefix, 0) != 0) return false;
    char *end = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    return pid > 0 && *end == '\0' && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
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
        if (fs::create_directory(to, ec) && !ec) {
            keep_owner(st, from, to);
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

ReportDir::ReportDir(const fs::path &dir, StopToken stop) : stop_(stop) {
    std::error_code ec;
    if (dir.empty()) throw UsageError("--out: empty folder name");
    dir_ = fs::absolute(dir, ec).lexically_normal();
    if (!dir_.has_filename()) dir_ = dir_.parent_path();  // a trailing slash
    // A symlinked --out: swap the folder it points to, and keep the link.
    if (fs::is_symlink(dir_, ec)) {
        fs::path target = fs::canonical(dir_, ec);
        if (ec) {
            std::error_code ec2;
            throw UsageError(
                fmt::format("--out: {} is a symbolic link to {}, which does not exist; create that folder "
                            "or remove the link",
                            dir.string(), fs::read_symlink(dir_, ec2).string()));
        }
        dir_ = target;
    }
    if (dir_ == dir_.root_path() || dir_.filename() == "..")
        throw UsageError(fmt::format("--out: cannot replace {} as a whole; name a folder of its own", dir.string()));
    if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
        throw UsageError(fmt::format("--out: {} exists and is not a folder", dir_.string()));
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
            std::string pid = fmt::format("{}\n", ::getpid());
            if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
            }  // the pid is only for the error message above
            break;
        }
        ::close(fd);  // the previous holder removed it meanwhile
    }

    // Leftovers of runs killed outright: their staging folders (and, from older versions, staging folders
    // inside the report folder). The report folder itself was never touched by them.
    const std::string staging_prefix = sibling(name, ".staging-"), old_prefix = sibling(name, ".old-");
    for (const auto &e : fs::directory_iterator(parent, ec)) {
        std::string n = e.path().filename().string();
        if (owner_gone(n, staging_prefix) || owner_gone(n, old_prefix)) fs::remove_all(e.path(), ec);
    }
    if (fs::is_directory(dir_, ec))
        for (const auto &e : fs::directory_iterator(dir_, ec))
            if (owner_gone(e.path().filename().string(), ".staging-")) fs::remove_all(e.path(), ec);

    staging_ = parent / fmt::format("{}{}", staging_prefix, ::getpid());
    fs::remove_all(staging_, ec);
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
        } catch (const UsageError &) {
            release();
            throw;
        }
    }
}

void ReportDir::release() {
    if (lock_fd_ >= 0) {
        ::unlink(lock_path_.c_str());
        ::close(lock_fd_);
        lock_fd_ = -1;
    }
    if (!committed_) {
        std::error_code ec;
        if (!staging_.empty()) fs::remove_all(staging_, ec);
        // Parents this object created, deepest first, if nothing else was put there.
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
            if (discarded_.count(n) || n.rfind(".staging-", 0) == 0) continue;
            carry_over(e.path(), staging_ / n);
        }
        if (ec) throw UsageError(fmt::format("{}: cannot read: {}", dir_.string(), ec.message()));
    }
    // The folder keeps its permission bits (a 0700 report stays 0700); its times are the swap's.
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
    fs::remove_all(staging_, ec);  // now the previous report (nothing, if there was none)
    release();
}

}  // namespace qc
