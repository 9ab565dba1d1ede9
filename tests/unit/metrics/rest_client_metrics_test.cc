#include "federation/metrics/rest_client_metrics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/fake_clock.h"

namespace kf::metrics {
namespace {

using std::chrono::milliseconds;

std::string urlTemplate(const std::string& server, const std::string& path,
                        const std::vector<QueryParameter>& query = {}) {
  std::string out;
  appendUrlTemplate(server, path, query, out);
  return out;
}

// Verifies names and namespaces are replaced where client-go's finalURLTemplate replaces them,
// in the core group and in named groups, and escaped as Go's URL.String() escapes them.
TEST(UrlTemplateTest, ReplacesNamesAndNamespacesAsClientGo) {
  const std::string s = "https://10.0.0.1:6443";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/v1/namespaces", "https://10.0.0.1:6443/api/v1/namespaces"},
      {"/api/v1/namespaces/kube-system", "https://10.0.0.1:6443/api/v1/namespaces/%7Bname%7D"},
      {"/api/v1/namespaces/kube-system/status",
       "https://10.0.0.1:6443/api/v1/namespaces/%7Bname%7D/status"},
      {"/api/v1/namespaces/ns/finalize",
       "https://10.0.0.1:6443/api/v1/namespaces/%7Bname%7D/finalize"},
      {"/api/v1/namespaces/ns/configmaps",
       "https://10.0.0.1:6443/api/v1/namespaces/%7Bnamespace%7D/configmaps"},
      {"/api/v1/namespaces/ns/configmaps/cm",
       "https://10.0.0.1:6443/api/v1/namespaces/%7Bnamespace%7D/configmaps/%7Bname%7D"},
      {"/api/v1/namespaces/ns/pods/p/status",
       "https://10.0.0.1:6443/api/v1/namespaces/%7Bnamespace%7D/pods/%7Bname%7D/status"},
      {"/apis/types.kubefed.io/v1beta1/namespaces/ns/federatedconfigmaps/x/status",
       "https://10.0.0.1:6443/apis/types.kubefed.io/v1beta1/namespaces/%7Bnamespace%7D/"
       "federatedconfigmaps/%7Bname%7D/status"},
      {"/apis/core.kubefed.io/v1beta1/kubefedclusters",
       "https://10.0.0.1:6443/apis/core.kubefed.io/v1beta1/kubefedclusters"},
      {"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/a.b.io",
       "https://10.0.0.1:6443/apis/apiextensions.k8s.io/v1/customresourcedefinitions/%7Bname%7D"},
      {"/apis/apps/v1", "https://10.0.0.1:6443/apis/apps/v1"},
      {"/api", "https://10.0.0.1:6443/api"},
      {"/version", "https://10.0.0.1:6443/version"},
      // client-go gives up on paths outside /api and /apis.
      {"/openapi/v2", "https://10.0.0.1:6443/%7Bprefix%7D"},
  };
  for (const auto& [path, want] : cases) EXPECT_EQ(urlTemplate(s, path), want) << path;
}

// Verifies query values become {value}, one per parameter name, names sorted as Go's
// url.Values.Encode sorts them.
TEST(UrlTemplateTest, KeepsQueryParameterNamesOnly) {
  EXPECT_EQ(urlTemplate("https://h:6443", "/api/v1/namespaces/ns/configmaps",
                        {{"limit", "500"}, {"labelSelector", "a=b"}, {"labelSelector", "c"}}),
            "https://h:6443/api/v1/namespaces/%7Bnamespace%7D/configmaps"
            "?labelSelector=%7Bvalue%7D&limit=%7Bvalue%7D");
  EXPECT_EQ(urlTemplate("https://h:6443", "/version", {{"timeout", "32s"}}),
            "https://h:6443/version?timeout=%7Bvalue%7D");
  EXPECT_EQ(urlTemplate("https://h:6443", "/openapi/v2", {{"timeout", "32s"}}),
            "https://h:6443/%7Bprefix%7D");
}

// Verifies a server URL's path prefix stays in front of the templated path, and its host is
// kept as written (no default port added).
TEST(UrlTemplateTest, KeepsTheServersPrefixAndHostAsWritten) {
  EXPECT_EQ(urlTemplate("https://rancher.example.com/k8s/clusters/c-1/",
                        "/api/v1/namespaces/ns/secrets/s"),
            "https://rancher.example.com/k8s/clusters/c-1/api/v1/namespaces/%7Bnamespace%7D/"
            "secrets/%7Bname%7D");
  EXPECT_EQ(urlTemplate("HTTPS://[::1]:6443", "/api/v1/nodes/n1"),
            "https://[::1]:6443/api/v1/nodes/%7Bname%7D");
}

class RestClientMetricsTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  Registry registry_{clock_};
};

// Verifies the two families with controller-runtime 0.9's names, HELP texts, label names and
// buckets, and the host label without a default port.
TEST_F(RestClientMetricsTest, ExportsClientGoFamilies) {
  RestClientMetrics metrics("https://api.example.com", registry_);
  metrics.countAttempt("GET", 200);
  metrics.countAttempt("POST", 0);
  metrics.observeRequest("GET", "/api/v1/namespaces/ns/configmaps/x", {}, milliseconds(3));
  const std::string url =
      "https://api.example.com/api/v1/namespaces/%7Bnamespace%7D/configmaps/"
      "%7Bname%7D";
  std::string buckets;
  int cumulative = 0;
  for (const char* le : {"0.001", "0.002", "0.004", "0.008", "0.016", "0.032", "0.064", "0.128",
                         "0.256", "0.512", "+Inf"}) {
    if (std::string(le) == "0.004") cumulative = 1;
    buckets += "rest_client_request_latency_seconds_bucket{url=\"" + url + "\",verb=\"GET\",le=\"" +
               le + "\"} " + std::to_string(cumulative) + "\n";
  }
  EXPECT_EQ(registry_.render(),
            "# HELP rest_client_request_latency_seconds Request latency in seconds. Broken down "
            "by verb and URL.\n"
            "# TYPE rest_client_request_latency_seconds histogram\n" +
                buckets + "rest_client_request_latency_seconds_sum{url=\"" + url +
                "\",verb=\"GET\"} 0.003\n"
                "rest_client_request_latency_seconds_count{url=\"" +
                url +
                "\",verb=\"GET\"} 1\n"
                "# HELP rest_client_requests_total Number of HTTP requests, partitioned by "
                "status code, method, and host.\n"
                "# TYPE rest_client_requests_total counter\n"
                "rest_client_requests_total{code=\"200\",host=\"api.example.com\",method=\"GET\"} "
                "1\n"
                "rest_client_requests_total{code=\"<error>\",host=\"api.example.com\",method="
                "\"POST\"} 1\n");
}

}  // namespace
}  // namespace kf::metrics
