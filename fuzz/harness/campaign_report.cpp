#include "fuzz/harness/campaign_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "fuzz/harness/engine.hpp"

namespace poolcheck::harness {
namespace {

// Geometry, in SVG user units.
constexpr double kWidth = 760;
constexpr double kRowHeight = 230;
constexpr double kPanelWidth = kWidth / 2;
constexpr double kLeft = 64, kRight = 18, kTop = 52, kBottom = 44;  // margins of a panel's plot box

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// Tick labels: counts grouped by thousands ("12,500"), fractions with one decimal.
std::string label(double value) {
  return value >= 0 && value == std::floor(value) ? grouped(static_cast<std::uint64_t>(value)) : num(value);
}

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string duration_text(double seconds) {
  const long total = std::lround(seconds);
  return total < 60 ? std::to_string(total) + " s"
                    : std::to_string(total / 60) + " min" + (total % 60 ? " " + std::to_string(total % 60) + " s" : "");
}

struct Box {
  double left, top, right, bottom;
};

// One chart: axes, ticks, grid, labels and the series as a polyline (a dot
// per sample, so that a single sample shows).
void chart(std::ostringstream& svg, const Box& box, const std::string& title, const std::string& colour,
           const std::vector<std::pair<double, double>>& points, double x_end) {
  double y_low = 0, y_high = 0;
  if (!points.empty()) {
    y_low = y_high = points.front().second;
    for (const auto& [x, y] : points) {
      y_low = std::min(y_low, y);
      y_high = std::max(y_high, y);
    }
  }
  // Time runs from 0 to the end of the campaign exactly, with round ticks
  // inside; the values' axis runs from tick to tick.
  const double x0 = 0, x1 = std::max(x_end, 1.0);
  auto x_ticks = axis_ticks(x0, x1);
  while (x_ticks.size() > 2 && x_ticks.back() > x1) x_ticks.pop_back();
  const auto y_ticks = axis_ticks(y_low, y_high);
  const double y0 = y_ticks.front(), y1 = y_ticks.back();
  auto sx = [&](double x) { return box.left + (x - x0) / (x1 - x0) * (box.right - box.left); };
  auto sy = [&](double y) { return box.bottom - (y - y0) / (y1 - y0) * (box.bottom - box.top); };

  svg << "  <text x=\"" << num(box.left) << "\" y=\"" << num(box.top - 8) << "\" class=\"panel\">" << escaped(title)
      << "</text>\n";
  for (double tick : y_ticks) {
    svg << "  <line x1=\"" << num(box.left) << "\" y1=\"" << num(sy(tick)) << "\" x2=\"" << num(box.right)
        << "\" y2=\"" << num(sy(tick)) << "\" class=\"grid\"/>\n";
    svg << "  <text x=\"" << num(box.left - 6) << "\" y=\"" << num(sy(tick) + 4) << "\" class=\"ytick\">"
        << label(tick) << "</text>\n";
  }
  for (double tick : x_ticks) {
    svg << "  <line x1=\"" << num(sx(tick)) << "\" y1=\"" << num(box.bottom) << "\" x2=\"" << num(sx(tick))
        << "\" y2=\"" << num(box.bottom + 4) << "\" class=\"axis\"/>\n";
    svg << "  <text x=\"" << num(sx(tick)) << "\" y=\"" << num(box.bottom + 16) << "\" class=\"xtick\">"
        << label(tick) << "</text>\n";
  }
  svg << "  <polyline points=\"" << num(box.left) << "," << num(box.top) << " " << num(box.left) << ","
      << num(box.bottom) << " " << num(box.right) << "," << num(box.bottom) << "\" class=\"axis\"/>\n";
  svg << "  <text x=\"" << num((box.left + box.right) / 2) << "\" y=\"" << num(box.bottom + 34)
      << "\" class=\"xlabel\">seconds</text>\n";
  if (points.empty()) {
    svg << "  <text x=\"" << num((box.left + box.right) / 2) << "\" y=\"" << num((box.top + box.bottom) / 2)
        << "\" class=\"xlabel\">no status seen</text>\n";
    return;
  }
  svg << "  <polyline points=\"";
  for (std::size_t i = 0; i < points.size(); ++i)
    svg << (i ? " " : "") << num(sx(points[i].first)) << "," << num(sy(points[i].second));
  svg << "\" class=\"series\" stroke=\"" << colour << "\"/>\n";
  for (const auto& [x, y] : points)
    svg << "  <circle cx=\"" << num(sx(x)) << "\" cy=\"" << num(sy(y)) << "\" r=\"2.5\" fill=\"" << colour
        << "\"/>\n";
}

}  // namespace

std::vector<double> axis_ticks(double low, double high) {
  if (high < low) std::swap(low, high);
  if (high == low) {  // one value: a range of four around it, not below zero for counts
    low = std::max(0.0, std::floor(low) - 2);
    high = low + 4;
  }
  const double raw = (high - low) / 4;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= raw) break;
  }
  step = std::max(step, 1.0);  // counts and seconds: no tick between two whole values
  std::vector<double> ticks;
  for (double tick = std::floor(low / step) * step; ticks.empty() || ticks.back() < high; tick += step)
    ticks.push_back(std::abs(tick) < step * 1e-9 ? 0 : tick);
  return ticks;
}

std::string campaign_report_svg(const std::vector<ReportSeries>& series) {
  const double height = std::max<std::size_t>(series.size(), 1) * kRowHeight;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kWidth) << "\" height=\"" << num(height)
      << "\" viewBox=\"0 0 " << num(kWidth) << " " << num(height) << "\" font-family=\"sans-serif\">\n"
      << "  <style>\n"
      << "    .title { font-size: 15px; font-weight: bold; }\n"
      << "    .panel { font-size: 12px; }\n"
      << "    .xtick { font-size: 10px; text-anchor: middle; fill: #444; }\n"
      << "    .ytick { font-size: 10px; text-anchor: end; fill: #444; }\n"
      << "    .xlabel { font-size: 11px; text-anchor: middle; fill: #444; }\n"
      << "    .axis { stroke: #222; fill: none; }\n"
      << "    .grid { stroke: #ddd; }\n"
      << "    .series { fill: none; stroke-width: 2; }\n"
      << "  </style>\n"
      << "  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (series.empty())
    svg << "  <text x=\"20\" y=\"40\" class=\"title\">poolcheck fuzz: no targets</text>\n";
  for (std::size_t row = 0; row < series.size(); ++row) {
    const ReportSeries& s = series[row];
    const double top = static_cast<double>(row) * kRowHeight;
    svg << "  <text x=\"20\" y=\"" << num(top + 22) << "\" class=\"title\">" << escaped(s.target) << " \u2014 "
        << escaped(s.engine) << " \u2014 " << duration_text(s.seconds) << "</text>\n";
    std::vector<std::pair<double, double>> coverage, corpus;
    double x_end = s.seconds;
    for (const auto& sample : s.samples) {
      coverage.emplace_back(sample.seconds, static_cast<double>(sample.coverage));
      corpus.emplace_back(sample.seconds, static_cast<double>(sample.corpus));
      x_end = std::max(x_end, sample.seconds);
    }
    for (int panel = 0; panel < 2; ++panel) {
      const double left = panel * kPanelWidth;
      const Box box{left + kLeft, top + kTop, left + kPanelWidth - kRight, top + kRowHeight - kBottom};
      if (panel == 0) chart(svg, box, "coverage (edges)", "#1f77b4", coverage, x_end);
      else chart(svg, box, "corpus (inputs)", "#d62728", corpus, x_end);
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace poolcheck::harness
