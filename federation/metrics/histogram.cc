#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>

#include "federation/metrics/registry.h"
#include "federation/metrics/text_format.h"

namespace kf::metrics {

void Histogram::Series::observe(double value) const {
  // Upper bounds are inclusive: an observation equal to a bound belongs to that bucket.
  // NaN is above every bound, as in the Go client.
  const std::vector<double>& bounds = *bounds_;
  const auto bucket =
      std::isnan(value)
          ? bounds.size()
          : static_cast<std::size_t>(std::lower_bound(bounds.begin(), bounds.end(), value) -
                                     bounds.begin());
  cell_->counts[bucket].fetch_add(1, std::memory_order_relaxed);
  cell_->sum.fetch_add(value, std::memory_order_relaxed);
  detail::show(cell_->shown);
}

Histogram::Histogram(std::string name, std::string help, std::vector<std::string> label_names,
                     std::vector<double> buckets)
    : Family(std::move(name), std::move(help), std::move(label_names)),
      buckets_(std::move(buckets)),
      discarded_(0) {
  // +Inf is always the last bucket; callers need not (but may) list it.
  if (!buckets_.empty() && std::isinf(buckets_.back()) && buckets_.back() > 0) buckets_.pop_back();
  assert(std::adjacent_find(buckets_.begin(), buckets_.end(), std::greater_equal<>()) ==
             buckets_.end() &&
         "histogram buckets must be strictly increasing");
  MutexLock lock(mu_);
  if (labels().size() == 0) series_.findOrAdd({}, buckets_.size());
}

Histogram::Series Histogram::series(LabelView values) {
  LabelSchema::Ordered key;
  static const std::vector<double> kNoBounds;  // the discarded cell has the +Inf bucket only
  if (!ordered(values, key)) return Series(discarded_, kNoBounds);
  MutexLock lock(mu_);
  return Series(series_.findOrAdd({key.data(), labels().size()}, buckets_.size()), buckets_);
}

void Histogram::observe(LabelView values, double value) { series(values).observe(value); }

void Histogram::remove(LabelView values) {
  LabelSchema::Ordered key;
  if (!labels().order(values, key)) return;
  MutexLock lock(mu_);
  detail::HistogramCell* cell = series_.find({key.data(), labels().size()});
  if (cell == nullptr) return;
  cell->shown.store(false, std::memory_order_relaxed);
  for (auto& count : cell->counts) count.store(0, std::memory_order_relaxed);
  cell->sum.store(0, std::memory_order_relaxed);
}

bool Histogram::renderSamples(std::string& out) const {
  bool any = false;
  MutexLock lock(mu_);
  for (const auto& [key, cell] : series_) {
    if (!cell->shown.load(std::memory_order_relaxed)) continue;
    any = true;
    // _count is the +Inf bucket, so the two agree even while observations arrive.
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < cell->counts.size(); ++i) {
      cumulative += cell->counts[i].load(std::memory_order_relaxed);
      const std::string bound = i < buckets_.size() ? formatValue(buckets_[i]) : "+Inf";
      out += name() + "_bucket" + labels().render(key, "le", bound) + " " +
             std::to_string(cumulative) + "\n";
    }
    out += name() + "_sum" + labels().render(key) + " " +
           formatValue(cell->sum.load(std::memory_order_relaxed)) + "\n";
    out += name() + "_count" + labels().render(key) + " " + std::to_string(cumulative) + "\n";
  }
  return any;
}

}  // namespace kf::metrics
