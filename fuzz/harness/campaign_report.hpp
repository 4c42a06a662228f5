#pragma once
// The picture of a campaign: per target, coverage and corpus size against
// time, as one hand-written SVG file (no plotting dependency). `poolcheck fuzz`
// samples each target's status at every progress tick and writes
// .fuzz-work/report.svg at the end.
#include <cstdint>
#include <string>
#include <vector>

namespace poolcheck::harness {

struct ReportSample {
  double seconds = 0;  // since the target's fuzzer started
  std::uint64_t coverage = 0;
  std::uint64_t corpus = 0;
};

struct ReportSeries {
  std::string target;
  std::string engine;       // "libFuzzer", "AFL++"
  double seconds = 0;       // how long the target fuzzed
  std::vector<ReportSample> samples;
};

// Tick values covering [low, high]: multiples of a 1, 2 or 5 step (times a
// power of ten, at least 1: the values are counts and seconds), about four
// intervals, the first at or below `low`, the last at or above `high`. Never
// fewer than two ticks, also for low == high.
std::vector<double> axis_ticks(double low, double high);

// One row per series: a "coverage (edges)" chart and a "corpus (inputs)" chart
// side by side, each with labelled, ticked axes, under a title naming target,
// engine and duration. Empty series and single samples are drawn too.
std::string campaign_report_svg(const std::vector<ReportSeries>& series);

}  // namespace poolcheck::harness
