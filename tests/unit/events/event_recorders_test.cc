#include "federation/events/event_recorders.h"

#include <gtest/gtest.h>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

// Verifies one recorder per component, shared, with the component as source.component.
TEST(EventRecordersTest, SharesOneRecorderPerComponent) {
  test::FakeClock clock;
  test::FakeApiServer api(clock);
  RestClient client(test::fakeServerConfig(), api.transport(), clock);
  EventRecorders recorders(client, "node-a", clock);

  auto first = recorders.forComponent("federateddeployment-controller");
  EXPECT_EQ(first, recorders.forComponent("federateddeployment-controller"));
  auto other = recorders.forComponent("kubefedcluster-controller");
  EXPECT_NE(first, other);

  other->event({.kind = "KubeFedCluster", .namespace_name = "ns", .name = "c"}, EventType::kWarning,
               "R", "m");
  ASSERT_TRUE(api.waitForRequests(1));
  recorders.stopAll();
  EXPECT_EQ(Json::parse(api.requests()[0].body)["source"]["component"],
            "kubefedcluster-controller");

  first->event({.namespace_name = "ns", .name = "x"}, EventType::kNormal, "R", "m");
  EXPECT_EQ(first->stats().dropped, 1u);  // stopped
  EXPECT_EQ(api.requests().size(), 1u);
}

}  // namespace
}  // namespace kf
