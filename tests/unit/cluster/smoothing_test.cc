// Threshold smoothing of probe results (spec §2.4; vectors of KubeFed's controller_test.go).

#include <gtest/gtest.h>

#include "federation/cluster/health.h"

namespace kf {
namespace {

using std::chrono::seconds;

const HealthThresholds kKubeFedDefaults{.failure = 3, .success = 1};

SystemTime at(int second) { return SystemTime(seconds(1'700'000'000 + second)); }

std::vector<core::ClusterCondition> ready(int second) {
  return conditionsForProbe(HealthzOutcome(std::string("ok")), at(second));
}
std::vector<core::ClusterCondition> notReady(int second) {
  return conditionsForProbe(HealthzOutcome(std::string("not ok")), at(second));
}
std::vector<core::ClusterCondition> offline(int second) {
  return conditionsForProbe(HealthzOutcome(makeError(Reason::kConnectionFailed, "refused")),
                            at(second));
}

// Conditions as they are written, for whole-value comparisons.
Json written(const std::vector<core::ClusterCondition>& conditions) {
  Json out = Json::array();
  for (const auto& condition : conditions) out.push_back(condition.toJson());
  return out;
}

class SmoothingTest : public ::testing::Test {
 protected:
  std::vector<core::ClusterCondition> probe(std::vector<core::ClusterCondition> probed,
                                            HealthThresholds thresholds = kKubeFedDefaults) {
    return smoothProbe(state_, std::move(probed), thresholds);
  }
  int run() const { return state_ ? state_->run : 0; }

  std::optional<SmoothingState> state_;
};

// Verifies the first probe is used as is with run 1, whether ready or not.
TEST_F(SmoothingTest, FirstProbeIsUsedAsIs) {
  EXPECT_EQ(written(probe(ready(0))), written(ready(0)));
  EXPECT_EQ(run(), 1);

  state_.reset();
  EXPECT_EQ(written(probe(notReady(0))), written(notReady(0)));
  EXPECT_EQ(run(), 1);
}

// Verifies KubeFed's vector sequence: Ready; NotReady twice within the failure threshold keeps
// Ready (new probe time, run 2 then 3); NotReady at run 3 flips (new times, run 1); Ready
// after NotReady with success threshold 1 flips back at once (run 1).
TEST_F(SmoothingTest, KubeFedThresholdVectors) {
  probe(ready(0));

  auto effective = probe(notReady(10));
  ASSERT_EQ(effective.size(), 1U);
  EXPECT_EQ(effective[0].status, "True");
  EXPECT_EQ(effective[0].last_probe_time, formatConditionTime(at(10)));
  EXPECT_EQ(effective[0].last_transition_time, formatConditionTime(at(0)));
  EXPECT_EQ(run(), 2);

  effective = probe(notReady(20));
  EXPECT_TRUE(isClusterReady(effective));
  EXPECT_EQ(effective[0].last_probe_time, formatConditionTime(at(20)));
  EXPECT_EQ(run(), 3);

  effective = probe(notReady(30));
  EXPECT_EQ(written(effective), written(notReady(30)));
  EXPECT_EQ(run(), 1);

  effective = probe(ready(40));
  EXPECT_EQ(written(effective), written(ready(40)));
  EXPECT_EQ(run(), 1);
}

// Verifies a steady state keeps its first transition time and only moves the probe time.
TEST_F(SmoothingTest, SteadyStateKeepsTransitionTime) {
  probe(ready(0));
  for (int second = 10; second <= 50; second += 10) {
    const auto effective = probe(ready(second));
    ASSERT_EQ(effective.size(), 1U);
    EXPECT_EQ(effective[0].last_probe_time, formatConditionTime(at(second)));
    EXPECT_EQ(effective[0].last_transition_time, formatConditionTime(at(0)));
  }
  EXPECT_EQ(run(), 6);
}

// Verifies the QUIRK: once a cluster has been stable for the failure threshold, one contrary
// probe flips it (the run counts probes since the last change, not contrary probes).
TEST_F(SmoothingTest, LongStableClusterFlipsOnOneContraryProbe) {
  probe(ready(0));
  probe(ready(10));
  probe(ready(20));
  ASSERT_EQ(run(), 3);
  const auto effective = probe(offline(30));
  EXPECT_EQ(healthOf(effective), ClusterHealth::kOffline);
  EXPECT_EQ(run(), 1);
}

// Verifies that right after a change to not ready, a ready probe within the success threshold
// keeps the not-ready conditions (with the new probe time) until the threshold is reached.
TEST_F(SmoothingTest, SuccessThresholdDebouncesRecovery) {
  const HealthThresholds thresholds{.failure = 1, .success = 3};
  probe(offline(0), thresholds);

  auto effective = probe(ready(10), thresholds);
  EXPECT_EQ(healthOf(effective), ClusterHealth::kOffline);
  EXPECT_EQ(effective[0].last_probe_time, formatConditionTime(at(10)));
  EXPECT_EQ(run(), 2);

  effective = probe(ready(20), thresholds);
  EXPECT_EQ(healthOf(effective), ClusterHealth::kOffline);
  EXPECT_EQ(run(), 3);

  effective = probe(ready(30), thresholds);
  EXPECT_EQ(written(effective), written(ready(30)));
  EXPECT_EQ(run(), 1);
}

// Verifies Offline and NotReady count as the same readiness: moving between them past the
// threshold writes the new conditions but keeps the stored transition time, and the run grows.
TEST_F(SmoothingTest, OfflineToNotReadyIsNotATransition) {
  const HealthThresholds thresholds{.failure = 1, .success = 1};
  probe(offline(0), thresholds);
  const auto effective = probe(notReady(10), thresholds);
  ASSERT_EQ(effective.size(), 2U);
  EXPECT_EQ(healthOf(effective), ClusterHealth::kNotReady);
  for (const auto& condition : effective) {
    EXPECT_EQ(condition.last_probe_time, formatConditionTime(at(10)));
    EXPECT_EQ(condition.last_transition_time, formatConditionTime(at(0)));
  }
  EXPECT_EQ(run(), 2);
}

// Verifies a within-threshold contrary probe keeps the stored conditions' messages (the Offline
// reason is not written until the failure threshold is reached).
TEST_F(SmoothingTest, WithinThresholdKeepsStoredConditionsWhole) {
  probe(ready(0));
  const auto effective = probe(offline(10));
  ASSERT_EQ(effective.size(), 1U);
  EXPECT_EQ(effective[0].type, "Ready");
  EXPECT_EQ(effective[0].reason, "ClusterReady");
  EXPECT_EQ(effective[0].message, "/healthz responded with ok");
}

// Verifies the integration-test setting (failure 2, success 1): a stopped cluster goes Offline on
// the second failed probe after a recent transition.
TEST_F(SmoothingTest, FailureThresholdTwo) {
  const HealthThresholds thresholds{.failure = 2, .success = 1};
  probe(ready(0), thresholds);
  EXPECT_TRUE(isClusterReady(probe(offline(1), thresholds)));
  EXPECT_EQ(healthOf(probe(offline(2), thresholds)), ClusterHealth::kOffline);
  EXPECT_TRUE(isClusterReady(probe(ready(3), thresholds)));
}

}  // namespace
}  // namespace kf
