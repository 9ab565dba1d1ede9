#include "federation/metrics/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <typeinfo>

#include "federation/metrics/text_format.h"

namespace kf::metrics {

LabelSchema::LabelSchema(std::vector<std::string> names) : order_(names.size()) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::sort(order_.begin(), order_.end(),
            [&names](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  for (const std::size_t i : order_) sorted_names_.push_back(names[i]);
}

bool LabelSchema::key(const LabelValues& values, LabelValues* out) const {
  if (values.size() != order_.size()) return false;
  out->clear();
  for (const std::size_t i : order_) out->push_back(values[i]);
  return true;
}

std::string LabelSchema::render(const LabelValues& key, const std::string& extra_name,
                                const std::string& extra_value) const {
  std::string out;
  auto append = [&out](const std::string& name, const std::string& value) {
    out += out.empty() ? "{" : ",";
    out += name + "=\"" + escapeLabelValue(value) + "\"";
  };
  for (std::size_t i = 0; i < sorted_names_.size(); ++i) append(sorted_names_[i], key[i]);
  if (!extra_name.empty()) append(extra_name, extra_value);
  if (!out.empty()) out += "}";
  return out;
}

Family::Family(std::string name, std::string help, std::vector<std::string> label_names)
    : name_(std::move(name)), help_(std::move(help)), labels_(std::move(label_names)) {}

void Family::render(std::string& out) const {
  std::string samples;
  if (!renderSamples(samples)) return;
  out += "# HELP " + name_ + " " + escapeHelp(help_) + "\n";
  out += "# TYPE " + name_ + " " + type() + "\n";
  out += samples;
}

Registry::Registry(const Clock& clock) : clock_(clock) {}

template <class F, class... Args>
F& Registry::add(const std::string& name, Args&&... args) {
  MutexLock lock(mu_);
  auto it = families_.find(name);
  if (it == families_.end()) {
    auto family = std::make_unique<F>(name, std::forward<Args>(args)...);
    it = families_.emplace(name, std::move(family)).first;
  }
  auto* family = dynamic_cast<F*>(it->second.get());
  if (family == nullptr) {
    // Two parts of the program disagree about a metric: no output could be right.
    std::fprintf(stderr, "metric %s is registered twice with different types (%s and %s)\n",
                 name.c_str(), it->second->type(), typeid(F).name());
    std::abort();
  }
  return *family;
}

Counter& Registry::counter(const std::string& name, const std::string& help,
                           std::vector<std::string> label_names) {
  return add<Counter>(name, help, std::move(label_names));
}

Gauge& Registry::gauge(const std::string& name, const std::string& help,
                       std::vector<std::string> label_names) {
  return add<Gauge>(name, help, std::move(label_names));
}

Histogram& Registry::histogram(const std::string& name, const std::string& help,
                               std::vector<std::string> label_names, std::vector<double> buckets) {
  return add<Histogram>(name, help, std::move(label_names), std::move(buckets));
}

Summary& Registry::summary(const std::string& name, const std::string& help,
                           std::vector<std::string> label_names, SummaryOptions options) {
  return add<Summary>(name, help, std::move(label_names), std::move(options), clock_);
}

std::string Registry::render() const {
  MutexLock lock(mu_);
  std::string out;
  for (const auto& [name, family] : families_) family->render(out);
  return out;
}

Registry& defaultRegistry() {
  static Registry registry(realClock());
  return registry;
}

}  // namespace kf::metrics
