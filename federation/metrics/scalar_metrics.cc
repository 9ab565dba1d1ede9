// Counter and Gauge: one number per series.

#include "federation/metrics/registry.h"
#include "federation/metrics/text_format.h"

namespace kf::metrics {
namespace {

using detail::ScalarCell;

void renderScalars(const std::string& name, const LabelSchema& labels,
                   const detail::SeriesTable<ScalarCell>& series, std::string& out, bool* any) {
  for (const auto& [key, cell] : series) {
    if (!cell->shown.load(std::memory_order_relaxed)) continue;
    out += name + labels.render(key) + " " +
           formatValue(cell->value.load(std::memory_order_relaxed)) + "\n";
    *any = true;
  }
}

double valueOf(const ScalarCell* cell) {
  return cell == nullptr || !cell->shown.load(std::memory_order_relaxed)
             ? 0
             : cell->value.load(std::memory_order_relaxed);
}

void hide(ScalarCell* cell) {
  if (cell == nullptr) return;
  cell->shown.store(false, std::memory_order_relaxed);
  cell->value.store(0, std::memory_order_relaxed);
}

}  // namespace

void Counter::Series::inc(double delta) const {
  if (!(delta >= 0)) return;
  cell_->value.fetch_add(delta, std::memory_order_relaxed);
  detail::show(cell_->shown);
}

Counter::Counter(std::string name, std::string help, std::vector<std::string> label_names)
    : Family(std::move(name), std::move(help), std::move(label_names)) {
  MutexLock lock(mu_);
  if (labels().size() == 0) series_.findOrAdd({});  // an unlabelled metric exists from the start
}

ScalarCell& Counter::cell(LabelView values) {
  LabelSchema::Ordered key;
  if (!ordered(values, key)) return discarded_;
  MutexLock lock(mu_);
  return series_.findOrAdd({key.data(), labels().size()});
}

Counter::Series Counter::series(LabelView values) { return Series(cell(values)); }

void Counter::inc(LabelView values, double delta) { Series(cell(values)).inc(delta); }

double Counter::value(LabelView values) const {
  LabelSchema::Ordered key;
  if (!labels().order(values, key)) return 0;
  MutexLock lock(mu_);
  return valueOf(series_.find({key.data(), labels().size()}));
}

void Counter::remove(LabelView values) {
  LabelSchema::Ordered key;
  if (!labels().order(values, key)) return;
  MutexLock lock(mu_);
  hide(series_.find({key.data(), labels().size()}));
}

bool Counter::renderSamples(std::string& out) const {
  bool any = false;
  MutexLock lock(mu_);
  renderScalars(name(), labels(), series_, out, &any);
  return any;
}

void Gauge::Series::set(double value) const {
  cell_->value.store(value, std::memory_order_relaxed);
  detail::show(cell_->shown);
}

void Gauge::Series::add(double delta) const {
  cell_->value.fetch_add(delta, std::memory_order_relaxed);
  detail::show(cell_->shown);
}

Gauge::Gauge(std::string name, std::string help, std::vector<std::string> label_names)
    : Family(std::move(name), std::move(help), std::move(label_names)) {
  MutexLock lock(mu_);
  if (labels().size() == 0) series_.findOrAdd({});
}

ScalarCell& Gauge::cell(LabelView values) {
  LabelSchema::Ordered key;
  if (!ordered(values, key)) return discarded_;
  MutexLock lock(mu_);
  return series_.findOrAdd({key.data(), labels().size()});
}

Gauge::Series Gauge::series(LabelView values) { return Series(cell(values)); }

void Gauge::set(LabelView values, double value) { Series(cell(values)).set(value); }

void Gauge::add(LabelView values, double delta) { Series(cell(values)).add(delta); }

double Gauge::value(LabelView values) const {
  LabelSchema::Ordered key;
  if (!labels().order(values, key)) return 0;
  MutexLock lock(mu_);
  return valueOf(series_.find({key.data(), labels().size()}));
}

void Gauge::remove(LabelView values) {
  LabelSchema::Ordered key;
  if (!labels().order(values, key)) return;
  MutexLock lock(mu_);
  hide(series_.find({key.data(), labels().size()}));
}

bool Gauge::renderSamples(std::string& out) const {
  bool any = false;
  MutexLock lock(mu_);
  renderScalars(name(), labels(), series_, out, &any);
  return any;
}

}  // namespace kf::metrics
