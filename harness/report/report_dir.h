// Atomic report output. Files are written into a staging folder beside the report folder and moved into
// place only by commit(), each with one rename: an interrupted run never leaves a truncated file, and the
// previous version of every file stays readable until its replacement is complete.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace qc {

class ReportDir {
public:
    // Creates DIR (and parents) and a staging folder DIR/.staging-<pid>. Throws UsageError when the
    // folder cannot be created or written.
    explicit ReportDir(const std::filesystem::path &dir);
    ~ReportDir();  // removes the staging folder if commit() was not called
    ReportDir(const ReportDir &) = delete;
    ReportDir &operator=(const ReportDir &) = delete;

    void write(const std::string &name, const std::string &content);
    // Moves every staged file into the report folder.
    void commit();
    const std::filesystem::path &dir() const { return dir_; }

private:
    std::filesystem::path dir_, staging_;
    std::vector<std::string> files_;
    bool committed_ = false;
};

// Writes one file atomically (temporary name in the same folder, then rename).
void write_file_atomic(const std::filesystem::path &path, const std::string &content);

}  // namespace qc
