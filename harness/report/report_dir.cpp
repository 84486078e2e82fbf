#include "report/report_dir.h"

#include "quatcheck/types.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace qc {

namespace fs = std::filesystem;

void write_file_atomic(const fs::path &path, const std::string &content) {
    fs::path tmp = path;
    tmp += fmt::format(".tmp-{}", ::getpid());
    {
        std::FILE *f = std::fopen(tmp.c_str(), "wb");
        if (!f) throw UsageError(fmt::format("{}: cannot write: {}", tmp.string(), std::strerror(errno)));
        size_t n = std::fwrite(content.data(), 1, content.size(), f);
        bool ok = n == content.size() && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
        ok = (std::fclose(f) == 0) && ok;
        if (!ok) {
            std::remove(tmp.c_str());
            throw UsageError(fmt::format("{}: write failed: {}", path.string(), std::strerror(errno)));
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw UsageError(fmt::format("{}: cannot move into place: {}", path.string(), ec.message()));
    }
}

ReportDir::ReportDir(const fs::path &dir) : dir_(dir) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_))
        throw UsageError(fmt::format("--out: cannot create report folder {}: {}", dir_.string(),
                                     ec ? ec.message() : "not a directory"));
    // A run killed outright (SIGKILL, power loss) leaves its staging folder behind: remove those whose
    // process is gone. The report files beside them were never touched.
    for (const auto &e : fs::directory_iterator(dir_, ec)) {
        std::string name = e.path().filename().string();
        if (name.rfind(".staging-", 0) != 0) continue;
        long pid = std::strtol(name.c_str() + 9, nullptr, 10);
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
    }
    staging_ = dir_ / fmt::format(".staging-{}", ::getpid());
    fs::create_directories(staging_, ec);
    if (ec || ::access(staging_.c_str(), W_OK) != 0)
        throw UsageError(fmt::format("--out: report folder {} is not writable", dir_.string()));
}

ReportDir::~ReportDir() {
    if (!committed_) {
        std::error_code ec;
        fs::remove_all(staging_, ec);
    }
}

void ReportDir::write(const std::string &name, const std::string &content) {
    write_file_atomic(staging_ / name, content);
    files_.push_back(name);
}

void ReportDir::commit() {
    // schema.json: the columns of every table (as `quatcheck tables` prints them), beside the CSVs and
    // moved into place with them, for the Python readers (scripts/qc_tables.py).
    bool csv = std::any_of(files_.begin(), files_.end(), [](const std::string &f) { return fs::path(f).extension() == ".csv"; });
    if (csv && std::find(files_.begin(), files_.end(), "schema.json") == files_.end())
        write("schema.json", tables::to_json().dump(1) + "\n");
    for (const auto &f : files_) {
        std::error_code ec;
        fs::rename(staging_ / f, dir_ / f, ec);
        if (ec) throw UsageError(fmt::format("{}: cannot move into place: {}", (dir_ / f).string(), ec.message()));
    }
    std::error_code ec;
    fs::remove_all(staging_, ec);
    committed_ = true;
}

}  // namespace qc
