#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "federation/metrics/registry.h"
#include "federation/metrics/text_format.h"

namespace kf::metrics {
namespace {

// Nearest rank: the smallest value with at least ceil(q·n) of the n values at or below it.
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double rank = std::ceil(q * static_cast<double>(sorted.size()));
  const auto index = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace

Summary::Summary(std::string name, std::string help, std::vector<std::string> label_names,
                 SummaryOptions options, const Clock& clock)
    : Family(std::move(name), std::move(help), std::move(label_names)),
      options_(std::move(options)),
      clock_(clock) {
  MutexLock lock(mu_);
  if (labels().size() == 0) series_[{}];
}

void Summary::observe(const LabelValues& values, double value) {
  LabelValues key;
  const bool valid = labels().key(values, &key);
  assert(valid && "label value count differs from the family's label names");
  if (!valid) return;
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  Series& series = series_[key];
  series.window.push_back({now, value});
  series.sum += value;
  ++series.count;
  pruneLocked(series, now);
}

void Summary::remove(const LabelValues& values) {
  LabelValues key;
  if (!labels().key(values, &key)) return;
  MutexLock lock(mu_);
  series_.erase(key);
}

void Summary::pruneLocked(Series& series, SteadyTime now) const {
  while (!series.window.empty() && (series.window.size() > options_.max_samples ||
                                    now - series.window.front().at > options_.max_age)) {
    series.window.pop_front();
  }
}

std::vector<double> Summary::sortedWindowLocked(const Series& series) const {
  std::vector<double> values;
  values.reserve(series.window.size());
  for (const Sample& sample : series.window) values.push_back(sample.value);
  std::sort(values.begin(), values.end());
  return values;
}

bool Summary::renderSamples(std::string& out) const {
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  for (auto& [key, series] : series_) {
    pruneLocked(series, now);
    const std::vector<double> sorted = sortedWindowLocked(series);
    for (const double q : options_.quantiles) {
      out += name() + labels().render(key, "quantile", formatValue(q)) + " " +
             formatValue(quantile(sorted, q)) + "\n";
    }
    out += name() + "_sum" + labels().render(key) + " " + formatValue(series.sum) + "\n";
    out += name() + "_count" + labels().render(key) + " " + std::to_string(series.count) + "\n";
  }
  return !series_.empty();
}

}  // namespace kf::metrics
