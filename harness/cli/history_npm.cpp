// quatcheck history's npm side: see history_npm.h.
#include "cli/history_npm.h"

#include "base/subprocess.h"
#include "quatcheck/types.h"
#include "report/report_dir.h"
#include "tables/table.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

namespace qc::cli {
namespace fs = std::filesystem;
namespace {

const std::regex kVersion(R"(^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})(-[0-9A-Za-z.-]{1,64})?$)");
const std::regex kPackage(R"(^(@[a-z0-9][a-z0-9._-]{0,100}/)?[a-z0-9][a-z0-9._-]{0,100}$)");

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t k = s.find(sep, start);
        out.push_back(s.substr(start, k == std::string::npos ? std::string::npos : k - start));
        if (k == std::string::npos) return out;
        start = k + 1;
    }
}

int compare_identifier(const std::string &a, const std::string &b) {
    const bool na = !a.empty() && std::all_of(a.begin(), a.end(), ::isdigit);
    const bool nb = !b.empty() && std::all_of(b.begin(), b.end(), ::isdigit);
    if (na && nb) {
        if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
        return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
    }
    if (na != nb) return na ? -1 : 1;  // numeric identifiers sort before alphanumeric ones
    return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
}

std::string env_or(const char *name, const std::string &fallback) {
    const char *v = std::getenv(name);
    return v && *v ? v : fallback;
}

fs::path package_dir(const std::string &package) { return cache_root() / "npm" / package; }

std::vector<std::string> read_version_list(const std::string &text, const std::string &what) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const std::exception &) { throw InputError(fmt::format("{}: not a JSON list of versions", what)); }
    if (j.is_string()) j = nlohmann::json::array({j});  // npm prints a lone version as a string
    if (!j.is_array()) throw InputError(fmt::format("{}: not a JSON list of versions", what));
    std::vector<std::string> out;
    for (const auto &v : j)
        if (v.is_string() && is_version(v.get<std::string>())) out.push_back(v.get<std::string>());
    return out;
}

// HOST-PID: unique among the processes of every host that shares the cache (a sharded scan's tasks).
std::string host_pid() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !*host) std::strcpy(host, "host");
    for (char *c = host; *c; c++)
        if (!std::isalnum((unsigned char)*c) && *c != '-') *c = '_';
    return fmt::format("{}-{}", host, ::getpid());
}

// Puts a complete install (tmp, holding its record) in place as dir under an exclusive lock on
// .VERSION.lock beside it, so that concurrent installs of one version (two scans, on any hosts sharing the
// cache) cannot interleave: the first to finish wins, a later one finds its record and drops its own copy.
// Only without a record is dir what a killed install of an older quatcheck left, and removed. Returns
// whether this install is the one in place.
bool move_into_place(const fs::path &tmp, const fs::path &dir, const fs::path &record) {
    const fs::path lock = dir.parent_path() / fmt::format(".{}.lock", dir.filename().string());
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) {
        const int e = errno;
        if (fd >= 0) ::close(fd);
        fs::remove_all(tmp);
        throw InputError(fmt::format("history: cannot lock {}: {}", lock.string(), std::strerror(e)));
    }
    std::error_code ec;
    bool placed = false;
    if (fs::exists(record, ec)) fs::remove_all(tmp, ec);
    else {
        fs::remove_all(dir, ec);
        fs::rename(tmp, dir, ec);
        placed = !ec;
        if (ec) fs::remove_all(tmp, ec);
    }
    ::close(fd);  // releases the lock
    return placed;
}

}  // namespace

// The last non-empty line of a child's log (its one-line error), for the message: the log itself lives in the
// staging folder, which a failed history removes.
std::string last_line(const fs::path &log) {
    std::string text = read_text_file(log).value_or("");
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    const size_t nl = text.rfind('\n');
    return text.empty() ? "no output" : text.substr(nl == std::string::npos ? 0 : nl + 1);
}

bool is_version(const std::string &v) { return std::regex_match(v, kVersion); }
bool is_prerelease(const std::string &v) { return v.find('-') != std::string::npos; }

int compare_versions(const std::string &a, const std::string &b) {
    const size_t da = a.find('-'), db = b.find('-');
    const auto ca = split(a.substr(0, da), '.'), cb = split(b.substr(0, db), '.');
    for (size_t i = 0; i < 3; i++)
        if (int c = compare_identifier(ca[i], cb[i])) return c;
    if (da == std::string::npos || db == std::string::npos) return da == db ? 0 : da == std::string::npos ? 1 : -1;
    const auto pa = split(a.substr(da + 1), '.'), pb = split(b.substr(db + 1), '.');
    for (size_t i = 0; i < std::min(pa.size(), pb.size()); i++)
        if (int c = compare_identifier(pa[i], pb[i])) return c;
    return pa.size() == pb.size() ? 0 : pa.size() < pb.size() ? -1 : 1;
}

NpmSpec parse_npm_spec(const std::string &text) {
    const size_t at = text.rfind('@');
    if (at == std::string::npos || at == 0)
        throw UsageError(fmt::format("--npm: expected PACKAGE@A..B or PACKAGE@V1,V2,..., got '{}'", text));
    NpmSpec s;
    s.package = text.substr(0, at);
    const std::string range = text.substr(at + 1);
    if (!std::regex_match(s.package, kPackage))
        throw UsageError(fmt::format("--npm: '{}' is not an npm package name", s.package));
    auto check = [&](const std::string &v) {
        if (!is_version(v))
            throw UsageError(fmt::format("--npm {}: '{}' is not a version (MAJOR.MINOR.PATCH[-PRE])", text, v));
        return v;
    };
    if (const size_t dots = range.find(".."); dots != std::string::npos) {
        s.range = true;
        s.from = check(range.substr(0, dots));
        s.to = check(range.substr(dots + 2));
        if (compare_versions(s.from, s.to) > 0)
            throw UsageError(
                fmt::format("--npm {}: {} comes after {} (write the older one first)", text, s.from, s.to));
        return s;
    }
    for (const auto &v : split(range, ',')) {
        if (std::find(s.listed.begin(), s.listed.end(), v) != s.listed.end())
            throw UsageError(fmt::format("--npm {}: {} is listed twice", text, v));
        s.listed.push_back(check(v));
    }
    return s;
}

std::vector<std::string> select_versions(const NpmSpec &spec, const std::vector<std::string> &known) {
    auto require = [&](const std::string &v) {
        if (std::find(known.begin(), known.end(), v) == known.end())
            throw UsageError(fmt::format("--npm {}: the registry has no version {}", spec.package, v));
    };
    if (!spec.range) {
        for (const auto &v : spec.listed) require(v);
        return spec.listed;
    }
    require(spec.from);
    require(spec.to);
    std::vector<std::string> out;
    for (const auto &v : known)
        if (compare_versions(v, spec.from) >= 0 && compare_versions(v, spec.to) <= 0 &&
            (!is_prerelease(v) || v == spec.from || v == spec.to) && std::find(out.begin(), out.end(), v) == out.end())
            out.push_back(v);
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return compare_versions(a, b) < 0; });
    return out;
}

fs::path cache_root() {
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return fs::path(x) / "quatcheck";
    if (const char *h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "quatcheck";
    throw UsageError("history: neither XDG_CACHE_HOME nor HOME is set: no place for the cache of versions");
}

int run_logged(const std::vector<std::string> &argv, const std::vector<std::string> &env, const fs::path &log) {
    ToolRun run;
    run.argv = argv;
    run.search_path = true;
    run.stdin_null = true;
    // Set over this process's environment: a QC_JS_PREFIX the caller happens to have must not win over the
    // version's own (it did when the variables were appended after environ, where getenv finds the first).
    for (const auto &e : env) {
        const size_t eq = e.find('=');
        run.env.emplace_back(e.substr(0, eq), eq == std::string::npos ? "" : e.substr(eq + 1));
    }
    run.out = ToolRun::Out::file;
    run.out_file = log.string();
    run.err_to_out_file = true;
    const ToolResult r = run_tool(run);
    if (r.spawn_errno)
        throw InputError(fmt::format("history: cannot start {}: {}", argv[0], std::strerror(r.spawn_errno)));
    if (WIFSIGNALED(r.status)) return 128 + WTERMSIG(r.status);
    return WEXITSTATUS(r.status);
}

std::vector<std::string> registry_versions(const std::string &package, const std::vector<std::string> &needed) {
    const fs::path cached = package_dir(package) / "versions.json";
    if (auto text = read_text_file(cached)) {
        auto list = read_version_list(*text, cached.string());
        if (std::all_of(needed.begin(), needed.end(),
                        [&](const auto &v) { return std::find(list.begin(), list.end(), v) != list.end(); }))
            return list;
    }
    fs::create_directories(package_dir(package));
    // A log of its own: the tasks of a sharded scan (several hosts sharing the cache) may ask at the same time.
    const fs::path log = package_dir(package) / fmt::format(".versions-{}.log", host_pid());
    const int rc = run_logged({env_or("QC_NPM", "npm"), "view", package, "versions", "--json"}, {}, log);
    const std::string text = read_text_file(log).value_or("");
    std::error_code ec;
    fs::remove(log, ec);
    if (rc != 0) {
        const bool missing = text.find("E404") != std::string::npos;
        throw UsageError(missing ? fmt::format("--npm: the npm registry has no package '{}'", package)
                                 : fmt::format("--npm {}: npm view failed (exit {}): {}", package, rc, last_line(log)));
    }
    auto list = read_version_list(text, fmt::format("npm view {} versions", package));
    write_file_atomic(cached, nlohmann::json(list).dump() + "\n");
    return list;
}

Installed ensure_installed(const std::string &package, const std::string &version, const fs::path &log) {
    const fs::path dir = package_dir(package) / version, record = dir / "quatcheck-install.json";
    Installed out;
    out.prefix = dir;
    out.version = version;
    if (!read_text_file(record)) {
        const fs::path tmp = package_dir(package) / fmt::format(".{}.installing-{}", version, host_pid());
        fs::remove_all(tmp);
        fs::create_directories(tmp);
        const int rc =
            run_logged({env_or("QC_NPM", "npm"), "install", "--prefix", tmp.string(), "--no-save", "--no-package-lock",
                        "--ignore-scripts", "--no-audit", "--no-fund", fmt::format("{}@{}", package, version)},
                       {}, log);
        nlohmann::json lock;
        if (rc == 0) {
            const auto text = read_text_file(tmp / "node_modules" / ".package-lock.json");
            lock = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
        }
        const std::string key = "node_modules/" + package;
        if (rc != 0 || !lock.is_object() || !lock.contains("packages") || !lock["packages"].contains(key) ||
            lock["packages"][key].value("version", "") != version) {
            fs::remove_all(tmp);
            throw InputError(
                fmt::format("history: npm install {}@{} failed (exit {}): {}", package, version, rc, last_line(log)));
        }
        const auto &p = lock["packages"][key];
        nlohmann::json r = {{"package", package},
                            {"version", version},
                            {"integrity", p.value("integrity", "")},
                            {"resolved", p.value("resolved", "")}};
        write_file_atomic(tmp / "quatcheck-install.json", r.dump(2) + "\n");
        out.installed_now = move_into_place(tmp, dir, record);
    }
    const auto j = nlohmann::json::parse(read_text_file(record).value_or("null"), nullptr, false);
    if (!j.is_object()) throw InputError(fmt::format("history: {}: not the record of an install", record.string()));
    out.integrity = j.value("integrity", "");
    out.resolved = j.value("resolved", "");
    return out;
}

}  // namespace qc::cli
