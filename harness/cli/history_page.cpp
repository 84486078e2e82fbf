// history.html: per series, implementation and op, the max angle error of each region against version on a
// log scale, with the transitions marked (a red line for a regression, green for a fix, at the later version).
// One self-contained page (inline SVG, no script).
#include "cli/history.h"

#include "compare/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace qc::cli {
namespace {

constexpr double kW = 720, kH = 260, kLeft = 70, kRight = 20, kTop = 20, kBottom = 60;
constexpr const char *kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};

struct Plot {
    std::vector<std::string> labels;                           // measured versions, in order
    std::map<std::string, std::vector<double>> err;            // region -> error per label (NaN: no row)
    std::vector<std::pair<size_t, const Transition *>> marks;  // label index of to_version
};

std::string svg(const std::string &title, const Plot &p) {
    double lo = 1e300, hi = 0;
    for (const auto &[r, e] : p.err)
        for (double x : e)
            if (std::isfinite(x)) lo = std::min(lo, std::max(x, 1e-18)), hi = std::max(hi, std::max(x, 1e-18));
    if (hi == 0) lo = 1e-18, hi = 1;
    const double l0 = std::floor(std::log10(lo)), l1 = std::max(l0 + 1, std::ceil(std::log10(hi)));
    const size_t n = p.labels.size();
    auto X = [&](size_t i) { return kLeft + (n > 1 ? double(i) / (n - 1) : 0.5) * (kW - kLeft - kRight); };
    auto Y = [&](double v) { return kTop + (l1 - std::log10(std::max(v, 1e-18))) / (l1 - l0) * (kH - kTop - kBottom); };
    std::string s = fmt::format(
        "<h3>{}</h3>\n<svg width=\"{}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" "
        "font-size=\"10\">\n",
        xml_escape(title), kW, kH);
    for (double d = l0; d <= l1; d++)
        s += fmt::format(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/><text x=\"4\" "
            "y=\"{:.1f}\">1e{}</text>\n",
            kLeft, kW - kRight, Y(std::pow(10, d)), Y(std::pow(10, d)), Y(std::pow(10, d)) + 3, int(d));
    for (size_t i = 0; i < n; i++)
        s += fmt::format("<text transform=\"translate({:.1f},{}) rotate(-60)\" text-anchor=\"end\">{}</text>\n", X(i),
                         kH - kBottom + 12, xml_escape(p.labels[i]));
    for (const auto &[i, t] : p.marks)
        s += fmt::format(
            "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"{3}\" stroke-dasharray=\"4 3\">"
            "<title>{4}</title></line>\n",
            X(i), kTop, kH - kBottom, t->regressed ? "#d62728" : "#2ca02c",
            xml_escape(fmt::format("{} {} {} -> {}: {} {} -> {}", t->regressed ? "regressed" : "fixed", t->key, t->from,
                                   t->to, t->metric, t->before, t->after)));
    size_t c = 0;
    for (const auto &[region, e] : p.err) {
        const char *colour = kColours[c % std::size(kColours)];
        std::string pts;
        for (size_t i = 0; i < e.size(); i++)
            if (std::isfinite(e[i])) pts += fmt::format("{:.1f},{:.1f} ", X(i), Y(e[i]));
        s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\"/>\n", pts, colour);
        s += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n", kLeft + 5 + 110 * c, kH - 4, colour,
                         xml_escape(region));
        c++;
    }
    return s + "</svg>\n";
}

}  // namespace

std::string history_page(const std::vector<Version> &vs, const HistoryResult &h) {
    std::map<std::string, Plot> plots;  // "series impl op"
    std::map<std::string, std::vector<const Version *>> measured;
    for (const auto &v : vs)
        if (v.data) measured[v.series].push_back(&v);
    for (const auto &[series, list] : measured)
        for (size_t i = 0; i < list.size(); i++)
            for (const auto &r : list[i]->data->summary) {
                Plot &p = plots[fmt::format("{} {} {}", series, r.impl, r.op)];
                p.labels.resize(list.size());
                for (size_t k = 0; k < list.size(); k++) p.labels[k] = list[k]->label;
                auto &e = p.err[r.region];
                e.resize(list.size(), NAN);
                e[i] = r.max_angle_err_rad;
            }
    for (const auto &t : h.transitions) {
        auto it = plots.find(fmt::format("{} {}.{} {}", t.series, t.family, t.precision, t.op));
        if (it == plots.end()) it = plots.find(fmt::format("{} {} {}", t.series, t.family, t.op));
        if (it == plots.end()) continue;
        const auto &l = it->second.labels;
        const size_t i = std::find(l.begin(), l.end(), t.to) - l.begin();
        if (i < l.size()) it->second.marks.push_back({i, &t});
    }
    std::string s =
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>quatcheck history</title></head>"
        "<body style=\"font-family:sans-serif\">\n<h1>quatcheck history</h1>\n<p>Max angle error (rad, log "
        "scale) per region against version; dashed lines mark transitions (red: regressed, green: fixed; "
        "hover for the figure). transitions.csv lists them.</p>\n";
    for (const auto &[title, p] : plots) s += svg(title, p);
    return s + "</body></html>\n";
}

}  // namespace qc::cli
