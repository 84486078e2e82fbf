// Atomic report output: a report folder is replaced as a whole, in one step, or not at all.
//
// ReportDir(OUT) takes an exclusive lock on OUT (the file .NAME.lock beside it: a second writer gets a
// one-line error) and stages every file in a sibling folder .NAME.staging-PID. commit() completes the
// staging folder with hard links to the files of OUT that this command does not rewrite (other commands'
// tables, e.g. conformance.csv beside summary.csv) except those it discards, then exchanges the two folders
// with one renameat2(RENAME_EXCHANGE) and deletes the old one. A reader, a kill or a concurrent writer sees
// the complete old folder or the complete new one, never a mix. A command that fails or is interrupted
// before commit() leaves OUT exactly as it was and creates nothing: no empty OUT, no staging folder. See
// docs/robustness.md.
#pragma once

#include "base/context.h"

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace qc {

class ReportDir {
public:
    // Locks DIR and creates its staging folder (and DIR's missing parents, removed again when nothing is
    // committed). Throws UsageError when the folder cannot be written or another process is writing it.
    // `stop` (the command's RunContext::stop) is polled by write() and commit().
    explicit ReportDir(const std::filesystem::path &dir, StopToken stop = {});
    ~ReportDir();  // removes the staging folder if commit() was not called, and releases the lock
    ReportDir(const ReportDir &) = delete;
    ReportDir &operator=(const ReportDir &) = delete;

    // Stages one file. Throws Interrupted (harness/base/context.h) once a stop has been requested.
    void write(const std::string &name, const std::string &content);
    // NAME, if present in the current folder, must not survive into the new one (e.g. a stale shard.bin
    // under an unsharded report). A later write() of NAME takes precedence.
    void discard(const std::string &name);
    // The staging folder, for a writer that is not this process (quatcheck report's Python script), and the
    // declaration of what it wrote there (a file or a folder, e.g. plots/): NAME replaces the current
    // folder's NAME as a whole at commit().
    const std::filesystem::path &staging() const { return staging_; }
    void adopt(const std::string &name);
    // Swaps the staged folder in for DIR in one step. Throws Interrupted (DIR untouched) when a stop was
    // requested before the swap, UsageError when the swap fails (DIR untouched).
    void commit();
    const std::filesystem::path &dir() const { return dir_; }

private:
    std::filesystem::path dir_, staging_, lock_path_;
    std::vector<std::string> files_;
    std::set<std::string> discarded_;
    std::vector<std::filesystem::path> created_parents_;  // deepest last
    StopToken stop_;
    int lock_fd_ = -1;
    bool committed_ = false;
    void release();
};

// Writes one file atomically (temporary name in the same folder, then rename).
void write_file_atomic(const std::filesystem::path &path, const std::string &content);

// Writes several files of one folder as one step: either every file is replaced or none is. The files are
// first written under temporary names (fsynced); only when every one is complete are they renamed into
// place, and a failure before that removes them all. (The renames themselves cannot fail for lack of
// space.)
void write_files_atomic(const std::filesystem::path &dir,
                        const std::vector<std::pair<std::string, std::string>> &files);

}  // namespace qc
