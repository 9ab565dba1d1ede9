#include "federation/metrics/registry.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <typeinfo>
#include <utility>

#include "federation/metrics/text_format.h"

namespace kf::metrics {

LabelSchema::LabelSchema(std::vector<std::string> names) : order_(names.size()) {
  assert(names.size() <= kMaxLabels && "raise LabelSchema::kMaxLabels");
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::sort(order_.begin(), order_.end(),
            [&names](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  for (const std::size_t i : order_) sorted_names_.push_back(names[i]);
}

bool LabelSchema::order(LabelView values, Ordered& out) const {
  if (values.size() != order_.size()) return false;
  for (std::size_t i = 0; i < order_.size(); ++i) out[i] = values.begin()[order_[i]];
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

namespace detail {

void show(std::atomic<bool>& shown) {
  // A load first: the common case (shown) then writes nothing to the shared cache line.
  if (!shown.load(std::memory_order_relaxed)) shown.store(true, std::memory_order_relaxed);
}

}  // namespace detail

Family::Family(std::string name, std::string help, std::vector<std::string> label_names)
    : name_(std::move(name)), help_(std::move(help)), labels_(std::move(label_names)) {}

bool Family::ordered(LabelView values, LabelSchema::Ordered& out) const {
  const bool valid = labels_.order(values, out);
  assert(valid && "label value count differs from the family's label names");
  return valid;
}

void Family::render(std::string& out) const {
  std::string samples;
  if (!renderSamples(samples)) return;
  out += "# HELP " + name_ + " " + escapeHelp(help_) + "\n";
  out += "# TYPE " + name_ + " " + type() + "\n";
  out += samples;
}

RenderHook::RenderHook(RenderHook&& other) noexcept
    : registry_(std::exchange(other.registry_, nullptr)), id_(other.id_) {}

RenderHook& RenderHook::operator=(RenderHook&& other) noexcept {
  if (this != &other) {
    reset();
    registry_ = std::exchange(other.registry_, nullptr);
    id_ = other.id_;
  }
  return *this;
}

RenderHook::~RenderHook() { reset(); }

void RenderHook::reset() {
  if (registry_ != nullptr) std::exchange(registry_, nullptr)->removeHook(id_);
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

RenderHook Registry::beforeRender(std::function<void()> refresh) {
  MutexLock lock(hooks_mu_);
  const std::uint64_t id = ++next_hook_;
  hooks_.emplace(id, std::move(refresh));
  return RenderHook(*this, id);
}

void Registry::removeHook(std::uint64_t id) {
  MutexLock lock(hooks_mu_);
  hooks_.erase(id);
}

std::string Registry::render() const {
  {
    MutexLock lock(hooks_mu_);
    for (const auto& [id, refresh] : hooks_) refresh();
  }
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
