// ClusterAvailabilityTrigger: KubeFed's delayed look at everything after a cluster changed
// readiness, on a fake clock.

#include "federation/cluster/availability_trigger.h"

#include <gtest/gtest.h>

#include <atomic>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::seconds;

class AvailabilityTriggerTest : public ::testing::Test {
 protected:
  void setReady(const std::string& name, bool ready) {
    registry_.upsert(ClusterSnapshot{.name = name, .ready = ready}, nullptr);
  }

  test::FakeClock clock_;
  ClusterRegistry registry_{clock_};
  std::atomic<int> fired_{0};
  ClusterAvailabilityTrigger trigger_{registry_, clock_, seconds(20), seconds(60),
                                      [this] { ++fired_; }};
};

TEST_F(AvailabilityTriggerTest, FiresTheAvailableDelayAfterAClusterBecameReady) {
  trigger_.start();
  setReady("a", true);
  clock_.advance(seconds(19));
  EXPECT_EQ(fired_, 0);
  clock_.advance(seconds(1));
  EXPECT_EQ(fired_, 1);
}

TEST_F(AvailabilityTriggerTest, FiresTheUnavailableDelayAfterAClusterStoppedBeingReady) {
  setReady("a", true);
  trigger_.start();
  setReady("a", false);
  clock_.advance(seconds(59));
  EXPECT_EQ(fired_, 0);
  clock_.advance(seconds(1));
  EXPECT_EQ(fired_, 1);
}

// KubeFed takes a cluster whose labels, annotations or spec changed out and adds it back: both
// looks happen; a change of an unready cluster's labels arms nothing.
TEST_F(AvailabilityTriggerTest, ARelabelledReadyClusterFiresBothDelays) {
  setReady("a", true);
  registry_.upsert(ClusterSnapshot{.name = "b", .ready = false}, nullptr);
  trigger_.start();
  registry_.upsert(ClusterSnapshot{.name = "b", .ready = false, .labels = {{"region", "east"}}},
                   nullptr);
  registry_.upsert(ClusterSnapshot{.name = "a", .ready = true, .labels = {{"region", "east"}}},
                   nullptr);
  clock_.advance(seconds(20));
  EXPECT_EQ(fired_, 1);
  clock_.advance(seconds(40));
  EXPECT_EQ(fired_, 2);
  clock_.advance(seconds(60));
  EXPECT_EQ(fired_, 2);
}

TEST_F(AvailabilityTriggerTest, ChangesWhileOneIsPendingFireOnce) {
  trigger_.start();
  setReady("a", true);
  clock_.advance(seconds(10));
  setReady("b", true);
  clock_.advance(seconds(30));
  EXPECT_EQ(fired_, 1);
  // A later change arms it again.
  setReady("c", true);
  clock_.advance(seconds(20));
  EXPECT_EQ(fired_, 2);
}

TEST_F(AvailabilityTriggerTest, OtherChangesDoNotFire) {
  trigger_.start();
  setReady("a", false);  // a new cluster that is not ready
  registry_.upsert(ClusterSnapshot{.name = "a", .ready = false, .labels = {{"x", "y"}}}, nullptr);
  clock_.advance(seconds(120));
  EXPECT_EQ(fired_, 0);
}

TEST_F(AvailabilityTriggerTest, NothingFiresAfterStop) {
  trigger_.start();
  setReady("a", true);
  trigger_.stop();
  setReady("b", true);
  clock_.advance(seconds(120));
  EXPECT_EQ(fired_, 0);
}

}  // namespace
}  // namespace kf
