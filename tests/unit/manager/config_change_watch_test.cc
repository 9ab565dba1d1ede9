// Which KubeFedConfig changes stop the controller manager so that its restart applies them.

#include "cmd/controller-manager/config_change_watch.h"

#include <gtest/gtest.h>

#include "tests/unit/manager/complete_kubefed_config.h"

namespace kf::manager {
namespace {

Json stored(const Json& spec, const std::string& resource_version = "7") {
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedConfig"},
          {"metadata",
           {{"name", "kubefed"},
            {"namespace", "kube-federation-system"},
            {"resourceVersion", resource_version}}},
          {"spec", spec}};
}

core::KubeFedConfig running() {
  return core::KubeFedConfig::fromJson(stored(Json::parse(test::kCompleteKubeFedConfigSpec)))
      .value();
}

Json specWith(const Json& patch) {
  Json spec = Json::parse(test::kCompleteKubeFedConfigSpec);
  spec.merge_patch(patch);
  return spec;
}

TEST(ConfigChangeTest, TheSameSpecIsNoChangeWhateverTheMetadata) {
  Json object = stored(Json::parse(test::kCompleteKubeFedConfigSpec), "8");
  object["metadata"]["labels"] = {{"touched", "yes"}};
  EXPECT_FALSE(specChanged(running(), object));
}

TEST(ConfigChangeTest, AChangedFeatureGateOrSettingIsAChange) {
  EXPECT_TRUE(specChanged(
      running(),
      stored(specWith(
          {{"featureGates", {{{"name", "PushReconciler"}, {"configuration", "Disabled"}}}}}))));
  EXPECT_TRUE(specChanged(
      running(), stored(specWith({{"syncController", {{"maxConcurrentReconciles", 3}}}}))));
}

TEST(ConfigChangeTest, AnInvalidOrUnreadableSpecIsIgnored) {
  // renewDeadline above leaseDuration fails validation
  EXPECT_FALSE(
      specChanged(running(), stored(specWith({{"leaderElect", {{"renewDeadline", "20s"}}}}))));
  EXPECT_FALSE(
      specChanged(running(), stored(specWith({{"clusterHealthCheck", {{"period", "soon"}}}}))));
}

}  // namespace
}  // namespace kf::manager
