// The command line's names for plugins (plugin_spec.h).
#include "isolate/plugin_spec.h"

#include "quatcheck/types.h"
#include "tables/quote.h"

#include <fmt/format.h>

#include <filesystem>

namespace qc {

std::vector<std::string> PluginSpec::args() const { return {is_command() ? "--plugin-cmd" : "--plugin", text}; }

std::string PluginSpec::label() const { return shell_join(args()); }

std::vector<std::string> split_command(const std::string &command) {
    if (command.size() > 4096) throw InputError("--plugin-cmd: the command is longer than 4096 characters");
    std::vector<std::string> out;
    std::string cur;
    bool in_word = false;
    for (size_t i = 0; i < command.size(); i++) {
        char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(cur), cur.clear(), in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\'') {
            size_t j = command.find('\'', i + 1);
            if (j == std::string::npos)
                throw InputError(fmt::format("--plugin-cmd '{}': unterminated ' quote", command));
            cur += command.substr(i + 1, j - i - 1);
            i = j;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; j < command.size() && command[j] != '"'; j++) {
                if (command[j] == '\\' && j + 1 < command.size() && (command[j + 1] == '"' || command[j + 1] == '\\'))
                    j++;
                cur += command[j];
            }
            if (j >= command.size()) throw InputError(fmt::format("--plugin-cmd '{}': unterminated \" quote", command));
            i = j;
        } else if (c == '\\') {
            if (i + 1 >= command.size())
                throw InputError(fmt::format("--plugin-cmd '{}': trailing backslash", command));
            cur += command[++i];
        } else {
            cur += c;
        }
    }
    if (in_word) out.push_back(cur);
    if (out.empty()) throw InputError("--plugin-cmd: empty command");
    return out;
}

namespace {

// PATH made absolute against cwd (lexically: no symbolic link is resolved, nothing need exist).
std::string absolute_against(const std::string &path, const std::string &cwd) {
    std::filesystem::path p(path);
    if (p.is_absolute()) return path;
    return (std::filesystem::path(cwd) / p).lexically_normal().string();
}

bool names_file(const std::string &word, const std::string &cwd) {
    std::error_code ec;
    return !word.empty() && word[0] != '/' && std::filesystem::exists(std::filesystem::path(cwd) / word, ec);
}

}  // namespace

std::vector<std::string> portable_plugin_words(const PluginSpec &spec, const std::string &cwd) {
    if (!spec.is_command()) return {"--plugin", absolute_against(spec.text, cwd)};
    const std::string &command = spec.text;
    std::vector<std::string> words;
    try {
        words = split_command(command);
    } catch (const std::exception &) {
        return {"--plugin-cmd", command};  // not loadable as given either: repeated as given
    }
    bool changed = false;
    for (size_t i = 0; i < words.size(); i++) {
        const std::string &w = words[i];
        const bool path = i == 0 ? w.find('/') != std::string::npos && w[0] != '/' : w[0] != '-' && names_file(w, cwd);
        if (!path) continue;
        words[i] = absolute_against(w, cwd);
        changed = true;
    }
    return {"--plugin-cmd", changed ? shell_join(words) : command};
}

std::string portable_plugin_args(const PluginList &specs, const std::string &cwd) {
    std::string s;
    for (const auto &spec : specs) s += " " + shell_join(portable_plugin_words(spec, cwd));
    return s;
}

}  // namespace qc
