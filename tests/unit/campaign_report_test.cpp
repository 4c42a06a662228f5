// The campaign report's SVG writer (fuzz/harness/campaign_report.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "fuzz/harness/campaign_report.hpp"

namespace poolcheck::harness {
namespace {

// Every element is closed, in order: each <name ...> has its </name>, or is
// written <name .../>.
bool tags_balanced(const std::string& svg) {
  std::vector<std::string> open;
  static const std::regex tag(R"(<(/?)([a-z]+)[^>]*?(/?)>)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    if (m[3] == "/") continue;
    if (m[1] == "/") {
      if (open.empty() || open.back() != m[2]) return false;
      open.pop_back();
    } else {
      open.push_back(m[2]);
    }
  }
  return open.empty();
}

struct Point {
  double x, y;
};

// The points of the data polylines (class "series").
std::vector<std::vector<Point>> series_points(const std::string& svg) {
  std::vector<std::vector<Point>> all;
  static const std::regex line(R"re(<polyline points="([^"]*)" class="series")re");
  static const std::regex point(R"(([-0-9.]+),([-0-9.]+))");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it) {
    const std::string text = (*it)[1];
    std::vector<Point> points;
    for (auto p = std::sregex_iterator(text.begin(), text.end(), point); p != std::sregex_iterator(); ++p)
      points.push_back({std::stod((*p)[1]), std::stod((*p)[2])});
    all.push_back(points);
  }
  return all;
}

ReportSeries series(std::vector<ReportSample> samples) {
  return {"request", "libFuzzer", 60, std::move(samples)};
}

TEST(CampaignReport, AxisTicksCoverTheRangeInRoundSteps) {
  EXPECT_EQ(axis_ticks(0, 60), (std::vector<double>{0, 20, 40, 60}));
  EXPECT_EQ(axis_ticks(3552, 4705), (std::vector<double>{3500, 4000, 4500, 5000}));
  EXPECT_EQ(axis_ticks(7, 7), (std::vector<double>{5, 6, 7, 8, 9}));  // one value: no zero-width range
  EXPECT_EQ(axis_ticks(0, 0), (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_EQ(axis_ticks(1836, 1838), (std::vector<double>{1836, 1837, 1838}));  // whole steps only
  const auto ticks = axis_ticks(0, 1e9);
  EXPECT_EQ(ticks.front(), 0);
  EXPECT_GE(ticks.back(), 1e9);
}

TEST(CampaignReport, IsWellFormedWithTitleAndAxisLabels) {
  const std::string svg = campaign_report_svg(
      {series({{5, 3552, 26}, {10, 4100, 700}, {60, 4705, 1292}}), {"verify", "AFL++", 30, {{5, 2455, 40}}}});
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_TRUE(tags_balanced(svg));
  EXPECT_NE(svg.find("request \u2014 libFuzzer \u2014 1 min"), std::string::npos);
  EXPECT_NE(svg.find("verify \u2014 AFL++ \u2014 30 s"), std::string::npos);
  EXPECT_NE(svg.find(">coverage (edges)<"), std::string::npos);
  EXPECT_NE(svg.find(">corpus (inputs)<"), std::string::npos);
  EXPECT_NE(svg.find(">seconds<"), std::string::npos);
  EXPECT_NE(svg.find(">4,500<"), std::string::npos);  // a y tick, grouped
}

TEST(CampaignReport, PointsAreScaledIntoTheirPlotBox) {
  const std::string svg = campaign_report_svg({series({{0, 100, 1}, {30, 5000, 900}, {60, 9000, 2000}})});
  const auto lines = series_points(svg);
  ASSERT_EQ(lines.size(), 2u);  // coverage, corpus
  // The width is 760 in two panels of 380, one row of 230.
  for (std::size_t panel = 0; panel < lines.size(); ++panel) {
    ASSERT_EQ(lines[panel].size(), 3u);
    for (const auto& p : lines[panel]) {
      EXPECT_GE(p.x, panel * 380.0);
      EXPECT_LE(p.x, (panel + 1) * 380.0);
      EXPECT_GE(p.y, 0);
      EXPECT_LE(p.y, 230);
    }
    EXPECT_LT(lines[panel][0].x, lines[panel][2].x);  // later is to the right
    EXPECT_GT(lines[panel][0].y, lines[panel][2].y);  // more is higher up
  }
}

TEST(CampaignReport, EmptyAndSingleSampleSeriesHaveNoNonFiniteNumbers) {
  for (const auto& report : {std::vector<ReportSeries>{}, std::vector<ReportSeries>{series({})},
                             std::vector<ReportSeries>{series({{0, 0, 0}})},
                             std::vector<ReportSeries>{series({{5, 4000, 30}, {5, 4000, 30}})}}) {
    const std::string svg = campaign_report_svg(report);
    EXPECT_TRUE(tags_balanced(svg));
    EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
  }
  EXPECT_NE(campaign_report_svg({series({})}).find("no status seen"), std::string::npos);
  const auto one = series_points(campaign_report_svg({series({{0, 0, 0}})}));
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].size(), 1u);
}

}  // namespace
}  // namespace poolcheck::harness
