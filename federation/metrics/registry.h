#pragma once
// A small thread-safe Prometheus registry: counter, gauge, histogram and summary families with
// label names, rendered in the text exposition format 0.0.4 as the Go client renders it
// (families sorted by name, label pairs sorted by label name, series sorted by label values,
// families without any series left out).
//
// Families live as long as their registry; the references handed out stay valid. Every member
// function is thread-safe. Label values are given in the order of the family's label names; a
// call with the wrong number of values is a programming error (asserted, ignored in release).
//
// Hot paths resolve a series once (series(): a handle whose updates are one atomic operation, no
// lock and no allocation) or pass label values as string views, which find an existing series
// without allocating.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::metrics {

using LabelValues = std::vector<std::string>;
// Label values as a caller passes them: {"a", some_string, some_view}.
using LabelView = std::initializer_list<std::string_view>;

// Label names of a family and the order Prometheus prints them in (sorted by name).
class LabelSchema {
 public:
  static constexpr std::size_t kMaxLabels = 8;
  using Ordered = std::array<std::string_view, kMaxLabels>;

  explicit LabelSchema(std::vector<std::string> names);

  // `values` rearranged into printing order (the first size() entries of `out`); false when the
  // count does not match the names.
  bool order(LabelView values, Ordered& out) const;
  // `{a="x",b="y"}` for a key, with one more pair at the end when `extra_name` is not empty;
  // "" when there is nothing to print.
  std::string render(const LabelValues& key, const std::string& extra_name = "",
                     const std::string& extra_value = "") const;
  std::size_t size() const { return sorted_names_.size(); }

 private:
  std::vector<std::string> sorted_names_;
  std::vector<std::size_t> order_;  // order_[i]: index in the caller's values of sorted name i
};

namespace detail {

// Orders label keys lexicographically, and compares stored keys with views without copying them.
struct LabelLess {
  using is_transparent = void;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return std::lexicographical_compare(
        a.begin(), a.end(), b.begin(), b.end(),
        [](std::string_view x, std::string_view y) { return x < y; });
  }
};

// The value of a counter or gauge series. Cells are never freed while their family lives (remove()
// hides and zeroes one), so handles stay valid; any update shows the series again.
struct ScalarCell {
  std::atomic<double> value{0};
  std::atomic<bool> shown{true};
};

struct HistogramCell {
  explicit HistogramCell(std::size_t bounds) : counts(bounds + 1) {}
  std::vector<std::atomic<std::uint64_t>> counts;  // per bucket, not cumulative; last is +Inf
  std::atomic<double> sum{0};
  std::atomic<bool> shown{true};
};

// A family's series by label values in printing order.
template <class Cell>
class SeriesTable {
 public:
  using Key = std::span<const std::string_view>;

  Cell* find(Key key) const {
    auto it = cells_.find(key);
    return it == cells_.end() ? nullptr : it->second.get();
  }
  template <class... Args>
  Cell& findOrAdd(Key key, const Args&... args) {
    auto it = cells_.find(key);
    if (it == cells_.end()) {
      it = cells_.emplace(LabelValues(key.begin(), key.end()), std::make_unique<Cell>(args...))
               .first;
    }
    return *it->second;
  }
  auto begin() const { return cells_.begin(); }
  auto end() const { return cells_.end(); }

 private:
  std::map<LabelValues, std::unique_ptr<Cell>, LabelLess> cells_;
};

void show(std::atomic<bool>& shown);

}  // namespace detail

class Family {
 public:
  virtual ~Family() = default;
  Family(const Family&) = delete;
  Family& operator=(const Family&) = delete;

  const std::string& name() const { return name_; }
  virtual const char* type() const = 0;
  // "# HELP", "# TYPE" and the samples of every series; nothing when there is no series.
  void render(std::string& out) const;
  // Takes the series with these label values out of the output until it is used again, from 0
  // (no-op when it does not exist).
  virtual void remove(LabelView values) = 0;

 protected:
  Family(std::string name, std::string help, std::vector<std::string> label_names);
  // Appends the sample lines of every series; returns false when there is none.
  virtual bool renderSamples(std::string& out) const = 0;
  const LabelSchema& labels() const { return labels_; }
  // `values` in printing order; false (and an assertion) when their count is wrong.
  bool ordered(LabelView values, LabelSchema::Ordered& out) const;

 private:
  std::string name_;
  std::string help_;
  LabelSchema labels_;
};

// A value that only goes up (restarts at 0 with the process).
class Counter final : public Family {
 public:
  // One series, resolved once.
  class Series {
   public:
    // `delta` must not be negative (ignored if it is).
    void inc(double delta = 1) const;

   private:
    friend class Counter;
    explicit Series(detail::ScalarCell& cell) : cell_(&cell) {}
    detail::ScalarCell* cell_;
  };

  Counter(std::string name, std::string help, std::vector<std::string> label_names);
  const char* type() const override { return "counter"; }
  Series series(LabelView values = {});
  void inc(LabelView values = {}, double delta = 1);
  double value(LabelView values = {}) const;
  void remove(LabelView values) override;

 private:
  bool renderSamples(std::string& out) const override;
  detail::ScalarCell& cell(LabelView values);

  mutable Mutex mu_;
  detail::SeriesTable<detail::ScalarCell> series_ KF_GUARDED_BY(mu_);
  detail::ScalarCell discarded_;  // what calls with a wrong label count update
};

// A value that goes up and down.
class Gauge final : public Family {
 public:
  class Series {
   public:
    void set(double value) const;
    void add(double delta) const;

   private:
    friend class Gauge;
    explicit Series(detail::ScalarCell& cell) : cell_(&cell) {}
    detail::ScalarCell* cell_;
  };

  Gauge(std::string name, std::string help, std::vector<std::string> label_names);
  const char* type() const override { return "gauge"; }
  Series series(LabelView values = {});
  void set(LabelView values, double value);
  void add(LabelView values, double delta);
  double value(LabelView values = {}) const;
  void remove(LabelView values) override;

 private:
  bool renderSamples(std::string& out) const override;
  detail::ScalarCell& cell(LabelView values);

  mutable Mutex mu_;
  detail::SeriesTable<detail::ScalarCell> series_ KF_GUARDED_BY(mu_);
  detail::ScalarCell discarded_;
};

// Observations counted into cumulative buckets `le` (upper bounds, inclusive) plus +Inf.
class Histogram final : public Family {
 public:
  class Series {
   public:
    void observe(double value) const;

   private:
    friend class Histogram;
    Series(detail::HistogramCell& cell, const std::vector<double>& bounds)
        : cell_(&cell), bounds_(&bounds) {}
    detail::HistogramCell* cell_;
    const std::vector<double>* bounds_;
  };

  // `buckets`: strictly increasing upper bounds, without +Inf.
  Histogram(std::string name, std::string help, std::vector<std::string> label_names,
            std::vector<double> buckets);
  const char* type() const override { return "histogram"; }
  Series series(LabelView values = {});
  void observe(LabelView values, double value);
  void remove(LabelView values) override;

 private:
  bool renderSamples(std::string& out) const override;

  std::vector<double> buckets_;
  mutable Mutex mu_;
  detail::SeriesTable<detail::HistogramCell> series_ KF_GUARDED_BY(mu_);
  detail::HistogramCell discarded_;
};

struct SummaryOptions {
  // Observations older than this leave the quantile window (sum and count keep everything).
  Duration max_age = std::chrono::hours(1);
  std::vector<double> quantiles = {0.5, 0.9, 0.99};
  // Bounds memory per series: beyond this many observations in the window the oldest go first.
  std::size_t max_samples = 10'000;
};

// Quantiles over a sliding window of recent observations, plus an all-time sum and count. The
// q-quantile is the smallest observation with at least ceil(q × n) of the n observations of the
// window at or below it (NaN for an empty window).
class Summary final : public Family {
 public:
  Summary(std::string name, std::string help, std::vector<std::string> label_names,
          SummaryOptions options, const Clock& clock);
  const char* type() const override { return "summary"; }
  void observe(LabelView values, double value);
  void remove(LabelView values) override;

 private:
  struct Sample {
    SteadyTime at;
    double value;
  };
  struct Series {
    std::deque<Sample> window;
    double sum = 0;
    std::uint64_t count = 0;
  };
  bool renderSamples(std::string& out) const override;
  void pruneLocked(Series& series, SteadyTime now) const KF_REQUIRES(mu_);
  std::vector<double> sortedWindowLocked(const Series& series) const KF_REQUIRES(mu_);

  SummaryOptions options_;
  const Clock& clock_;
  mutable Mutex mu_;
  // mutable: rendering drops observations that aged out.
  mutable std::map<LabelValues, Series, detail::LabelLess> series_ KF_GUARDED_BY(mu_);
};

class Registry;

// Runs a refresh before every render of its registry for as long as it lives (see
// Registry::beforeRender). Move-only.
class RenderHook {
 public:
  RenderHook() = default;
  RenderHook(RenderHook&& other) noexcept;
  RenderHook& operator=(RenderHook&& other) noexcept;
  // Waits for a refresh in progress on another thread.
  ~RenderHook();

 private:
  friend class Registry;
  RenderHook(Registry& registry, std::uint64_t id) : registry_(&registry), id_(id) {}
  void reset();

  Registry* registry_ = nullptr;
  std::uint64_t id_ = 0;
};

class Registry {
 public:
  // `clock` ages summary observations.
  explicit Registry(const Clock& clock);

  // Each call registers a family, or returns the one already registered under that name. The
  // same name with another type is a programming error: the process stops with a message.
  Counter& counter(const std::string& name, const std::string& help,
                   std::vector<std::string> label_names = {});
  Gauge& gauge(const std::string& name, const std::string& help,
               std::vector<std::string> label_names = {});
  Histogram& histogram(const std::string& name, const std::string& help,
                       std::vector<std::string> label_names, std::vector<double> buckets);
  Summary& summary(const std::string& name, const std::string& help,
                   std::vector<std::string> label_names, SummaryOptions options = {});

  // Calls `refresh` at the start of every render() while the hook lives: for gauges that are
  // cheaper to compute when scraped than to keep current. Hooks run one at a time, in the order
  // they were added; a refresh must not add or destroy hooks.
  [[nodiscard]] RenderHook beforeRender(std::function<void()> refresh);

  // Every family in the text exposition format 0.0.4.
  std::string render() const;

 private:
  friend class RenderHook;
  template <class F, class... Args>
  F& add(const std::string& name, Args&&... args);
  void removeHook(std::uint64_t id);

  const Clock& clock_;
  mutable Mutex mu_;
  std::map<std::string, std::unique_ptr<Family>> families_ KF_GUARDED_BY(mu_);
  // Held while hooks run, so that removing one waits for its refresh to end.
  mutable Mutex hooks_mu_;
  std::map<std::uint64_t, std::function<void()>> hooks_ KF_GUARDED_BY(hooks_mu_);
  std::uint64_t next_hook_ KF_GUARDED_BY(hooks_mu_) = 0;
};

// The process-wide registry that /metrics renders (summaries age on the real clock).
Registry& defaultRegistry();

}  // namespace kf::metrics
