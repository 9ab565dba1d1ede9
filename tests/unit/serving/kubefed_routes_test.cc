#include "federation/serving/kubefed_routes.h"

#include <gtest/gtest.h>

#include <atomic>

#include "federation/client/transport.h"
#include "federation/metrics/kubefed_metrics.h"

namespace kf::serving {
namespace {

ServerReply call(const Routes& routes, const std::string& path) {
  auto route = routes.find(path);
  EXPECT_NE(route, routes.end()) << path;
  return route == routes.end() ? ServerReply{} : route->second(ServerRequest{"GET", path, ""});
}

// Verifies /healthz always answers 200 "OK", as KubeFed's.
TEST(KubefedRoutesTest, HealthzIsAlwaysOk) {
  const Routes routes = healthRoutes();
  const ServerReply reply = call(routes, "/healthz");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "OK");
  EXPECT_EQ(reply.content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(routes.count("/readyz"), 0u);  // no readiness check given: no /readyz
}

// Verifies /readyz follows the readiness check and says why it is not ready.
TEST(KubefedRoutesTest, ReadyzFollowsTheCheck) {
  std::atomic<bool> ready{false};
  const Routes routes = healthRoutes(
      [&ready] { return ready ? Readiness::ok() : Readiness::notReady("informers not synced"); });
  ServerReply reply = call(routes, "/readyz");
  EXPECT_EQ(reply.status, 503);
  EXPECT_EQ(reply.body, "not ready: informers not synced\n");
  ready = true;
  reply = call(routes, "/readyz");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "ok");
}

// Verifies /metrics renders the registry with the Prometheus text content type.
TEST(KubefedRoutesTest, MetricsRendersTheRegistry) {
  metrics::recordClusterState("routes-test", metrics::ClusterState::kNotReady);
  const ServerReply reply = call(metricsRoutes(), "/metrics");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(reply.body.find("kubefedcluster_total{cluster=\"routes-test\",state=\"notready\"} 1\n"),
            std::string::npos);
}

// Verifies the routes work over a real loopback socket.
TEST(KubefedRoutesTest, ServesHealthzOverLoopback) {
  auto server = HttpServer::start("127.0.0.1:0", healthRoutes());
  ASSERT_TRUE(server) << server.error().describe();
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(server.value()->port());
  auto transport = makeTransport(config);
  ASSERT_TRUE(transport);
  HttpRequest request;
  request.method = "GET";
  request.target = "/healthz";
  auto response = transport.value()->roundTrip(request);
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().status, 200);
  EXPECT_EQ(response.value().body, "OK");
}

}  // namespace
}  // namespace kf::serving
