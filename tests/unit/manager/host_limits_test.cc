// The host client's limits: the flags when given, else 100/200 on a host API server with API
// Priority and Fairness and KubeFed's 5/10 on one without; and a client made with them runs at
// them.

#include "cmd/controller-manager/host_limits.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::manager {
namespace {

using std::chrono::milliseconds;

constexpr const char* kVersionBody = R"({"major":"1","minor":"33","gitVersion":"v1.33.0"})";

// What a server with API Priority and Fairness answers: its filter's two headers.
HttpResponse versionWithPriorityAndFairness() {
  return test::textResponse(200, kVersionBody,
                            {{"content-type", "application/json"},
                             {"x-kubernetes-pf-flowschema-uid", "6d1c9a52-flow"},
                             {"x-kubernetes-pf-prioritylevel-uid", "0f3e7b11-level"}});
}

HttpResponse versionWithoutPriorityAndFairness() {
  return test::textResponse(200, kVersionBody, {{"content-type", "application/json"}});
}

Options optionsOf(const std::vector<std::string>& args) {
  auto options = parseOptions(args, nullptr);
  EXPECT_TRUE(options) << options.error().message;
  return options ? options.value() : Options{};
}

class HostLimitsTest : public ::testing::Test {
 protected:
  // The limits decided with `args` against a host that answers GET /version with `version`.
  HostLimits decide(const std::vector<std::string>& args, HttpResponse version) {
    server_.respondNext(std::move(version));
    return decideHostLimits(optionsOf(args), *server_.client());
  }

  test::FakeClock clock_;
  test::FakeApiServer server_{clock_};
};

TEST_F(HostLimitsTest, EitherHeaderOfPriorityAndFairnessTellsTheServerHasIt) {
  EXPECT_TRUE(carriesPriorityAndFairnessHeaders(versionWithPriorityAndFairness()));
  EXPECT_TRUE(carriesPriorityAndFairnessHeaders(
      test::textResponse(200, "{}", {{"x-kubernetes-pf-flowschema-uid", "u"}})));
  EXPECT_TRUE(carriesPriorityAndFairnessHeaders(
      test::textResponse(200, "{}", {{"x-kubernetes-pf-prioritylevel-uid", "u"}})));
  EXPECT_FALSE(carriesPriorityAndFairnessHeaders(versionWithoutPriorityAndFairness()));
}

TEST_F(HostLimitsTest, WithoutFlagsAServerWithPriorityAndFairnessGets100And200) {
  const HostLimits limits = decide({}, versionWithPriorityAndFairness());
  EXPECT_EQ(limits.qps, 100.0);
  EXPECT_EQ(limits.burst, 200);
  EXPECT_EQ(describeHostLimits(limits),
            "Host client limits: QPS 100, burst 200 (the host API server has API Priority and "
            "Fairness; --rest-config-qps/--rest-config-burst override)");
  EXPECT_EQ(server_.requestLines(), std::vector<std::string>{"GET /version"});
}

TEST_F(HostLimitsTest, WithoutFlagsAServerWithoutPriorityAndFairnessGetsKubeFedsDefaults) {
  const HostLimits limits = decide({}, versionWithoutPriorityAndFairness());
  EXPECT_EQ(limits.qps, 5.0);
  EXPECT_EQ(limits.burst, 10);
  EXPECT_EQ(describeHostLimits(limits),
            "Host client limits: QPS 5, burst 10 (KubeFed's defaults: the host API server has no "
            "API Priority and Fairness; --rest-config-qps/--rest-config-burst override)");
}

TEST_F(HostLimitsTest, EitherFlagWinsWithKubeFedsDefaultForTheOtherAndAsksNothing) {
  struct Case {
    std::vector<std::string> args;
    double qps;
    int burst;
  };
  for (const bool priority_and_fairness : {true, false}) {
    for (const Case& c : std::vector<Case>{
             {{"--rest-config-qps", "7"}, 7.0, 10},
             {{"--rest-config-burst=30"}, 5.0, 30},
             {{"--rest-config-qps", "2.5", "--rest-config-burst", "4"}, 2.5, 4},
             // KubeFed applies only positive values; the flag still turns the default off.
             {{"--rest-config-qps", "0"}, 5.0, 10},
             {{"--rest-config-qps", "5", "--rest-config-burst", "10"}, 5.0, 10},
         }) {
      test::FakeApiServer server(clock_);
      server.respondNext(priority_and_fairness ? versionWithPriorityAndFairness()
                                               : versionWithoutPriorityAndFairness());
      const HostLimits limits = decideHostLimits(optionsOf(c.args), *server.client());
      const std::string label = ::testing::PrintToString(c.args);
      EXPECT_EQ(limits.qps, c.qps) << label;
      EXPECT_EQ(limits.burst, c.burst) << label;
      EXPECT_NE(limits.why.find("from --rest-config-qps/--rest-config-burst"), std::string::npos)
          << limits.why;
      EXPECT_TRUE(server.requests().empty()) << label;
    }
  }
}

TEST_F(HostLimitsTest, AHostThatCannotBeAskedGetsKubeFedsDefaultsAndTheReason) {
  server_.setUnreachable(true);
  const HostLimits limits = decideHostLimits(optionsOf({}), *server_.client());
  EXPECT_EQ(limits.qps, 5.0);
  EXPECT_EQ(limits.burst, 10);
  EXPECT_NE(limits.why.find("cannot tell whether the host API server has API Priority and "
                            "Fairness ("),
            std::string::npos)
      << limits.why;
}

TEST_F(HostLimitsTest, AFailedVersionRequestGetsKubeFedsDefaults) {
  server_.respondNext(test::statusResponse(403, "Forbidden", "forbidden: /version"));
  const HostLimits limits = decideHostLimits(optionsOf({}), *server_.client());
  EXPECT_EQ(limits.qps, 5.0);
  EXPECT_EQ(limits.burst, 10);
  EXPECT_NE(limits.why.find("forbidden: /version"), std::string::npos) << limits.why;
}

// The decided limits reach the client's token bucket: a burst of 200 requests goes out at once,
// the 201st waits 1/100 s on the clock.
TEST_F(HostLimitsTest, AClientMadeWithTheDecidedLimitsRunsAtThem) {
  const HostLimits limits = decide({}, versionWithPriorityAndFairness());
  RestClient host(withHostLimits(test::fakeServerConfig(), limits), server_.transport(), clock_,
                  RetryPolicy{.max_attempts = 1});
  const RestRequest list{.path = "/api/v1/namespaces/default/configmaps"};
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(host.send(list)) << "request " << i;
  const std::size_t sent = server_.requests().size();

  auto next = std::async(std::launch::async, [&] { return host.send(list); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (clock_.pendingTimers() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  const bool waiting = clock_.pendingTimers() == 1;
  if (!waiting) clock_.advance(std::chrono::seconds(1));  // never leave the request blocked
  ASSERT_TRUE(waiting) << "the 201st request did not wait for a token";
  clock_.advance(milliseconds(9));
  EXPECT_EQ(server_.requests().size(), sent);
  clock_.advance(milliseconds(1));
  ASSERT_TRUE(next.get());
  EXPECT_EQ(server_.requests().size(), sent + 1);
}

}  // namespace
}  // namespace kf::manager
