#include "fuzz/harness/auto_report.hpp"

#include <array>
#include <map>
#include <sstream>

#include "fuzz/harness/report_text.hpp"

namespace poolcheck::harness {
namespace {

constexpr std::array<Verdict, 5> kVerdicts = {Verdict::Killed, Verdict::Survived, Verdict::Timeout,
                                              Verdict::Equivalent, Verdict::DidNotBuild};

struct Tally {
  std::array<std::size_t, kVerdicts.size()> counts{};
  std::size_t total() const {
    std::size_t sum = 0;
    for (auto count : counts) sum += count;
    return sum;
  }
  std::size_t of(Verdict verdict) const { return counts[static_cast<std::size_t>(verdict)]; }
  // Killed among those that could be: a timeout counts as not killed.
  std::string rate() const {
    const std::size_t judged = of(Verdict::Killed) + of(Verdict::Survived) + of(Verdict::Timeout);
    if (judged == 0) return "-";
    return fixed(100.0 * static_cast<double>(of(Verdict::Killed)) / static_cast<double>(judged), 1) + "% (" +
           std::to_string(of(Verdict::Killed)) + "/" + std::to_string(judged) + ")";
  }
};

void tally_table(std::ostream& md, const std::string& heading, const std::map<std::string, Tally>& rows) {
  md << "| " << heading << " | mutants | killed | survived | timeout | equivalent | did not build | kill rate |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& [name, tally] : rows) {
    md << "| " << name << " | " << tally.total();
    for (Verdict verdict : kVerdicts) md << " | " << tally.of(verdict);
    md << " | " << tally.rate() << " |\n";
  }
  md << "\n";
}

void list_survivors(std::ostream& md, const std::vector<SweepResult>& results) {
  md << "## Survivors\n\n";
  bool any = false;
  for (const auto& r : results) {
    if (r.verdict != Verdict::Survived) continue;
    any = true;
    md << "### " << r.mutant.mutant.id << "\n\n" << r.mutant.mutant.description << "\n\n```diff\n"
       << mutant_diff(r.mutant.mutant) << "```\n\nReproduce: `" << reproduce_command(r.mutant.mutant) << "`\n\n";
  }
  if (!any) md << "None.\n\n";
}

void list_others(std::ostream& md, const std::vector<SweepResult>& results) {
  for (Verdict verdict : {Verdict::Timeout, Verdict::DidNotBuild, Verdict::Equivalent}) {
    std::string lines;
    for (const auto& r : results) {
      if (r.verdict != verdict) continue;
      lines += "- " + r.mutant.mutant.id + ": " + r.mutant.mutant.description;
      if (verdict == Verdict::Timeout) lines += " (" + short_list(r.run.timeouts, 3) + ")";
      if (verdict == Verdict::Equivalent) lines += " (" + r.equivalent + ")";
      lines += "\n";
    }
    if (!lines.empty()) md << "## " << verdict_name(verdict) << "\n\n" << lines << "\n";
  }
}

std::string cdata(const std::string& text) {
  std::string out = "<![CDATA[";
  for (std::size_t at = 0;;) {
    const auto end = text.find("]]>", at);
    if (end == std::string::npos) {
      out += text.substr(at);
      break;
    }
    out += text.substr(at, end - at) + "]]]]><![CDATA[>";  // "]]>" cannot occur inside one section
    at = end + 3;
  }
  return out + "]]>";
}

}  // namespace

Verdict verdict_of(const MutantRun& run) {
  if (!run.built) return Verdict::DidNotBuild;
  if (run.failed_a_check()) return Verdict::Killed;
  return run.timeouts.empty() ? Verdict::Survived : Verdict::Timeout;
}

std::string verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Killed: return "killed";
    case Verdict::Survived: return "survived";
    case Verdict::Timeout: return "timeout";
    case Verdict::Equivalent: return "equivalent";
    case Verdict::DidNotBuild: return "did-not-build";
  }
  return "?";
}

std::string mutant_diff(const Mutant& mutant) {
  const auto lines_of = [](const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  };
  const std::vector<std::string> find = lines_of(mutant.find), replace = lines_of(mutant.replace);
  std::size_t head = 0, tail = 0;
  while (head < find.size() && head < replace.size() && find[head] == replace[head]) ++head;
  while (tail + head < find.size() && tail + head < replace.size() &&
         find[find.size() - 1 - tail] == replace[replace.size() - 1 - tail])
    ++tail;
  std::string diff;
  for (std::size_t i = 0; i < head; ++i) diff += " " + find[i] + "\n";
  for (std::size_t i = head; i + tail < find.size(); ++i) diff += "-" + find[i] + "\n";
  for (std::size_t i = head; i + tail < replace.size(); ++i) diff += "+" + replace[i] + "\n";
  for (std::size_t i = find.size() - tail; i < find.size(); ++i) diff += " " + find[i] + "\n";
  return diff;
}

std::string reproduce_command(const Mutant& mutant) { return "poolcheck mutate --auto --mutant " + mutant.id; }

std::string sweep_report(const std::vector<SweepResult>& results, const SweepContext& context) {
  std::map<std::string, Tally> by_file, by_operator;
  Tally all, without_propagation;
  for (const auto& r : results) {
    const auto index = static_cast<std::size_t>(r.verdict);
    ++by_file[r.mutant.mutant.file].counts[index];
    ++by_operator[std::string(operator_name(r.mutant.op))].counts[index];
    ++all.counts[index];
    if (!r.mutant.error_propagation) ++without_propagation.counts[index];
  }
  std::ostringstream md;
  md << "# Automatic mutants\n\n`" << context.command << "`\n\n"
     << "Population: " << context.generated << " mutants generated in " << context.files << " files of core/; "
     << results.size() << " run (" << context.selection << ").\n\n"
     << "Baseline: " << context.baseline << "\n\n"
     << "Kill rate (the `pr` properties, the law tests and the corpus; a timeout is not a kill): " << all.rate() << "; without the "
     << all.total() - without_propagation.total() << " error-propagation mutants (`if (!r) return r.error();`): "
     << without_propagation.rate() << ".\n\n";
  md << "| verdict | mutants |\n|---|---|\n";
  for (Verdict verdict : kVerdicts) md << "| " << verdict_name(verdict) << " | " << all.of(verdict) << " |\n";
  md << "\n## Per file\n\n";
  tally_table(md, "file", by_file);
  md << "## Per operator\n\n";
  tally_table(md, "operator", by_operator);
  list_survivors(md, results);
  list_others(md, results);
  return md.str();
}

std::string sweep_junit(const std::vector<SweepResult>& results) {
  Tally all;
  double seconds = 0;
  for (const auto& r : results) {
    ++all.counts[static_cast<std::size_t>(r.verdict)];
    seconds += r.run.build_seconds + r.run.properties_seconds + r.run.corpus_seconds;
  }
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"poolcheck mutate --auto\">\n"
      << "  <testsuite name=\"mutation.auto\" tests=\"" << results.size() << "\" failures=\""
      << all.of(Verdict::Survived) << "\" errors=\"" << all.of(Verdict::Timeout) << "\" skipped=\""
      << all.of(Verdict::Equivalent) + all.of(Verdict::DidNotBuild) << "\" time=\"" << fixed(seconds, 1) << "\">\n";
  for (const auto& r : results) {
    const Mutant& m = r.mutant.mutant;
    const double time = r.run.build_seconds + r.run.properties_seconds + r.run.corpus_seconds;
    xml << "    <testcase classname=\"mutation." << m.file << "\" name=\"" << m.id << "\" time=\"" << fixed(time, 1)
        << "\">";
    const std::string body = m.description + "\n" + mutant_diff(m) + reproduce_command(m) + "\n";
    if (r.verdict == Verdict::Survived) xml << "<failure type=\"survived\" message=\"survived\">" << cdata(body) << "</failure>";
    if (r.verdict == Verdict::Timeout) xml << "<error type=\"timeout\" message=\"timeout\">" << cdata(body) << "</error>";
    if (r.verdict == Verdict::Equivalent) xml << "<skipped message=\"equivalent\">" << cdata(r.equivalent) << "</skipped>";
    if (r.verdict == Verdict::DidNotBuild) xml << "<skipped message=\"did not build\"/>";
    xml << "</testcase>\n";
  }
  xml << "  </testsuite>\n</testsuites>\n";
  return xml.str();
}

}  // namespace poolcheck::harness
