// How the command line names a plugin: --plugin PATH.so (a shared library, loaded in process or in a worker) or
// --plugin-cmd 'COMMAND ARGS...' (a process plugin, docs/plugin-protocol.md). Every command keeps the user's
// plugins as one list of PluginSpec, in the order given; the same spec gives back the words that load it again.
#pragma once

#include <string>
#include <vector>

namespace qc {

struct PluginSpec {
    enum class Kind { library, command };
    Kind kind = Kind::library;
    std::string text;  // the path (library) or the command line (command), as the user gave it

    static PluginSpec library(std::string path) { return {Kind::library, std::move(path)}; }
    static PluginSpec command(std::string command) { return {Kind::command, std::move(command)}; }
    bool is_command() const { return kind == Kind::command; }
    // {"--plugin", PATH} or {"--plugin-cmd", COMMAND}: the arguments that name it again.
    std::vector<std::string> args() const;
    // The same as one shell-quoted string (tables/quote.h), e.g. --plugin-cmd 'node impls/js/three.js'.
    std::string label() const;
    bool operator==(const PluginSpec &) const = default;
};
using PluginList = std::vector<PluginSpec>;

// The words that load a plugin again from any working directory: {"--plugin", ABSOLUTE_PATH};
// {"--plugin-cmd", COMMAND} where every word of COMMAND that names an existing file relative to the working
// directory (the program only when it holds a '/', as the shell looks a bare name up in PATH; an argument when it
// does not start with '-') is made absolute. Other words are kept; the command is kept verbatim when no word
// changes. `cwd` is the working directory the paths are relative to.
std::vector<std::string> portable_plugin_words(const PluginSpec &spec, const std::string &cwd);
// The same for a whole list, shell-quoted, each entry's words with a space in front.
std::string portable_plugin_args(const PluginList &specs, const std::string &cwd);

// Splits a --plugin-cmd string into words: blanks separate words, '...' is literal, "..." and a
// backslash escape as in the shell (no expansion of any kind). Throws InputError for an empty command,
// an unterminated quote or more than 4096 characters.
std::vector<std::string> split_command(const std::string &command);

}  // namespace qc
