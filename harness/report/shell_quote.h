// POSIX shell quoting of the words of a command printed for people to paste (`quatcheck findings`' reproduce
// commands): every word in single quotes, a single quote inside written as '\''.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace qc {

std::string shell_quote(std::string_view word);
// The words quoted and joined with spaces.
std::string shell_command(const std::vector<std::string> &words);

}  // namespace qc
