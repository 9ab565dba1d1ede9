// kubefedctl's waits (disable's, enable's, federate's) poll on the client's clock: a fake clock
// moves them here, so no test waits out KubeFed's seconds.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <sstream>

#include "cmd/kubefedctl/create_resources.h"
#include "cmd/kubefedctl/disable.h"
#include "cmd/kubefedctl/federate.h"
#include "cmd/kubefedctl/host_resources.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::kubefedctl {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::HasSubstr;

class PollingTest : public ::testing::Test {
 protected:
  // Moves the clock by `step` each time the call waits on it, until `call` returned (at most ten
  // seconds of real time); the fake time that passed.
  template <typename T>
  Duration advanceUntilReady(std::future<T>& call, Duration step) {
    const SteadyTime start = clock_.now();
    const auto limit = std::chrono::steady_clock::now() + seconds(10);
    while (call.wait_for(milliseconds(1)) != std::future_status::ready &&
           std::chrono::steady_clock::now() < limit) {
      if (clock_.pendingTimers() > 0) clock_.advance(step);
    }
    return clock_.now() - start;
  }

  Json typeConfig(const std::string& controller_status) {
    return Json{{"apiVersion", "core.kubefed.io/v1beta1"},
                {"kind", "FederatedTypeConfig"},
                {"metadata", {{"name", "configmaps"}, {"namespace", "kf"}}},
                {"status", {{"propagationController", controller_status}}}};
  }

  Json crd(bool established) {
    Json conditions = Json::array();
    if (established) conditions.push_back({{"type", "Established"}, {"status", "True"}});
    return Json{{"metadata", {{"name", "federatedwidgets.types.kubefed.io"}}},
                {"status", {{"conditions", conditions}}}};
  }

  test::FakeClock clock_;
  test::FakeApiServer server_{clock_};
  std::shared_ptr<RestClient> client_ = server_.client();
};

// Verifies that disable waits until the controller manager reports the sync controller stopped,
// asking every 100 ms of the clock, and then says so.
TEST_F(PollingTest, DisableWaitsUntilTheSyncControllerIsReportedStopped) {
  server_.put(kTypeConfigs, typeConfig("Running"));
  ResourceClient type_configs(*client_, kTypeConfigs, "kf");
  std::ostringstream out;
  auto wait = std::async(std::launch::async, [&] {
    return waitPropagationStopped(type_configs, "configmaps", "kf/configmaps", clock_, out);
  });
  ASSERT_TRUE(clock_.advanceWhenPending(milliseconds(100)));
  ASSERT_TRUE(clock_.waitUntilPending());  // asked twice, and waiting again
  server_.put(kTypeConfigs, typeConfig("NotRunning"));
  EXPECT_EQ(advanceUntilReady(wait, milliseconds(100)), milliseconds(100));
  ASSERT_TRUE(wait.get());
  EXPECT_EQ(server_.requestsTo(
                "/apis/core.kubefed.io/v1beta1/namespaces/kf/federatedtypeconfigs/configmaps"),
            3u);
  EXPECT_THAT(
      out.str(),
      HasSubstr("Propagation controller for FederatedTypeConfig \"kf/configmaps\" is stopped"));
}

// Verifies that disable gives up after KubeFed's 10 s, with KubeFed's message.
TEST_F(PollingTest, DisableGivesUpAfterTenSeconds) {
  server_.put(kTypeConfigs, typeConfig("Running"));
  ResourceClient type_configs(*client_, kTypeConfigs, "kf");
  std::ostringstream out;
  auto wait = std::async(std::launch::async, [&] {
    return waitPropagationStopped(type_configs, "configmaps", "kf/configmaps", clock_, out);
  });
  const Duration waited = advanceUntilReady(wait, milliseconds(100));
  Status result = wait.get();
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "Unable to verify propagation controller for FederatedTypeConfig \"kf/configmaps\" is "
            "stopped: timed out waiting for the condition: timed out waiting for the condition");
  EXPECT_EQ(waited, seconds(10));
}

// Verifies that enable waits for its CRD to be Established, and gives up after the timeout.
TEST_F(PollingTest, EnableWaitsUntilTheCrdIsEstablished) {
  server_.put(kCrds, crd(false));
  auto wait = std::async(std::launch::async, [&] {
    return waitEstablished(*client_, "federatedwidgets.types.kubefed.io", milliseconds(30'000));
  });
  ASSERT_TRUE(clock_.waitUntilPending());  // asked once, and waiting
  server_.put(kCrds, crd(true));
  const Duration waited = advanceUntilReady(wait, milliseconds(200));
  EXPECT_TRUE(wait.get());
  EXPECT_EQ(waited, milliseconds(200));

  server_.put(kCrds, crd(false));
  auto never = std::async(std::launch::async, [&] {
    return waitEstablished(*client_, "federatedwidgets.types.kubefed.io", milliseconds(1000));
  });
  EXPECT_EQ(advanceUntilReady(never, milliseconds(200)), milliseconds(1000));
  Status result = never.get();
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("to be established"));
}

// Verifies that federate tries a create that found no federated CRD again every second, and
// stops at once on any other error.
TEST_F(PollingTest, FederateRetriesACreateUntilTheFederatedTypeIsServed) {
  const GroupVersionResource federated{"types.kubefed.io", "v1beta1", "federatedwidgets", true};
  ResourceClient widgets(*client_, federated, "ns");
  const Json object{{"apiVersion", "types.kubefed.io/v1beta1"},
                    {"kind", "FederatedWidget"},
                    {"metadata", {{"name", "w"}, {"namespace", "ns"}}}};
  server_.failNext({.method = "POST"}, 404, "NotFound", 2);
  auto create =
      std::async(std::launch::async, [&] { return createWhenServed(widgets, object, clock_); });
  EXPECT_EQ(advanceUntilReady(create, seconds(1)), seconds(2));
  EXPECT_TRUE(create.get());

  server_.failNext({.method = "POST"}, 403, "Forbidden");
  const Json other{{"apiVersion", "types.kubefed.io/v1beta1"},
                   {"kind", "FederatedWidget"},
                   {"metadata", {{"name", "x"}, {"namespace", "ns"}}}};
  Result<Json> refused = createWhenServed(widgets, other, clock_);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().reason, Reason::kForbidden);
}

}  // namespace
}  // namespace kf::kubefedctl
