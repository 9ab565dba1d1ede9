#include "federation/metrics/registry.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "tests/support/fake_clock.h"

namespace kf::metrics {
namespace {

using std::chrono::minutes;

class RegistryTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  Registry registry_{clock_};
};

// Verifies counters and gauges render HELP, TYPE and one line per series, label pairs sorted by
// name and series sorted by label values.
TEST_F(RegistryTest, RendersCountersAndGaugesWithSortedLabels) {
  Counter& adds = registry_.counter("adds_total", "Adds.", {"name"});
  adds.inc({"b"});
  adds.inc({"a"}, 2.5);
  adds.inc({"b"});
  Gauge& state = registry_.gauge("state", "State per cluster.", {"state", "cluster"});
  state.set({"ready", "c2"}, 1);
  state.set({"offline", "c1"}, 0);

  EXPECT_EQ(registry_.render(),
            "# HELP adds_total Adds.\n"
            "# TYPE adds_total counter\n"
            "adds_total{name=\"a\"} 2.5\n"
            "adds_total{name=\"b\"} 2\n"
            "# HELP state State per cluster.\n"
            "# TYPE state gauge\n"
            "state{cluster=\"c1\",state=\"offline\"} 0\n"
            "state{cluster=\"c2\",state=\"ready\"} 1\n");
}

// Verifies an unlabelled family shows a zero sample before any observation, while a labelled
// family without series is left out.
TEST_F(RegistryTest, ShowsUnlabelledFamiliesAtZeroAndHidesEmptyLabelledOnes) {
  registry_.gauge("joined", "Joined.");
  registry_.counter("errors_total", "Errors.", {"controller"});
  EXPECT_EQ(registry_.render(),
            "# HELP joined Joined.\n"
            "# TYPE joined gauge\n"
            "joined 0\n");
}

// Verifies histogram buckets are cumulative, inclusive at their upper bound, end in +Inf, and
// are followed by _sum and _count.
TEST_F(RegistryTest, RendersHistogramBucketsInclusiveAtBoundaries) {
  Histogram& h = registry_.histogram("op_seconds", "Op.", {"action"}, {0.1, 1, 2.5});
  h.observe({"create"}, 0.1);   // exactly on a bound: that bucket
  h.observe({"create"}, 0.25);  // between bounds: the next one up
  h.observe({"create"}, 1);
  h.observe({"create"}, 3);  // above every bound: +Inf only
  EXPECT_EQ(registry_.render(),
            "# HELP op_seconds Op.\n"
            "# TYPE op_seconds histogram\n"
            "op_seconds_bucket{action=\"create\",le=\"0.1\"} 1\n"
            "op_seconds_bucket{action=\"create\",le=\"1\"} 3\n"
            "op_seconds_bucket{action=\"create\",le=\"2.5\"} 3\n"
            "op_seconds_bucket{action=\"create\",le=\"+Inf\"} 4\n"
            "op_seconds_sum{action=\"create\"} 4.35\n"
            "op_seconds_count{action=\"create\"} 4\n");
}

// Verifies an unlabelled histogram prints only the le label.
TEST_F(RegistryTest, RendersUnlabelledHistogram) {
  Histogram& h = registry_.histogram("probe_seconds", "Probe.", {}, {0.5});
  h.observe({}, 0.5);
  EXPECT_EQ(registry_.render(),
            "# HELP probe_seconds Probe.\n"
            "# TYPE probe_seconds histogram\n"
            "probe_seconds_bucket{le=\"0.5\"} 1\n"
            "probe_seconds_bucket{le=\"+Inf\"} 1\n"
            "probe_seconds_sum 0.5\n"
            "probe_seconds_count 1\n");
}

// Verifies label values and HELP text are escaped in the output.
TEST_F(RegistryTest, EscapesLabelValuesAndHelp) {
  registry_.gauge("g", "Line one\nline \\two", {"path"}).set({"C:\\dir \"x\"\nend"}, 1);
  EXPECT_EQ(registry_.render(),
            "# HELP g Line one\\nline \\\\two\n"
            "# TYPE g gauge\n"
            "g{path=\"C:\\\\dir \\\"x\\\"\\nend\"} 1\n");
}

// Verifies summary quantiles (nearest rank over the window), then _sum and _count.
TEST_F(RegistryTest, RendersSummaryQuantilesSumAndCount) {
  Summary& s = registry_.summary("reconcile_seconds", "Reconcile.", {"controller"});
  for (int i = 1; i <= 10; ++i) s.observe({"ftc"}, i);
  EXPECT_EQ(registry_.render(),
            "# HELP reconcile_seconds Reconcile.\n"
            "# TYPE reconcile_seconds summary\n"
            "reconcile_seconds{controller=\"ftc\",quantile=\"0.5\"} 5\n"
            "reconcile_seconds{controller=\"ftc\",quantile=\"0.9\"} 9\n"
            "reconcile_seconds{controller=\"ftc\",quantile=\"0.99\"} 10\n"
            "reconcile_seconds_sum{controller=\"ftc\"} 55\n"
            "reconcile_seconds_count{controller=\"ftc\"} 10\n");
}

// Verifies observations older than max age leave the quantiles but stay in _sum and _count.
TEST_F(RegistryTest, SummaryForgetsObservationsOlderThanMaxAge) {
  Summary& s = registry_.summary("q", "Q.", {}, SummaryOptions{.max_age = minutes(60)});
  s.observe({}, 100);
  clock_.advance(minutes(30));
  s.observe({}, 1);
  clock_.advance(minutes(31));  // the first observation is now 61 minutes old
  EXPECT_EQ(registry_.render(),
            "# HELP q Q.\n"
            "# TYPE q summary\n"
            "q{quantile=\"0.5\"} 1\n"
            "q{quantile=\"0.9\"} 1\n"
            "q{quantile=\"0.99\"} 1\n"
            "q_sum 101\n"
            "q_count 2\n");
  clock_.advance(minutes(30));  // now both are too old
  EXPECT_NE(registry_.render().find("q{quantile=\"0.5\"} NaN\n"), std::string::npos);
}

// Verifies the window keeps only the newest max_samples observations.
TEST_F(RegistryTest, SummaryWindowIsBoundedBySampleCount) {
  Summary& s = registry_.summary("q", "Q.", {}, SummaryOptions{.quantiles = {0}, .max_samples = 2});
  s.observe({}, 1);
  s.observe({}, 7);
  s.observe({}, 9);
  EXPECT_NE(registry_.render().find("q{quantile=\"0\"} 7\n"), std::string::npos);
}

// Verifies remove() drops one series and leaves the others.
TEST_F(RegistryTest, RemoveDropsOneSeries) {
  Gauge& g = registry_.gauge("g", "G.", {"cluster"});
  g.set({"a"}, 1);
  g.set({"b"}, 2);
  g.remove({"a"});
  EXPECT_EQ(registry_.render(), "# HELP g G.\n# TYPE g gauge\ng{cluster=\"b\"} 2\n");
}

// Verifies a removed series comes back from 0 when it is used again, also through a handle
// resolved before the removal.
TEST_F(RegistryTest, RemovedSeriesComesBackFromZero) {
  Counter& c = registry_.counter("c_total", "C.", {"cluster"});
  const Counter::Series a = c.series({"a"});
  a.inc(5);
  c.remove({"a"});
  EXPECT_EQ(registry_.render(), "");
  EXPECT_EQ(c.value({"a"}), 0);
  a.inc();
  EXPECT_EQ(registry_.render(),
            "# HELP c_total C.\n# TYPE c_total counter\nc_total{cluster=\"a\"} 1\n");
}

// Verifies handles update the series their labels name, in the family's label order.
TEST_F(RegistryTest, SeriesHandlesUpdateTheirSeries) {
  const Gauge::Series depth = registry_.gauge("depth", "D.", {"name", "kind"}).series({"q", "k"});
  depth.set(4);
  depth.add(-1.5);
  const Histogram::Series h = registry_.histogram("h", "H.", {}, {1}).series();
  h.observe(0.5);
  h.observe(2);
  EXPECT_EQ(registry_.render(),
            "# HELP depth D.\n# TYPE depth gauge\ndepth{kind=\"k\",name=\"q\"} 2.5\n"
            "# HELP h H.\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\n"
            "h_sum 2.5\nh_count 2\n");
}

// Verifies a render hook runs before every render while it lives, and not after.
TEST_F(RegistryTest, RenderHooksRunBeforeEachRenderWhileTheyLive) {
  Gauge& g = registry_.gauge("scrapes", "S.");
  int runs = 0;
  {
    RenderHook hook = registry_.beforeRender([&] { g.set({}, ++runs); });
    EXPECT_EQ(registry_.render(), "# HELP scrapes S.\n# TYPE scrapes gauge\nscrapes 1\n");
    RenderHook moved = std::move(hook);
    registry_.render();
    EXPECT_EQ(runs, 2);
  }
  registry_.render();
  EXPECT_EQ(runs, 2);
}

// Verifies registering a name again returns the same family.
TEST_F(RegistryTest, RegisteringTwiceReturnsTheSameFamily) {
  Counter& first = registry_.counter("c_total", "C.", {"x"});
  Counter& second = registry_.counter("c_total", "C.", {"x"});
  EXPECT_EQ(&first, &second);
}

// Verifies counters ignore negative increments (a counter never goes down).
TEST_F(RegistryTest, CounterIgnoresNegativeIncrements) {
  Counter& c = registry_.counter("c_total", "C.");
  c.inc({}, 3);
  c.inc({}, -1);
  EXPECT_EQ(c.value(), 3);
}

// Verifies concurrent updates and renders lose nothing (also run under TSan).
TEST_F(RegistryTest, ConcurrentUpdatesAreAllCounted) {
  Counter& c = registry_.counter("c_total", "C.", {"worker"});
  Histogram& h = registry_.histogram("h", "H.", {}, {1});
  Summary& s = registry_.summary("s", "S.", {"worker"});
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2000;
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        const std::string worker = t % 2 == 0 ? "even" : "odd";
        for (int i = 0; i < kPerThread; ++i) {
          c.inc({worker});
          h.observe({}, 0.5);
          s.observe({worker}, i);
          if (i % 500 == 0) registry_.render();
        }
      });
    }
  }
  EXPECT_EQ(c.value({"even"}) + c.value({"odd"}), kThreads * kPerThread);
  const std::string text = registry_.render();
  EXPECT_NE(text.find("h_count 8000\n"), std::string::npos);
  EXPECT_NE(text.find("s_count{worker=\"odd\"} 4000\n"), std::string::npos);
}

}  // namespace
}  // namespace kf::metrics
