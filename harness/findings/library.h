// The libraries `quatcheck findings` reports to (docs/findings.md): which families belong to one library, how
// the library's users call each routine (its own types, component order and API), and where the routine's
// source lies once the library is installed. One card per library, as data: impls/*/libraries.json, embedded
// in the binary (harness/findings/embedded.h). A family without a card (a recipe, a seed, a user's plugin) is
// a library of its own, reproduced through the file quatcheck compiles (impls/*/repro.txt).
#pragma once

#include <string>
#include <vector>

namespace qc::findings {

enum class Language { cpp, js, python, rust, java };
const char *language_name(Language l);  // "C++", "JavaScript", ...

// Where a routine's source lies: FILE (relative to the package's folder for npm and crates, absolute for
// headers and Python modules; `*` matches a version folder) and the text FIND that starts the routine there.
struct SourceRef {
    std::string file, find;
};

struct Routine {
    std::string family, op;  // op: slerp or nlerp
    std::string api;         // the routine as its documentation names it
    std::string call;        // an expression of the library quaternions a, b and the number t
    SourceRef source;
    std::vector<std::string> precisions;  // f32, f64 the reproducer calls it in (empty: both)
};

// A deviation the library documents: above |a.b| = dot_above, OP of FAMILY is not slerp, by design.
struct Documented {
    std::string family, op;
    double dot_above = 1;
    std::string words;  // the documentation's own words, with where they are
};

struct Library {
    std::string name;
    Language language = Language::cpp;
    std::string package;               // npm package, pkg-config module, Python module or crate (NAME VERSION)
    std::string order;                 // the component order of the library's constructor: xyzw or wxyz
    std::vector<std::string> prelude;  // imports, includes, uses
    std::string make, make_f32;        // a library quaternion from w, x, y, z (make_f32: its f32 form, if other)
    std::string read;                  // (w, x, y, z) of a library quaternion r
    std::string build;                 // C++: compiler words (shell); Rust: the crate's dependency line; Java:
                                       // the library's class path (shell words, e.g. its jar)
    // Java: static methods pasted into the reproducer's and each test's class. Java has no type alias and its
    // libraries often write a result into `this`, so a Java card's `make` is the name of a helper overloaded on
    // float and double (w, x, y, z), and its `call` an expression that may call a helper returning the result.
    std::vector<std::string> helpers;
    std::vector<Routine> routines;
    std::vector<Documented> documented;

    // The routine of FAMILY for OP (slerp or nlerp; empty: the first of any op).
    const Routine *routine(const std::string &family, const std::string &op = "") const;
};

// Every embedded card, in file order; the card of a family (nullptr: none).
const std::vector<Library> &libraries();
const Library *library_of(const std::string &family);

}  // namespace qc::findings
