#pragma once
// Input-class coverage that can fail. A property declares the classes of input
// it must see and the share of its cases each must reach; the cases report the
// classes they belong to; after the run, every class below its share is named.
// A property that passes while never generating, say, a user extra_kwargs key
// proves nothing about keys being kept, so a starved class is a failure.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace poolcheck::props {

struct Requirement {
  std::string input_class;
  double min_share = 0;  // of all cases; 0 means "at least one case"
};

class Coverage {
 public:
  explicit Coverage(std::vector<Requirement> required);

  void begin_case();
  // The current case belongs to `input_class` (counted once per case).
  void see(const std::string& input_class);

  int cases() const { return cases_; }
  // One line per class below its requirement: what was needed, what was seen.
  std::vector<std::string> starved() const;
  // Every class required or seen, with its share, one per line.
  std::string table() const;

 private:
  int count(const std::string& input_class) const;

  std::vector<Requirement> required_;
  std::map<std::string, int> counts_;
  std::set<std::string> current_case_;
  int cases_ = 0;
};

}  // namespace poolcheck::props
