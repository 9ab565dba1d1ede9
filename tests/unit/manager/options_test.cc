// The controller manager's command line and how it combines with the KubeFedConfig.

#include "cmd/controller-manager/options.h"

#include <gtest/gtest.h>

#include "apis/core/kubefed_config.h"
#include "cmd/controller-manager/kubefed_config_source.h"

namespace kf::manager {
namespace {

using std::chrono::seconds;

TEST(OptionsTest, DefaultsAreKubeFeds) {
  auto options = parseOptions({}, nullptr);
  ASSERT_TRUE(options) << options.error().message;
  EXPECT_EQ(options.value().healthz_addr, ":8080");
  EXPECT_EQ(options.value().metrics_addr, ":9090");
  // Not given: host_limits.h chooses them by the host API server.
  EXPECT_EQ(options.value().rest_config_qps, std::nullopt);
  EXPECT_EQ(options.value().rest_config_burst, std::nullopt);
  EXPECT_EQ(options.value().member_client_qps, 20.0);
  EXPECT_EQ(options.value().member_client_burst, 30);
  EXPECT_TRUE(options.value().leader_elect);
  EXPECT_EQ(options.value().sync_initial_backoff, seconds(5));
  EXPECT_EQ(options.value().sync_max_backoff, seconds(60));
  EXPECT_FALSE(options.value().wait_for_kubefed_config) << "KubeFed creates an absent config";
}

TEST(OptionsTest, WaitForKubefedConfigComesFromTheEnvironment) {
  EXPECT_TRUE(parseOptions({}, nullptr, "true").value().wait_for_kubefed_config);
  EXPECT_FALSE(parseOptions({}, nullptr, "false").value().wait_for_kubefed_config);
  EXPECT_FALSE(parseOptions({}, nullptr, "").value().wait_for_kubefed_config);
  auto bad = parseOptions({}, nullptr, "yes");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "invalid WAIT_FOR_KUBEFED_CONFIG \"yes\": must be true or false");
}

TEST(OptionsTest, ParsesEveryFlag) {
  auto options = parseOptions({"--kubefed-namespace",
                               "kf",
                               "--kubeconfig=/k",
                               "--rest-config-qps",
                               "50",
                               "--rest-config-burst=100",
                               "--feature-gates",
                               "PushReconciler=false",
                               "--leader-elect=false",
                               "--leader-elect-lease-duration",
                               "30s",
                               "-v",
                               "4",
                               "--sync-backoff-initial",
                               "1s",
                               "--sync-backoff-max",
                               "10s",
                               "--member-client-qps",
                               "1000",
                               "--member-client-burst=2000"},
                              "Namespaced");
  ASSERT_TRUE(options) << options.error().message;
  const Options& o = options.value();
  EXPECT_EQ(o.kubefed_namespace, "kf");
  EXPECT_EQ(o.kubeconfig, "/k");
  EXPECT_EQ(o.rest_config_qps, 50.0);
  EXPECT_EQ(o.rest_config_burst, 100);
  EXPECT_EQ(o.feature_gates, "PushReconciler=false");
  EXPECT_FALSE(o.leader_elect);
  EXPECT_EQ(o.leader_elect_lease_duration, seconds(30));
  EXPECT_EQ(o.leader_elect_renew_deadline, std::nullopt);
  EXPECT_EQ(o.verbosity, 4);
  EXPECT_EQ(o.sync_initial_backoff, seconds(1));
  EXPECT_EQ(o.sync_max_backoff, seconds(10));
  EXPECT_EQ(o.member_client_qps, 1000.0);
  EXPECT_EQ(o.member_client_burst, 2000);
  EXPECT_EQ(o.default_scope, "Namespaced");
}

TEST(OptionsTest, TheFlagsLineShowsTheHostLimitsOnlyWhenGiven) {
  const std::string unset = describeFlags(parseOptions({}, nullptr).value());
  EXPECT_NE(unset.find(" --rest-config-qps= --rest-config-burst= "), std::string::npos) << unset;
  const std::string given =
      describeFlags(parseOptions({"--rest-config-qps", "7"}, nullptr).value());
  EXPECT_NE(given.find(" --rest-config-qps=7 --rest-config-burst= "), std::string::npos) << given;
}

TEST(OptionsTest, BadValuesNameTheFlag) {
  struct Case {
    std::vector<std::string> args;
    const char* env;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{"--rest-config-burst", "ten"},
            nullptr,
            "invalid value \"ten\" for flag --rest-config-burst: expected an integer"},
           {{"--rest-config-qps="},
            nullptr,
            "invalid value \"\" for flag --rest-config-qps: expected a number"},
           {{"--leader-elect-retry-period", "-1s"}, nullptr, "--leader-elect-retry-period"},
           {{"--sync-backoff-initial", "10s", "--sync-backoff-max", "5s"},
            nullptr,
            "must not be shorter than --sync-backoff-initial"},
           {{"--member-client-qps", "0"},
            nullptr,
            "invalid value \"0\" for flag --member-client-qps: must be greater than 0"},
           {{"--member-client-burst", "0"}, nullptr, "--member-client-burst: must be at least 1"},
           {{"--member-client-qps", "fast"}, nullptr, "--member-client-qps: expected a number"},
           {{"--no-such-flag"}, nullptr, "no-such-flag"},
           {{"positional"}, nullptr, "unexpected argument \"positional\""},
           {{}, "Global", "invalid DEFAULT_KUBEFED_SCOPE \"Global\""},
       }) {
    auto options = parseOptions(c.args, c.env);
    ASSERT_FALSE(options) << c.message;
    EXPECT_NE(options.error().message.find(c.message), std::string::npos)
        << options.error().message;
  }
}

core::KubeFedConfig defaultedConfig(const std::string& scope) {
  core::KubeFedConfig config;
  config.spec.scope = scope;
  core::setKubeFedConfigDefaults(config);
  return config;
}

TEST(ControlPlaneConfigTest, TakesTheKubeFedConfigsValues) {
  core::KubeFedConfig config = defaultedConfig("Namespaced");
  config.spec.sync_controller->adopt_resources = "Disabled";
  config.spec.sync_controller->max_concurrent_reconciles = 4;
  FeatureGate gates = kubefedFeatureGates();
  auto plane = controlPlaneConfigFrom(config, parseOptions({}, nullptr).value(), "kf", gates);
  ASSERT_TRUE(plane) << plane.error().message;
  EXPECT_TRUE(plane.value().namespaced_scope);
  EXPECT_EQ(plane.value().target_namespace, "kf");
  EXPECT_TRUE(plane.value().skip_adopting_resources);
  EXPECT_EQ(plane.value().sync_max_concurrent_reconciles, 4);
  EXPECT_EQ(plane.value().cluster_available_delay, seconds(20));
  EXPECT_EQ(plane.value().health_period, seconds(10));
  EXPECT_EQ(plane.value().health_failure_threshold, 3);
  EXPECT_EQ(plane.value().lease_duration, seconds(15));
  EXPECT_EQ(plane.value().resource_lock, "configmaps");  // KubeFed's default lock
  EXPECT_TRUE(plane.value().push_reconciler);
  EXPECT_FALSE(plane.value().raw_resource_status_collection);
}

TEST(ControlPlaneConfigTest, TheKubeFedConfigChoosesTheLock) {
  core::KubeFedConfig config = defaultedConfig("Cluster");
  config.spec.leader_elect->resource_lock = "configmapsleases";
  FeatureGate gates = kubefedFeatureGates();
  auto plane = controlPlaneConfigFrom(config, parseOptions({}, nullptr).value(), "kf", gates);
  ASSERT_TRUE(plane) << plane.error().message;
  EXPECT_EQ(plane.value().resource_lock, "configmapsleases");
}

TEST(ControlPlaneConfigTest, FlagsWinOverTheKubeFedConfig) {
  core::KubeFedConfig config = defaultedConfig("Cluster");
  for (auto& gate : *config.spec.feature_gates) {
    if (gate.name == "RawResourceStatusCollection") gate.configuration = "Enabled";
    if (gate.name == "PushReconciler") gate.configuration = "Disabled";
  }
  auto options =
      parseOptions({"--feature-gates", "PushReconciler=true", "--leader-elect-lease-duration",
                    "40s", "--member-client-qps", "200", "--member-client-burst", "400"},
                   nullptr);
  ASSERT_TRUE(options);
  FeatureGate gates = kubefedFeatureGates();
  auto plane = controlPlaneConfigFrom(config, options.value(), "kf", gates);
  ASSERT_TRUE(plane) << plane.error().message;
  EXPECT_TRUE(plane.value().push_reconciler);                 // the flag
  EXPECT_TRUE(plane.value().raw_resource_status_collection);  // the KubeFedConfig
  EXPECT_EQ(plane.value().lease_duration, seconds(40));       // the flag
  EXPECT_EQ(plane.value().renew_deadline, seconds(10));       // the KubeFedConfig
  EXPECT_EQ(plane.value().target_namespace, "");
  EXPECT_EQ(plane.value().member_client_qps, 200.0);  // flags only
  EXPECT_EQ(plane.value().member_client_burst, 400);
}

TEST(ControlPlaneConfigTest, AnUnknownGateIsAnError) {
  core::KubeFedConfig config = defaultedConfig("Cluster");
  FeatureGate gates = kubefedFeatureGates();
  auto plane = controlPlaneConfigFrom(
      config, parseOptions({"--feature-gates", "NoSuchGate=true"}, nullptr).value(), "kf", gates);
  ASSERT_FALSE(plane);
  EXPECT_NE(plane.error().message.find("Invalid Feature Gate"), std::string::npos)
      << plane.error().message;
  EXPECT_NE(plane.error().message.find("NoSuchGate"), std::string::npos) << plane.error().message;
}

}  // namespace
}  // namespace kf::manager
