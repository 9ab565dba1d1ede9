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

void Summary::observe(LabelView values, double value) {
  LabelSchema::Ordered ordered_values;
  if (!ordered(values, ordered_values)) return;
  const std::span<const std::string_view> key(ordered_values.data(), labels().size());
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  auto it = series_.find(key);
  if (it == series_.end()) it = series_.try_emplace(LabelValues(key.begin(), key.end())).first;
  Series& series = it->second;
  series.window.push_back({now, value});
  series.sum += value;
  ++series.count;
  pruneLocked(series, now);
}

void Summary::remove(LabelView values) {
  LabelSchema::Ordered key;
  if (!labels().order(values, key)) return;
  MutexLock lock(mu_);
  if (auto it = series_.find(std::span<const std::string_view>(key.data(), labels().size()));
      it != series_.end()) {
    series_.erase(it);
  }
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
