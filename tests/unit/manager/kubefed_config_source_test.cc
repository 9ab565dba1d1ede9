// Where the controller manager's KubeFedConfig comes from, and that it is validated as KubeFed
// validates it: as stored, before any defaulting, so a partial one is fatal.

#include "cmd/controller-manager/kubefed_config_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/unit/manager/complete_kubefed_config.h"

namespace kf::manager {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Json configObject(const Json& spec) {
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedConfig"},
          {"metadata", {{"name", "kubefed"}, {"namespace", "kube-federation-system"}}},
          {"spec", spec}};
}

class KubeFedConfigSourceTest : public ::testing::Test {
 protected:
  // The controller manager reading the object `kubefed` from the API, which holds `spec`.
  Result<core::KubeFedConfig> fromApi(const Json& spec) {
    server_.respondNext(test::textResponse(200, configObject(spec).dump()));
    return obtainKubeFedConfig(*host_, Options{}, "kube-federation-system");
  }

  test::FakeClock clock_;
  test::FakeApiServer server_{clock_};
  std::shared_ptr<RestClient> host_ = server_.client(RetryPolicy{});
};

TEST_F(KubeFedConfigSourceTest, UsesACompleteConfigAsItIs) {
  auto config = fromApi(Json::parse(test::kCompleteKubeFedConfigSpec));
  ASSERT_TRUE(config) << config.error().message;
  ASSERT_TRUE(config.value().spec.feature_gates.has_value());
  // Not defaulted: the gates it does not list stay unlisted (their defaults apply).
  EXPECT_EQ(config.value().spec.feature_gates->size(), 1u);
}

TEST_F(KubeFedConfigSourceTest, APartialConfigIsFatalInKubeFedsWords) {
  auto config = fromApi({{"scope", "Cluster"}, {"controllerDuration", {{"availableDelay", "1s"}}}});
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().reason, Reason::kInvalid);
  const std::string& message = config.error().message;
  EXPECT_THAT(message, StartsWith("invalid KubeFedConfig \"kube-federation-system/kubefed\": ["
                                  "spec.controllerDuration.unavailableDelay: Required value "));
  EXPECT_THAT(message, HasSubstr(" spec.leaderElect: Required value"));
  EXPECT_THAT(message, HasSubstr(" spec.statusController: Required value]"));
}

TEST_F(KubeFedConfigSourceTest, ASingleErrorIsStillPrintedAsAList) {
  Json spec = Json::parse(test::kCompleteKubeFedConfigSpec);
  spec["leaderElect"].erase("resourceLock");
  auto config = fromApi(spec);
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().message,
            "invalid KubeFedConfig \"kube-federation-system/kubefed\": "
            "[spec.leaderElect.resourceLock: Required value]");
}

TEST_F(KubeFedConfigSourceTest, APartialConfigFileIsFatalToo) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("kubefed-config-source-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedConfig\n"
                         "metadata: {name: kubefed}\nspec: {scope: Namespaced}\n";
  Options options;
  options.kubefed_config = path.string();
  auto config = obtainKubeFedConfig(*host_, options, "kf");
  std::filesystem::remove(path);
  ASSERT_FALSE(config);
  EXPECT_THAT(config.error().message,
              StartsWith("invalid KubeFedConfig \"kf/kubefed\": [spec.controllerDuration: "
                         "Required value"));
  EXPECT_TRUE(server_.requests().empty());
}

}  // namespace
}  // namespace kf::manager
