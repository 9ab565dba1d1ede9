// `kubefedctl plan` of members under a drift policy or server-side apply: the drifted fields and
// the fields other managers own, in the text and JSON reports.

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/plan_report.h"

namespace kf::kubefedctl {
namespace {

ObjectPlan driftedPlan() {
  sync::MemberForecast drifted;
  drifted.cluster = "member1";
  drifted.status = sync::PropagationStatus::kDrifted;
  drifted.reason = "drifted";
  drifted.drift = {{"/data/key", Json("wanted"), Json("edited"), "kubectl-edit"}};
  sync::MemberForecast scaled;
  scaled.cluster = "member2";
  scaled.status = sync::PropagationStatus::kOk;
  scaled.server_side = true;
  scaled.yielded = {{"/spec/replicas", "kube-controller-manager"}};
  ObjectPlan plan;
  plan.kind = "FederatedConfigMap";
  plan.name = QualifiedName{"shop", "web"};
  plan.target_kind = "ConfigMap";
  plan.forecast.clusters = {drifted, scaled};
  return plan;
}

// Verifies that the text names each drifted field with both values and its manager, and each
// field another manager owns.
TEST(PlanDriftReportTest, TextShowsDriftedAndYieldedFields) {
  std::ostringstream out;
  printPlanText({driftedPlan()}, out);
  EXPECT_NE(out.str().find("  member1: none (drifted) -> status Drifted\n"
                           "    Cluster \"member1\" drifted from the federated object: /data/key "
                           "is \"edited\" (desired \"wanted\", changed by \"kubectl-edit\")\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("    Cluster \"member2\": /spec/replicas is owned by "
                           "\"kube-controller-manager\"; the controller does not send it there\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("No changes."), std::string::npos);
}

// Verifies the JSON fields, present only when there is something to say.
TEST(PlanDriftReportTest, JsonHasDriftAndFieldsOwnedElsewhere) {
  const Json json = planJson({driftedPlan()});
  const Json& clusters = json["items"][0]["clusters"];
  EXPECT_EQ(clusters[0]["status"], "Drifted");
  EXPECT_EQ(clusters[0]["drift"], Json::parse(R"([{"path": "/data/key", "desired": "wanted",
                                                   "live": "edited", "manager": "kubectl-edit"}])"));
  EXPECT_FALSE(clusters[0].contains("serverSideApply"));
  EXPECT_FALSE(clusters[0].contains("fieldsOwnedElsewhere"));
  EXPECT_EQ(clusters[1]["serverSideApply"], true);
  EXPECT_EQ(clusters[1]["fieldsOwnedElsewhere"],
            Json::parse(R"([{"path": "/spec/replicas", "manager": "kube-controller-manager"}])"));
  EXPECT_FALSE(clusters[1].contains("drift"));
}

}  // namespace
}  // namespace kf::kubefedctl
