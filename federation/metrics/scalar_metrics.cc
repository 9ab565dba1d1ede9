// Counter and Gauge: one number per series.

#include <cassert>

#include "federation/metrics/registry.h"
#include "federation/metrics/text_format.h"

namespace kf::metrics {
namespace {

void renderScalars(const std::string& name, const LabelSchema& labels,
                   const std::map<LabelValues, double>& series, std::string& out) {
  for (const auto& [key, value] : series) {
    out += name + labels.render(key) + " " + formatValue(value) + "\n";
  }
}

}  // namespace

Counter::Counter(std::string name, std::string help, std::vector<std::string> label_names)
    : Family(std::move(name), std::move(help), std::move(label_names)) {
  MutexLock lock(mu_);
  if (labels().size() == 0) series_[{}] = 0;  // an unlabelled metric exists from the start
}

void Counter::inc(const LabelValues& values, double delta) {
  LabelValues key;
  const bool valid = labels().key(values, &key);
  assert(valid && "label value count differs from the family's label names");
  if (!valid || !(delta >= 0)) return;
  MutexLock lock(mu_);
  series_[key] += delta;
}

double Counter::value(const LabelValues& values) const {
  LabelValues key;
  if (!labels().key(values, &key)) return 0;
  MutexLock lock(mu_);
  auto it = series_.find(key);
  return it == series_.end() ? 0 : it->second;
}

void Counter::remove(const LabelValues& values) {
  LabelValues key;
  if (!labels().key(values, &key)) return;
  MutexLock lock(mu_);
  series_.erase(key);
}

bool Counter::renderSamples(std::string& out) const {
  MutexLock lock(mu_);
  renderScalars(name(), labels(), series_, out);
  return !series_.empty();
}

Gauge::Gauge(std::string name, std::string help, std::vector<std::string> label_names)
    : Family(std::move(name), std::move(help), std::move(label_names)) {
  MutexLock lock(mu_);
  if (labels().size() == 0) series_[{}] = 0;
}

void Gauge::set(const LabelValues& values, double value) {
  LabelValues key;
  const bool valid = labels().key(values, &key);
  assert(valid && "label value count differs from the family's label names");
  if (!valid) return;
  MutexLock lock(mu_);
  series_[key] = value;
}

void Gauge::add(const LabelValues& values, double delta) {
  LabelValues key;
  const bool valid = labels().key(values, &key);
  assert(valid && "label value count differs from the family's label names");
  if (!valid) return;
  MutexLock lock(mu_);
  series_[key] += delta;
}

double Gauge::value(const LabelValues& values) const {
  LabelValues key;
  if (!labels().key(values, &key)) return 0;
  MutexLock lock(mu_);
  auto it = series_.find(key);
  return it == series_.end() ? 0 : it->second;
}

void Gauge::remove(const LabelValues& values) {
  LabelValues key;
  if (!labels().key(values, &key)) return;
  MutexLock lock(mu_);
  series_.erase(key);
}

bool Gauge::renderSamples(std::string& out) const {
  MutexLock lock(mu_);
  renderScalars(name(), labels(), series_, out);
  return !series_.empty();
}

}  // namespace kf::metrics
