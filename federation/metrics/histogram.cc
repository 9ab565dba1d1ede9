#include <algorithm>
#include <cassert>
#include <cmath>

#include "federation/metrics/registry.h"
#include "federation/metrics/text_format.h"

namespace kf::metrics {

Histogram::Histogram(std::string name, std::string help, std::vector<std::string> label_names,
                     std::vector<double> buckets)
    : Family(std::move(name), std::move(help), std::move(label_names)),
      buckets_(std::move(buckets)) {
  // +Inf is always the last bucket; callers need not (but may) list it.
  if (!buckets_.empty() && std::isinf(buckets_.back()) && buckets_.back() > 0) buckets_.pop_back();
  assert(std::adjacent_find(buckets_.begin(), buckets_.end(), std::greater_equal<>()) ==
             buckets_.end() &&
         "histogram buckets must be strictly increasing");
  MutexLock lock(mu_);
  if (labels().size() == 0) seriesLocked({});
}

Histogram::Series& Histogram::seriesLocked(const LabelValues& key) {
  auto [it, inserted] = series_.try_emplace(key);
  if (inserted) it->second.counts.assign(buckets_.size() + 1, 0);
  return it->second;
}

void Histogram::observe(const LabelValues& values, double value) {
  LabelValues key;
  const bool valid = labels().key(values, &key);
  assert(valid && "label value count differs from the family's label names");
  if (!valid) return;
  // Upper bounds are inclusive: an observation equal to a bound belongs to that bucket.
  // NaN is above every bound, as in the Go client.
  const auto bucket =
      std::isnan(value)
          ? buckets_.size()
          : static_cast<std::size_t>(std::lower_bound(buckets_.begin(), buckets_.end(), value) -
                                     buckets_.begin());
  MutexLock lock(mu_);
  Series& series = seriesLocked(key);
  ++series.counts[bucket];
  series.sum += value;
  ++series.count;
}

void Histogram::remove(const LabelValues& values) {
  LabelValues key;
  if (!labels().key(values, &key)) return;
  MutexLock lock(mu_);
  series_.erase(key);
}

bool Histogram::renderSamples(std::string& out) const {
  MutexLock lock(mu_);
  for (const auto& [key, series] : series_) {
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < series.counts.size(); ++i) {
      cumulative += series.counts[i];
      const std::string bound = i < buckets_.size() ? formatValue(buckets_[i]) : "+Inf";
      out += name() + "_bucket" + labels().render(key, "le", bound) + " " +
             std::to_string(cumulative) + "\n";
    }
    out += name() + "_sum" + labels().render(key) + " " + formatValue(series.sum) + "\n";
    out += name() + "_count" + labels().render(key) + " " + std::to_string(series.count) + "\n";
  }
  return !series_.empty();
}

}  // namespace kf::metrics
