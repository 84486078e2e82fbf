// Source templates filled without a raw value (issue 44: a library version or an implementation name read
// from a report became code in the reproducers `quatcheck findings` writes).
//
// A placeholder names its value and the context it stands in: @NAME:CONTEXT@. The context decides the
// quoting (tables/quote.h), so a template says where each value goes and the filler cannot forget to quote:
//   c        a C/C++ string literal, quotes included            (c_literal)
//   js, py   a JavaScript / Python string literal              (js_literal, py_literal)
//   rs       a Rust string literal                             (rs_literal)
//   java     a Java string literal                             (java_literal)
//   sh       one POSIX shell word                              (shell_quote)
//   comment  text inside a comment or docstring of any of them (comment_text)
//   file     a plain file or module name: [A-Za-z0-9_][A-Za-z0-9_.+-]*, refused otherwise (it is pasted
//            into an #include, a require() or an import, where no quoting exists)
//   code     generated source (a Code value), pasted as is
// Text values fit every context but `code`; a Code value fits only `code`. Code is made only by the code
// that generates it from quoted parts (the cases' literals) or from the project's own files compiled into
// the tool (impls/*/repro.txt): never from what a report says. A placeholder without a value, a bare @NAME@,
// an unknown context or a value of the wrong kind is an internal error (std::logic_error).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace qc {

struct TemplateText {
    std::string text;  // untrusted: quoted for its placeholder's context
};
struct TemplateCode {
    std::string code;  // generated source, pasted as is (only at @NAME:code@)
};
using TemplateValue = std::variant<TemplateText, TemplateCode>;

// TEMPLATE with every @NAME:CONTEXT@ replaced by VALUES[NAME] quoted for CONTEXT. NAME (the template's name)
// is for error messages.
std::string fill_template(std::string_view name, std::string_view tmpl,
                          const std::map<std::string, TemplateValue> &values);

}  // namespace qc
