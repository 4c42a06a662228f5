#pragma once
// `poolcheck mutate --auto`: the mutants of the core's operator sites
// (ast_sites.hpp), each in the catalogue's form (mutants.hpp), so that one can
// be moved into tests/mutation/catalogue.txt as it is:
//   id           auto-<file stem>-<line>-<operator>-<n>  (n counts from 1 on that line)
//   module       auto
//   target       from the file: msgpack, wire -> params_wire; token_types; verify; else request
//   provenance   poolcheck mutate --auto (<operator>)
//   description  core/x.cpp:123: `<` -> `<=`
//   find/replace whole lines, widened by neighbouring lines until `find`
//                occurs exactly once in the file
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/harness/ast_sites.hpp"
#include "fuzz/harness/mutants.hpp"

namespace poolcheck::harness {

struct AutoMutant {
  Mutant mutant;
  Operator op = Operator::Relational;
  bool error_propagation = false;  // see Site
  int first_line = 0, last_line = 0;  // the lines the change itself touches (1-based), context excluded
};

// A change of whole lines: `find` occurs exactly once in the source.
struct LineChange {
  std::string find, replace;
  int first_line = 0, last_line = 0;  // of the change itself
};

// Replacing [offset, offset + length) of `source` by `replacement`, as whole
// lines; lines the change leaves blank are dropped. Widened a line at a time
// (above, then below) until `find` is unique and both texts end in a line the
// catalogue keeps (not blank); nothing when even the whole file is not.
std::optional<LineChange> whole_line_change(std::string_view source, std::size_t offset, std::size_t length,
                                            std::string_view replacement);

// Every mutant of `file` (relative to the root, "core/x.cpp") at `sites`.
std::vector<AutoMutant> mutants_of_file(const std::string& file, std::string_view source,
                                        const std::vector<Site>& sites);

std::string target_of_file(std::string_view file);
// The fuzz target of a site at `offset` of `source` (file `file`): its file's,
// except in core/json_api.cpp, which holds the commands of every target; there
// the command the site is in decides (compress, reconstruct and batch:
// token_types; params: params_wire; verify: verify; preprocess: request). And
// in core/msgpack.cpp, the encoder's refusal of an integer beyond 64 bits
// (integer_out_of_range, and the line that calls it) goes to request: only a
// request's JSON extras hold such an integer.
std::string target_of_site(std::string_view file, std::string_view source, std::size_t offset);

// `count` of `population` indices, chosen by `seed` alone (the same on every
// machine: mt19937_64, reduced by modulo), in increasing order.
std::vector<std::size_t> seeded_sample(std::size_t population, std::size_t count, std::uint64_t seed);

// The mutant as a catalogue block, ending with a blank line.
std::string catalogue_block(const Mutant& mutant);

}  // namespace poolcheck::harness
