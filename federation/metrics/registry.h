#pragma once
// A small thread-safe Prometheus registry: counter, gauge, histogram and summary families with
// label names, rendered in the text exposition format 0.0.4 as the Go client renders it
// (families sorted by name, label pairs sorted by label name, series sorted by label values,
// families without any series left out).
//
// Families live as long as their registry; the references handed out stay valid. Every member
// function is thread-safe. Label values are given in the order of the family's label names; a
// call with the wrong number of values is a programming error (asserted, ignored in release).

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::metrics {

using LabelValues = std::vector<std::string>;

// Label names of a family and the order Prometheus prints them in (sorted by name).
class LabelSchema {
 public:
  explicit LabelSchema(std::vector<std::string> names);

  // `values` rearranged into printing order; false when the count does not match the names.
  bool key(const LabelValues& values, LabelValues* out) const;
  // `{a="x",b="y"}` for a key, with one more pair at the end when `extra_name` is not empty;
  // "" when there is nothing to print.
  std::string render(const LabelValues& key, const std::string& extra_name = "",
                     const std::string& extra_value = "") const;
  std::size_t size() const { return sorted_names_.size(); }

 private:
  std::vector<std::string> sorted_names_;
  std::vector<std::size_t> order_;  // order_[i]: index in the caller's values of sorted name i
};

class Family {
 public:
  virtual ~Family() = default;
  Family(const Family&) = delete;
  Family& operator=(const Family&) = delete;

  const std::string& name() const { return name_; }
  virtual const char* type() const = 0;
  // "# HELP", "# TYPE" and the samples of every series; nothing when there is no series.
  void render(std::string& out) const;
  // Forgets the series with these label values (no-op when it does not exist).
  virtual void remove(const LabelValues& values) = 0;

 protected:
  Family(std::string name, std::string help, std::vector<std::string> label_names);
  // Appends the sample lines of every series; returns false when there is none.
  virtual bool renderSamples(std::string& out) const = 0;
  const LabelSchema& labels() const { return labels_; }

 private:
  std::string name_;
  std::string help_;
  LabelSchema labels_;
};

// A value that only goes up (restarts at 0 with the process).
class Counter final : public Family {
 public:
  Counter(std::string name, std::string help, std::vector<std::string> label_names);
  const char* type() const override { return "counter"; }
  // `delta` must not be negative (ignored if it is).
  void inc(const LabelValues& values = {}, double delta = 1);
  double value(const LabelValues& values = {}) const;
  void remove(const LabelValues& values) override;

 private:
  bool renderSamples(std::string& out) const override;

  mutable Mutex mu_;
  std::map<LabelValues, double> series_ KF_GUARDED_BY(mu_);
};

// A value that goes up and down.
class Gauge final : public Family {
 public:
  Gauge(std::string name, std::string help, std::vector<std::string> label_names);
  const char* type() const override { return "gauge"; }
  void set(const LabelValues& values, double value);
  void add(const LabelValues& values, double delta);
  double value(const LabelValues& values = {}) const;
  void remove(const LabelValues& values) override;

 private:
  bool renderSamples(std::string& out) const override;

  mutable Mutex mu_;
  std::map<LabelValues, double> series_ KF_GUARDED_BY(mu_);
};

// Observations counted into cumulative buckets `le` (upper bounds, inclusive) plus +Inf.
class Histogram final : public Family {
 public:
  // `buckets`: strictly increasing upper bounds, without +Inf.
  Histogram(std::string name, std::string help, std::vector<std::string> label_names,
            std::vector<double> buckets);
  const char* type() const override { return "histogram"; }
  void observe(const LabelValues& values, double value);
  void remove(const LabelValues& values) override;

 private:
  struct Series {
    std::vector<std::uint64_t> counts;  // per bucket, not cumulative; last one is +Inf
    double sum = 0;
    std::uint64_t count = 0;
  };
  bool renderSamples(std::string& out) const override;
  Series& seriesLocked(const LabelValues& key) KF_REQUIRES(mu_);

  std::vector<double> buckets_;
  mutable Mutex mu_;
  std::map<LabelValues, Series> series_ KF_GUARDED_BY(mu_);
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
  void observe(const LabelValues& values, double value);
  void remove(const LabelValues& values) override;

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
  mutable std::map<LabelValues, Series> series_ KF_GUARDED_BY(mu_);
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

  // Every family in the text exposition format 0.0.4.
  std::string render() const;

 private:
  template <class F, class... Args>
  F& add(const std::string& name, Args&&... args);

  const Clock& clock_;
  mutable Mutex mu_;
  std::map<std::string, std::unique_ptr<Family>> families_ KF_GUARDED_BY(mu_);
};

// The process-wide registry that /metrics renders (summaries age on the real clock).
Registry& defaultRegistry();

}  // namespace kf::metrics
