#include "federation/client/rest_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <optional>

#include "federation/client/resource_client.h"
#include "federation/metrics/kubefed_metrics.h"
#include "federation/metrics/sample_parse.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using namespace std::chrono_literals;
using test::FakeApiServer;
using test::FakeClock;
using test::textResponse;

constexpr const char* kUnavailable =
    R"({"kind":"Status","reason":"ServiceUnavailable","code":503})";
constexpr const char* kThrottled = R"({"kind":"Status","reason":"TooManyRequests","code":429})";

class RestClientTest : public ::testing::Test {
 protected:
  RestClient makeClient(RetryPolicy retry = {
                            .max_attempts = 3, .initial_backoff = 0ms, .max_backoff = 0ms}) {
    RestConfig config;
    config.server = "https://127.0.0.1:6443";
    config.bearer_token = "s3cret";
    config.qps = 0;  // unlimited: these tests are about retries, not throttling
    return RestClient(config, server_.transport(), clock_, retry);
  }

  // Runs `call` on another thread while advancing the fake clock until it finishes.
  template <class Call>
  auto runAdvancing(Call call) {
    auto future = std::async(std::launch::async, call);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (future.wait_for(0ms) != std::future_status::ready) {
      EXPECT_LT(std::chrono::steady_clock::now(), deadline) << "the call never finished";
      if (std::chrono::steady_clock::now() >= deadline) break;
      clock_.advance(100ms);
      std::this_thread::yield();
    }
    return future.get();
  }

  FakeClock clock_;
  FakeApiServer server_{clock_};
};

TEST_F(RestClientTest, SendsAuthAndAcceptHeadersAndEncodedQuery) {
  auto client = makeClient();
  server_.respondNext(textResponse(200, "{}"));
  auto result =
      client.send({.path = "/api/v1/configmaps", .query = {{"labelSelector", "a=b,c in (d)"}}});
  ASSERT_TRUE(result);
  const auto sent = server_.requests().at(0);
  EXPECT_EQ(sent.target, "/api/v1/configmaps?labelSelector=a%3Db%2Cc%20in%20%28d%29");
  EXPECT_EQ(sent.headers.at("Authorization"), "Bearer s3cret");
  EXPECT_EQ(sent.headers.at("Accept"), "application/json");
}

// The value of `metric` with exactly these labels in the process's metrics; nullopt if absent.
std::optional<double> clientSample(const std::string& metric,
                                   const std::map<std::string, std::string, std::less<>>& labels) {
  const std::string text = metrics::renderPrometheusText();
  for (const auto& sample : metrics::samplesNamed(text, metric)) {
    if (sample.labels == labels) return sample.value;
  }
  return std::nullopt;
}

// Verifies client-go's REST client metrics: every attempt counted by status code ("<error>"
// without a response), method and host; every request timed once, backoffs included, under its
// URL with names, namespaces and query values templated; a watch counted but not timed.
TEST_F(RestClientTest, CountsAttemptsAndTimesRequestsAsClientGo) {
  static int runs = 0;  // the registry is process-wide: a host of this run's own
  const std::string host = "rest-metrics-" + std::to_string(++runs) + ".test:6443";
  RestConfig config;
  config.server = "https://" + host;
  config.qps = 0;
  RestClient client(config, server_.transport(), clock_,
                    {.max_attempts = 3, .initial_backoff = 1s, .max_backoff = 1s});
  server_.respondNext(textResponse(503, kUnavailable));
  server_.respondNext(textResponse(200, "{}"));
  auto got = runAdvancing([&] {
    return client.send({.path = "/api/v1/namespaces/ns/configmaps/cm", .query = {{"a", "1"}}});
  });
  ASSERT_TRUE(got) << got.error().describe();
  server_.respondNext(makeError(Reason::kConnectionFailed, "reset"));
  EXPECT_FALSE(client.send({.method = "POST",
                            .path = "/api/v1/namespaces/ns/configmaps",
                            .body = "{}",
                            .idempotent = false}));
  auto watch =
      client.openStream({.path = "/api/v1/namespaces/ns/configmaps", .query = {{"watch", "true"}}});
  ASSERT_TRUE(watch) << watch.error().describe();

  const std::string requests = "rest_client_requests_total";
  EXPECT_EQ(clientSample(requests, {{"code", "503"}, {"host", host}, {"method", "GET"}}), 1);
  EXPECT_EQ(clientSample(requests, {{"code", "200"}, {"host", host}, {"method", "GET"}}), 2);
  EXPECT_EQ(clientSample(requests, {{"code", "<error>"}, {"host", host}, {"method", "POST"}}), 1);

  const std::string base = "https://" + host + "/api/v1/namespaces/%7Bnamespace%7D/configmaps";
  const std::string latency = "rest_client_request_latency_seconds";
  const std::string get_url = base + "/%7Bname%7D?a=%7Bvalue%7D";
  EXPECT_EQ(clientSample(latency + "_count", {{"url", get_url}, {"verb", "GET"}}), 1);
  EXPECT_EQ(clientSample(latency + "_bucket", {{"le", "0.512"}, {"url", get_url}, {"verb", "GET"}}),
            0)
      << "the 1 s backoff belongs to the request's latency";
  EXPECT_GE(clientSample(latency + "_sum", {{"url", get_url}, {"verb", "GET"}}).value_or(0), 1);
  EXPECT_EQ(clientSample(latency + "_count", {{"url", base}, {"verb", "POST"}}), 1);
  EXPECT_EQ(
      clientSample(latency + "_count", {{"url", base + "?watch=%7Bvalue%7D"}, {"verb", "GET"}}),
      std::nullopt);
}

TEST_F(RestClientTest, RetriesIdempotentRequestOnServiceUnavailable) {
  auto client = makeClient();
  server_.respondNext(textResponse(503, kUnavailable));
  server_.respondNext(makeError(Reason::kConnectionFailed, "reset"));
  server_.respondNext(textResponse(200, R"({"ok":true})"));
  auto result = client.sendJson({.path = "/api/v1/namespaces"});
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result.value()["ok"], true);
  EXPECT_EQ(server_.requests().size(), 3u);
}

TEST_F(RestClientTest, GivesUpAfterMaxAttempts) {
  auto client = makeClient();
  for (int i = 0; i < 5; ++i) server_.respondNext(textResponse(503, kUnavailable));
  auto result = client.send({.path = "/api/v1/namespaces"});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().reason, Reason::kServiceUnavailable);
  EXPECT_EQ(server_.requests().size(), 3u);
}

TEST_F(RestClientTest, DoesNotRetryPostOnServerError) {
  auto client = makeClient();
  server_.respondNext(textResponse(503, kUnavailable));
  server_.respondNext(textResponse(201, "{}"));
  auto result = client.send({.method = "POST", .path = "/api/v1/namespaces", .idempotent = false});
  ASSERT_FALSE(result);
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(RestClientTest, RetriesPostOnTooManyRequestsAfterRetryAfter) {
  auto client = makeClient();
  server_.respondNext(textResponse(429, kThrottled, {{"retry-after", "2"}}));
  server_.respondNext(textResponse(201, "{}"));
  const auto started = clock_.now();
  auto result = runAdvancing([&] {
    return client.send({.method = "POST", .path = "/api/v1/namespaces", .idempotent = false});
  });
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(server_.requests().size(), 2u);
  EXPECT_GE(clock_.now() - started, 2s) << "Retry-After was not honoured";
}

TEST_F(RestClientTest, DoesNotRetryClientErrors) {
  auto client = makeClient();
  server_.respondNext(textResponse(404, R"({"kind":"Status","reason":"NotFound","code":404})"));
  auto result = client.send({.path = "/api/v1/namespaces/x"});
  ASSERT_FALSE(result);
  EXPECT_TRUE(isNotFound(result.error()));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(RestClientTest, ReportsNonJsonBodyAsBadResponse) {
  auto client = makeClient();
  server_.respondNext(textResponse(200, "not json"));
  auto result = client.sendJson({.path = "/api"});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().reason, Reason::kBadResponse);
}

TEST_F(RestClientTest, ResourceClientBuildsPathsAndDeleteOptions) {
  auto client = makeClient();
  server_.respondNext(textResponse(200, "{}"));
  server_.respondNext(textResponse(200, "{}"));
  ResourceClient deployments(client, {"apps", "v1", "deployments", true}, "ns1");
  ASSERT_TRUE(deployments.get("web"));
  ASSERT_TRUE(
      deployments.remove("web", {.propagation_policy = "Orphan", .precondition_uid = "u-1"}));
  const auto sent = server_.requests();
  EXPECT_EQ(sent[0].target, "/apis/apps/v1/namespaces/ns1/deployments/web");
  EXPECT_EQ(sent[1].method, "DELETE");
  const auto body = Json::parse(sent[1].body);
  EXPECT_EQ(body["propagationPolicy"], "Orphan");
  EXPECT_EQ(body["preconditions"]["uid"], "u-1");
}

TEST_F(RestClientTest, ListAllFollowsContinueTokensAndFillsKind) {
  auto client = makeClient();
  server_.respondNext(textResponse(200, R"({"kind":"ConfigMapList","apiVersion":"v1",
      "metadata":{"resourceVersion":"10","continue":"tok"},"items":[{"metadata":{"name":"a"}}]})"));
  server_.respondNext(textResponse(200, R"({"kind":"ConfigMapList","apiVersion":"v1",
      "metadata":{"resourceVersion":"10"},"items":[{"metadata":{"name":"b"}}]})"));
  ResourceClient configmaps(client, {"", "v1", "configmaps", true}, "");
  auto all = configmaps.listAll({.limit = 1});
  ASSERT_TRUE(all) << all.error().describe();
  ASSERT_EQ(all.value().items.size(), 2u);
  EXPECT_EQ(all.value().items[1]["kind"], "ConfigMap");
  EXPECT_EQ(all.value().resource_version, "10");
  EXPECT_NE(server_.requests()[1].target.find("continue=tok"), std::string::npos);
}

TEST_F(RestClientTest, AListItemThatIsNotAnObjectIsABadResponseNamingIt) {
  auto client = makeClient();
  server_.respondNext(textResponse(200, R"({"kind":"ConfigMapList","apiVersion":"v1",
      "metadata":{"resourceVersion":"10"},"items":[{"metadata":{"name":"a"}},"b"]})"));
  ResourceClient configmaps(client, {"", "v1", "configmaps", true}, "");
  auto list = configmaps.list({});
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().reason, Reason::kBadResponse);
  EXPECT_THAT(list.error().describe(), ::testing::HasSubstr("item 1 of the list response"));
}

// Credentials that change when renewed, and count how often they were.
class RenewableCredentials final : public Credentials {
 public:
  explicit RenewableCredentials(bool renewable) : renewable_(renewable) {}
  Result<RequestCredentials> forRequest() override {
    RequestCredentials out;
    out.authorization = "Bearer token-" + std::to_string(generation_);
    out.impersonation = {
        {"Impersonate-User", "jane"}, {"Impersonate-Group", "a"}, {"Impersonate-Group", "b"}};
    return out;
  }
  bool renewAfterRejection(const RequestCredentials&) override {
    ++renewals_;
    if (!renewable_) return false;
    ++generation_;
    return true;
  }
  int renewals() const { return renewals_; }

 private:
  const bool renewable_;
  int generation_ = 1;
  int renewals_ = 0;
};

constexpr const char* kUnauthorized = R"({"kind":"Status","reason":"Unauthorized","code":401})";

class RestClientCredentialsTest : public RestClientTest {
 protected:
  RestClient clientWith(std::shared_ptr<Credentials> credentials) {
    RestConfig config;
    config.server = "https://127.0.0.1:6443";
    config.qps = 0;
    return RestClient(config, server_.transport(), std::move(credentials), clock_,
                      {.max_attempts = 3, .initial_backoff = 0ms, .max_backoff = 0ms});
  }
};

TEST_F(RestClientCredentialsTest, SendsOnceMoreWithRenewedCredentialsAfterA401) {
  auto credentials = std::make_shared<RenewableCredentials>(true);
  auto client = clientWith(credentials);
  server_.respondNext(textResponse(401, kUnauthorized));
  server_.respondNext(textResponse(201, "{}"));
  // Even a POST: the server did nothing with a request it did not authenticate.
  auto result = client.send(
      {.method = "POST", .path = "/api/v1/namespaces", .body = "{}", .idempotent = false});
  ASSERT_TRUE(result) << result.error().describe();
  const auto sent = server_.requests();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].headers.at("Authorization"), "Bearer token-1");
  EXPECT_EQ(sent[1].headers.at("Authorization"), "Bearer token-2");
  EXPECT_EQ(credentials->renewals(), 1);
}

TEST_F(RestClientCredentialsTest, RenewsOnlyOncePerRequest) {
  auto credentials = std::make_shared<RenewableCredentials>(true);
  auto client = clientWith(credentials);
  server_.respondNext(textResponse(401, kUnauthorized));
  server_.respondNext(textResponse(401, kUnauthorized));
  auto result = client.send({.path = "/api"});
  ASSERT_FALSE(result);
  EXPECT_TRUE(isUnauthorized(result.error())) << result.error().describe();
  EXPECT_EQ(server_.requests().size(), 2u);
  EXPECT_EQ(credentials->renewals(), 1);
}

TEST_F(RestClientCredentialsTest, Returns401WhenTheCredentialsCannotChange) {
  auto credentials = std::make_shared<RenewableCredentials>(false);
  auto client = clientWith(credentials);
  server_.respondNext(textResponse(401, kUnauthorized));
  auto result = client.send({.path = "/api"});
  ASSERT_FALSE(result);
  EXPECT_TRUE(isUnauthorized(result.error()));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(RestClientCredentialsTest, SendsImpersonationHeadersAsSeparateLines) {
  auto client = clientWith(std::make_shared<RenewableCredentials>(false));
  server_.respondNext(textResponse(200, "{}"));
  ASSERT_TRUE(client.send({.path = "/api"}));
  EXPECT_THAT(server_.requests().at(0).repeated_headers,
              ::testing::ElementsAre(::testing::Pair("Impersonate-User", "jane"),
                                     ::testing::Pair("Impersonate-Group", "a"),
                                     ::testing::Pair("Impersonate-Group", "b")));
}

TEST_F(RestClientCredentialsTest, SendsBasicAuthenticationFromTheConfig) {
  RestConfig config;
  config.server = "https://127.0.0.1:6443";
  config.username = "admin";
  config.password = "hunter2";
  RestClient client(config, server_.transport(), clock_);
  server_.respondNext(textResponse(200, "{}"));
  ASSERT_TRUE(client.send({.path = "/api"}));
  EXPECT_EQ(server_.requests().at(0).headers.at("Authorization"), "Basic YWRtaW46aHVudGVyMg==");
}

}  // namespace
}  // namespace kf
