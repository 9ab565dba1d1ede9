#include "federation/metrics/sample_parse.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kf::metrics {
namespace {

// Verifies a sample line gives its name, unescaped labels and value, with or without labels and
// timestamp.
TEST(ParseSampleTest, ReadsNameLabelsAndValue) {
  auto sample = parseSample(R"(requests_total{code="200",path="a\"b\\c\nd",verb="GET"} 17)");
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->name, "requests_total");
  EXPECT_EQ(sample->labels.at("code"), "200");
  EXPECT_EQ(sample->labels.at("path"), "a\"b\\c\nd");
  EXPECT_EQ(sample->labels.at("verb"), "GET");
  EXPECT_EQ(sample->value, 17);

  auto plain = parseSample("process_cpu_seconds_total 1.5e+02 1700000000000");
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->labels.empty());
  EXPECT_EQ(plain->value, 150);

  auto infinite = parseSample(R"(le_bucket{le="+Inf"} +Inf)");
  ASSERT_TRUE(infinite);
  EXPECT_EQ(infinite->labels.at("le"), "+Inf");
  EXPECT_TRUE(std::isinf(infinite->value));
}

// Verifies comments, blank lines and malformed lines are no sample.
TEST(ParseSampleTest, RefusesWhatIsNotASample) {
  EXPECT_FALSE(parseSample(""));
  EXPECT_FALSE(parseSample("# HELP requests_total Requests."));
  EXPECT_FALSE(parseSample("# TYPE requests_total counter"));
  EXPECT_FALSE(parseSample("requests_total"));
  EXPECT_FALSE(parseSample(R"(requests_total{code="200" 3)"));
  EXPECT_FALSE(parseSample(R"(requests_total{code="200} 3)"));
  EXPECT_FALSE(parseSample("requests_total{} many"));
  EXPECT_FALSE(parseSample("{} 3"));
}

// Verifies the samples of one metric are picked out of a text, in order, comments and other
// metrics (also those whose name starts the same) skipped.
TEST(SamplesNamedTest, PicksOneMetricsSamplesInOrder) {
  const auto samples =
      samplesNamed("# TYPE a counter\na{x=\"1\"} 2\nab 5\nb 7\na{x=\"2\"} 3\n", "a");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].labels.at("x"), "1");
  EXPECT_EQ(samples[0].value, 2);
  EXPECT_EQ(samples[1].labels.at("x"), "2");
  EXPECT_EQ(samples[1].value, 3);
}

// Verifies only write verbs of the asked resource are summed, over every code, scope and
// subresource, and nothing of dry runs (kubefedctl plan sends them) or of other metrics whose
// labels look alike.
TEST(ApiServerWritesTest, SumsTheWriteVerbsOfOneResourceButNotDryRuns) {
  const char* metrics = R"(# HELP apiserver_request_total [STABLE] Counter of apiserver requests.
# TYPE apiserver_request_total counter
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 5
apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="PUT",version="v1"} 7
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="PATCH",version="v1"} 3
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="DELETE",version="v1"} 1
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"} 4
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"} 90
apiserver_request_total{code="200",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="PUT",version="v1"} 24
apiserver_request_total{code="201",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 4
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="GET",version="v1"} 40
apiserver_request_total{code="0",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"} 6
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="secrets",scope="resource",subresource="",verb="POST",version="v1"} 11
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="namespaces",scope="resource",subresource="status",verb="PUT",version="v1"} 13
apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="status",verb="PUT",version="v1"} 8
apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="",verb="PATCH",version="v1"} 2
apiserver_request_duration_seconds_count{component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 100
apiserver_request_total_other{resource="configmaps",verb="POST"} 100
)";
  EXPECT_EQ(apiServerWrites(metrics, "configmaps"), 5 + 2 + 7 + 3 + 1 + 4);
  EXPECT_EQ(apiServerWrites(metrics, "secrets"), 11);
  EXPECT_EQ(apiServerWrites(metrics, "namespaces"), 13);
  EXPECT_EQ(apiServerWrites(metrics, "deployments"), 8 + 2);
  EXPECT_EQ(apiServerWrites(metrics, "config"), 0);
  EXPECT_EQ(apiServerWrites("", "configmaps"), 0);
}

}  // namespace
}  // namespace kf::metrics
