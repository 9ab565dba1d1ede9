#include "federation/scheduling/pod_analysis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apis/meta/time.h"

namespace kf::scheduling {
namespace {

using namespace std::chrono_literals;
using testing::HasSubstr;

// The fixed "now" of every analysis: the fake clock's wall time.
const std::chrono::system_clock::time_point kNow =
    std::chrono::sys_days(std::chrono::year(2026) / 11 / 25) + 10h;

Json condition(const char* type, const char* status, const char* reason = nullptr,
               std::optional<std::chrono::seconds> age = std::nullopt) {
  Json out{{"type", type}, {"status", status}};
  if (reason != nullptr) out["reason"] = reason;
  if (age) out["lastTransitionTime"] = meta::formatTime(kNow - *age);
  return out;
}

Json pod(const char* name, const char* phase, const std::vector<Json>& conditions = {}) {
  return Json{{"metadata", {{"name", name}, {"namespace", "ns"}}},
              {"status", {{"phase", phase}, {"conditions", Json(conditions)}}}};
}

Json runningReady(const char* name) {
  return pod(name, "Running",
             {condition("PodScheduled", "True"), condition("Ready", "True"),
              condition("ContainersReady", "True")});
}

Json unschedulableFor(const char* name, std::chrono::seconds age) {
  return pod(name, "Pending", {condition("PodScheduled", "False", "Unschedulable", age)});
}

PodAnalysis analyzed(const std::vector<Json>& pods) {
  auto result = analyzePods(pods, kNow);
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : PodAnalysis{-1, -1, -1, false};
}

// Verifies KubeFed's pod_helper_test: 3 running and ready, 2 unschedulable for long and 1
// unschedulable just now give {6, 3, 2} and a recheck.
TEST(PodAnalysisTest, CountsRunningAndLongUnschedulablePods) {
  const auto result = analyzed({runningReady("r1"), runningReady("r2"), runningReady("r3"),
                                unschedulableFor("u1", 5min), unschedulableFor("u2", 61s),
                                unschedulableFor("u3", 0s)});
  EXPECT_EQ(result.total, 6);
  EXPECT_EQ(result.running_and_ready, 3);
  EXPECT_EQ(result.unschedulable, 2);
  EXPECT_TRUE(result.needs_recheck);
}

// Verifies KubeFed's pod_helper_test: one pending pod without conditions is {1, 0, 0}, all OK.
TEST(PodAnalysisTest, PendingPodWithoutConditionsCountsOnlyInTotal) {
  const auto result = analyzed({pod("p", "Pending")});
  EXPECT_EQ(result.total, 1);
  EXPECT_EQ(result.running_and_ready, 0);
  EXPECT_EQ(result.unschedulable, 0);
  EXPECT_FALSE(result.needs_recheck);
}

// Verifies the 60 s edge: at exactly 60 s a pod is not yet counted (recheck); one second later it
// is (no recheck).
TEST(PodAnalysisTest, UnschedulableCountsOnlyAfterSixtySeconds) {
  struct Case {
    std::chrono::seconds age;
    int unschedulable;
    bool needs_recheck;
  };
  for (const Case& c : {Case{0s, 0, true}, Case{59s, 0, true}, Case{60s, 0, true},
                        Case{61s, 1, false}, Case{3600s, 1, false}}) {
    const auto result = analyzed({unschedulableFor("u", c.age)});
    EXPECT_EQ(result.unschedulable, c.unschedulable) << c.age.count() << " s";
    EXPECT_EQ(result.needs_recheck, c.needs_recheck) << c.age.count() << " s";
  }
}

// Verifies that the same pod crosses the window as the injected clock moves past it.
TEST(PodAnalysisTest, RecheckTurnsIntoUnschedulableAsTimePasses) {
  const std::vector<Json> pods = {unschedulableFor("u", 30s)};  // since kNow - 30 s
  auto early = analyzePods(pods, kNow);
  auto late = analyzePods(pods, kNow + 31s);
  ASSERT_TRUE(early && late);
  EXPECT_EQ(early.value().unschedulable, 0);
  EXPECT_TRUE(early.value().needs_recheck);
  EXPECT_EQ(late.value().unschedulable, 1);
  EXPECT_FALSE(late.value().needs_recheck);
}

// Verifies KubeFed's quirk: a running pod counts as ready when it has a Ready condition, whatever
// that condition's status.
TEST(PodAnalysisTest, ReadyConditionStatusIsNotChecked) {
  const auto result = analyzed({pod("r", "Running", {condition("Ready", "False")}),
                                pod("s", "Running", {condition("Ready", "Unknown")}),
                                pod("t", "Running", {condition("PodScheduled", "True")})});
  EXPECT_EQ(result.running_and_ready, 2);
}

// Verifies that a Ready condition counts only for running pods, and that an Unschedulable
// condition counts only for pods that are not running.
TEST(PodAnalysisTest, PhaseDecidesWhichConditionsCount) {
  const auto result = analyzed({pod("pending-ready", "Pending", {condition("Ready", "True")}),
                                pod("running-unschedulable", "Running",
                                    {condition("PodScheduled", "False", "Unschedulable", 10min)}),
                                pod("failed-unschedulable", "Failed",
                                    {condition("PodScheduled", "False", "Unschedulable", 10min)})});
  EXPECT_EQ(result.running_and_ready, 0);
  EXPECT_EQ(result.unschedulable, 1);
  EXPECT_FALSE(result.needs_recheck);
}

// Verifies that only PodScheduled=False with reason Unschedulable marks a pod unschedulable.
TEST(PodAnalysisTest, OtherSchedulingConditionsDoNotCount) {
  const auto result =
      analyzed({pod("a", "Pending", {condition("PodScheduled", "True", "Unschedulable", 10min)}),
                pod("b", "Pending", {condition("PodScheduled", "False", "SchedulerError", 10min)}),
                pod("c", "Pending", {condition("Ready", "False", "Unschedulable", 10min)}),
                pod("d", "Pending", {condition("PodScheduled", "False", nullptr, 10min)})});
  EXPECT_EQ(result.unschedulable, 0);
  EXPECT_FALSE(result.needs_recheck);
}

// Verifies that a missing lastTransitionTime is Go's zero time: unschedulable for long.
TEST(PodAnalysisTest, MissingTransitionTimeCountsAsLongAgo) {
  Json no_time = pod("u", "Pending", {condition("PodScheduled", "False", "Unschedulable")});
  Json null_time = no_time;
  null_time["status"]["conditions"][0]["lastTransitionTime"] = nullptr;
  const auto result = analyzed({no_time, null_time});
  EXPECT_EQ(result.unschedulable, 2);
  EXPECT_FALSE(result.needs_recheck);
}

// Verifies that pods without status, phase or conditions are counted in the total only.
TEST(PodAnalysisTest, PodsWithoutStatusCountInTotalOnly) {
  const auto result = analyzed({Json{{"metadata", {{"name", "a"}}}}, Json{{"status", nullptr}},
                                Json{{"status", {{"phase", "Running"}}}},
                                Json{{"status", {{"conditions", nullptr}}}}});
  EXPECT_EQ(result.total, 4);
  EXPECT_EQ(result.running_and_ready, 0);
  EXPECT_EQ(result.unschedulable, 0);
}

// Verifies that an empty pod list is all zero and OK.
TEST(PodAnalysisTest, NoPods) {
  const auto result = analyzed({});
  EXPECT_EQ(result.total, 0);
  EXPECT_FALSE(result.needs_recheck);
}

// Verifies that malformed fields fail with the pod and the field named.
TEST(PodAnalysisTest, MalformedPodsFailWithThePodAndField) {
  Json bad_time = unschedulableFor("u", 90s);
  bad_time["status"]["conditions"][0]["lastTransitionTime"] = "yesterday";
  auto result = analyzePods({runningReady("ok"), bad_time}, kNow);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "pod \"ns/u\": status.conditions[0].lastTransitionTime: \"yesterday\" is not an RFC "
            "3339 time");

  Json bad_phase = runningReady("p");
  bad_phase["status"]["phase"] = 3;
  result = analyzePods({bad_phase}, kNow);
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("pod \"ns/p\": status.phase: "));

  Json bad_conditions = runningReady("c");
  bad_conditions["status"]["conditions"] = Json::object();
  result = analyzePods({bad_conditions}, kNow);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "pod \"ns/c\": status.conditions: expected array");

  result = analyzePods({Json::array()}, kNow);
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("expected object"));
}

}  // namespace
}  // namespace kf::scheduling
