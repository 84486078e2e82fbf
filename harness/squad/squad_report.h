// The tables of `quatcheck squad`'s report (cmd_squad.cpp writes them): squad_summary.csv, squad_worst_cases.csv, squad_conformance.csv
// (the same columns as conformance.csv, so report and compare tools read both). docs/squad.md.
#pragma once

#include "squad/squad_run.h"

#include <string>

namespace qc {

std::string squad_summary_csv(const SquadResult &r);
std::string squad_worst_cases_csv(const SquadResult &r);
std::string squad_conformance_csv(const SquadResult &r);
// The verdict of one implementation on property "c1" or "c1-sign-flip": "pass", "fail", "known" (a
// documented deviation) or "untested" (no judged key).
std::string c1_verdict(const SquadResult &r, const Impl *impl, const std::string &property);

}  // namespace qc
