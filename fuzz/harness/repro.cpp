#include "fuzz/harness/repro.hpp"

#include <map>

#include "fuzz/harness/report_text.hpp"

namespace poolcheck::harness {
namespace {

std::string seconds_text(double seconds) { return fixed(seconds, 3); }

std::string xml_escape(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 has no place for other control characters, even escaped.
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') out += "?";
        else out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

CheckFunction law_library_check(std::string_view target) {
  const laws::Target* found = laws::find_target(target);
  return found ? found->check : nullptr;
}

std::size_t ReproReport::count(Status status) const {
  std::size_t n = 0;
  for (const auto& c : cases) n += c.judgement.status == status;
  return n;
}

Result<std::vector<PlannedEntry>> plan_repro(const ReproOptions& options) {
  if (options.target && !options.resolver(*options.target))
    return Error::bad_request("unknown target '" + *options.target +
                              "' (targets: request, params_wire, token_types, verify)");
  std::vector<PlannedEntry> plan;
  for (const auto& path : options.paths) {
    auto files = collect_entry_files(path);
    if (!files) return files.error();
    for (const auto& file : *files) {
      const auto inferred = infer_target(file);
      if (inferred && options.target && *inferred != *options.target)
        return Error::bad_request(file.string() + " is under a '" + *inferred + "' directory but --target is '" +
                                  *options.target + "'");
      if (!inferred && !options.target)
        return Error::bad_request("cannot tell the target of " + file.string() +
                                  " (not under corpus/<target>/ or .fuzz-work/<target>/): pass --target");
      plan.push_back({file, inferred ? *inferred : *options.target});
    }
  }
  return plan;
}

ReproReport run_repro(const std::vector<PlannedEntry>& plan, const ReproOptions& options, std::ostream* live) {
  ReproReport report;
  for (const auto& planned : plan) {
    ReproCase c;
    c.path = planned.path;
    c.target = planned.target;
    auto entry = load_entry(planned.path, planned.target);
    CheckFunction check = options.resolver(planned.target);
    if (!entry) {
      c.judgement.status = Status::Fail;
      c.judgement.reason = "bad entry: " + entry.error().message;
    } else if (check == nullptr) {
      c.judgement.status = Status::Fail;
      c.judgement.reason = "no check function for target '" + planned.target + "'";
    } else {
      c.note = entry->note;
      const IsolatedRun run = run_isolated(check, entry->input, options.timeout_seconds);
      c.seconds = run.seconds;
      c.judgement = judge(*entry, run, options.timeout_seconds);
      if (run.status == RunStatus::Completed) c.actual = actual_verdict(run.summary);
    }
    if (live) {
      print_table_row(*live, c, options.verbose);
      live->flush();
    }
    report.cases.push_back(std::move(c));
  }
  return report;
}

void print_table_header(std::ostream& out, bool verbose) {
  out << padded("STATUS", 8) << padded("SECONDS", 9) << padded("TARGET", 13) << "ENTRY"
      << (verbose ? "  (actual verdict)" : "") << "\n";
}

void print_table_row(std::ostream& out, const ReproCase& c, bool verbose) {
  out << padded(status_name(c.judgement.status), 8) << padded(seconds_text(c.seconds), 9) << padded(c.target, 13)
      << c.path.string();
  if (verbose && c.actual) {
    out << "  (" << (c.actual->verdict == Verdict::Accept ? "accept, digest " + c.actual->digest.value_or("")
                                                           : "reject: " + c.actual->message.value_or(""))
        << ")";
  }
  out << "\n";
}

void print_failures_and_summary(std::ostream& out, const ReproReport& report) {
  bool header = false;
  for (const auto& c : report.cases) {
    if (c.judgement.status == Status::Pass) continue;
    if (!header) out << "\nFailures:\n";
    header = true;
    out << "\n" << status_name(c.judgement.status) << " " << c.path.string() << " [" << c.target << "]\n";
    if (!c.note.empty()) out << "  note:   " << c.note << "\n";
    out << "  reason: " << c.judgement.reason << "\n";
    if (!c.judgement.laws.empty()) {
      out << "  violated law(s):";
      for (const auto& law : c.judgement.laws) out << " " << law;
      out << "\n";
    }
    for (const auto& line : c.judgement.details) out << "    " << line << "\n";
    out << "  rerun:  poolcheck repro " << c.path.string() << " --target " << c.target << "\n";
  }
  out << "\nrepro: " << report.cases.size() << " entries: " << report.count(Status::Pass) << " PASS, "
      << report.count(Status::Fail) << " FAIL, " << report.count(Status::Timeout) << " TIMEOUT\n";
}

std::string junit_xml(const ReproReport& report) {
  std::map<std::string, std::vector<const ReproCase*>> by_target;
  double total_seconds = 0;
  for (const auto& c : report.cases) {
    by_target[c.target].push_back(&c);
    total_seconds += c.seconds;
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"poolcheck repro\" tests=\"" + std::to_string(report.cases.size()) + "\" failures=\"" +
         std::to_string(report.count(Status::Fail)) + "\" errors=\"" + std::to_string(report.count(Status::Timeout)) +
         "\" time=\"" + seconds_text(total_seconds) + "\">\n";
  for (const auto& [target, cases] : by_target) {
    std::size_t failures = 0;
    std::size_t errors = 0;
    double seconds = 0;
    for (const auto* c : cases) {
      failures += c->judgement.status == Status::Fail;
      errors += c->judgement.status == Status::Timeout;
      seconds += c->seconds;
    }
    xml += "  <testsuite name=\"corpus." + xml_escape(target) + "\" tests=\"" + std::to_string(cases.size()) +
           "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" +
           seconds_text(seconds) + "\">\n";
    for (const auto* c : cases) {
      xml += "    <testcase classname=\"corpus." + xml_escape(target) + "\" name=\"" + xml_escape(c->path.string()) +
             "\" time=\"" + seconds_text(c->seconds) + "\"";
      if (c->judgement.status == Status::Pass) {
        xml += "/>\n";
        continue;
      }
      xml += ">\n";
      std::string body;
      if (!c->note.empty()) body += "note: " + c->note + "\n";
      if (!c->judgement.laws.empty()) {
        body += "violated law(s):";
        for (const auto& law : c->judgement.laws) body += " " + law;
        body += "\n";
      }
      for (const auto& line : c->judgement.details) body += line + "\n";
      const char* element = c->judgement.status == Status::Timeout ? "error" : "failure";
      const char* type = c->judgement.status == Status::Timeout ? "timeout"
                         : c->judgement.laws.empty()            ? "verdict"
                                                                : "law";
      xml += std::string("      <") + element + " type=\"" + type + "\" message=\"" + xml_escape(c->judgement.reason) +
             "\">" + xml_escape(body) + "</" + element + ">\n";
      xml += "    </testcase>\n";
    }
    xml += "  </testsuite>\n";
  }
  xml += "</testsuites>\n";
  return xml;
}

}  // namespace poolcheck::harness
