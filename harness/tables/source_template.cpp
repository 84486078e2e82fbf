#include "tables/source_template.h"

#include "tables/quote.h"

#include <fmt/format.h>

#include <stdexcept>

namespace qc {

namespace {

bool is_name_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

bool is_plain_file_name(std::string_view s) {
    if (s.empty() || s[0] == '.' || s[0] == '-' || s[0] == '+') return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '+' || c == '-'))
            return false;
    return true;
}

std::string quoted(std::string_view tmpl_name, const std::string &name, const std::string &context,
                   const TemplateValue &value) {
    auto fail = [&](const std::string &why) {
        return std::logic_error(fmt::format("internal: template {}: @{}:{}@: {}", tmpl_name, name, context, why));
    };
    if (const auto *code = std::get_if<TemplateCode>(&value)) {
        if (context != "code") throw fail("generated code given where text is expected");
        return code->code;
    }
    const std::string &text = std::get<TemplateText>(value).text;
    if (context == "c") return c_literal(text);
    if (context == "js") return js_literal(text);
    if (context == "py") return py_literal(text);
    if (context == "rs") return rs_literal(text);
    if (context == "java") return java_literal(text);
    if (context == "sh") return shell_quote(text);
    if (context == "comment") return comment_text(text);
    if (context == "file") {
        if (!is_plain_file_name(text)) throw fail(fmt::format("{} is not a plain file name", c_literal(text)));
        return text;
    }
    if (context == "code") throw fail("text given where generated code is expected");
    throw fail("unknown context");
}

}  // namespace

std::string fill_template(std::string_view tmpl_name, std::string_view tmpl,
                          const std::map<std::string, TemplateValue> &values) {
    std::string out;
    size_t i = 0;
    while (i < tmpl.size()) {
        if (tmpl[i] != '@') {
            out += tmpl[i++];
            continue;
        }
        // A placeholder: '@', a NAME of [A-Z0-9_], ':', a CONTEXT of [a-z], '@'. Any other '@' is text.
        size_t end_name = i + 1;
        while (end_name < tmpl.size() && is_name_char(tmpl[end_name])) end_name++;
        const std::string name(tmpl.substr(i + 1, end_name - i - 1));
        if (!name.empty() && end_name < tmpl.size() && tmpl[end_name] == '@')  // the old, unquoted @NAME@
            throw std::logic_error(
                fmt::format("internal: template {}: @{}@ has no context (write @{}:CONTEXT@)", tmpl_name, name, name));
        size_t end_context = end_name + 1;
        while (end_context < tmpl.size() && tmpl[end_context] >= 'a' && tmpl[end_context] <= 'z') end_context++;
        const bool placeholder = !name.empty() && end_name < tmpl.size() && tmpl[end_name] == ':' &&
                                 end_context > end_name + 1 && end_context < tmpl.size() && tmpl[end_context] == '@';
        if (!placeholder) {
            out += tmpl[i++];
            continue;
        }
        const std::string context(tmpl.substr(end_name + 1, end_context - end_name - 1));
        auto it = values.find(name);
        if (it == values.end())
            throw std::logic_error(
                fmt::format("internal: template {}: no value for @{}:{}@", tmpl_name, name, context));
        out += quoted(tmpl_name, name, context, it->second);
        i = end_context + 1;
    }
    return out;
}

}  // namespace qc
