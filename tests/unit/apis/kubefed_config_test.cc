#include "apis/core/kubefed_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <ostream>

#include "apis/core/validation.h"

namespace kf::core {
namespace {

using namespace std::chrono_literals;
using meta::Duration;
using testing::HasSubstr;
using testing::IsEmpty;

KubeFedConfig scopeOnly(std::string scope = "Cluster") {
  KubeFedConfig config;
  config.header.metadata = {{"name", "kubefed"}, {"namespace", "kube-federation-system"}};
  config.spec.scope = std::move(scope);
  return config;
}

KubeFedConfig validConfig() {
  KubeFedConfig config = scopeOnly();
  setKubeFedConfigDefaults(config);
  return config;
}

TEST(KubeFedConfigDefaultsTest, FillsEveryDefault) {
  const KubeFedConfig config = validConfig();
  const Json expected = Json::parse(R"({
    "scope": "Cluster",
    "controllerDuration": {"availableDelay": "20s", "unavailableDelay": "1m0s"},
    "leaderElect": {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "5s",
                    "resourceLock": "configmaps"},
    "featureGates": [
      {"name": "PushReconciler", "configuration": "Enabled"},
      {"name": "RawResourceStatusCollection", "configuration": "Disabled"},
      {"name": "SchedulerPreferences", "configuration": "Enabled"}
    ],
    "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                           "timeout": "3s"},
    "syncController": {"maxConcurrentReconciles": 1, "adoptResources": "Enabled"},
    "statusController": {"maxConcurrentReconciles": 1}
  })");
  EXPECT_EQ(config.spec.toJson(), expected);
  EXPECT_EQ(config.spec.controller_duration->unavailable_delay->value(), 60s);
}

TEST(KubeFedConfigDefaultsTest, DefaultingIsIdempotent) {
  KubeFedConfig config = validConfig();
  const Json once = config.toJson();
  setKubeFedConfigDefaults(config);
  EXPECT_EQ(config.toJson(), once);
}

struct UserValueCase {
  std::string name;
  std::function<void(KubeFedConfig&)> set;
  std::function<void(const KubeFedConfig&)> check;
};

class KubeFedConfigUserValueTest : public testing::TestWithParam<UserValueCase> {};

TEST_P(KubeFedConfigUserValueTest, SurvivesDefaulting) {
  KubeFedConfig config = scopeOnly();
  GetParam().set(config);
  setKubeFedConfigDefaults(config);
  GetParam().check(config);
}

INSTANTIATE_TEST_SUITE_P(
    DefaultsTest, KubeFedConfigUserValueTest,
    testing::Values(
        UserValueCase{"AvailableDelay",
                      [](auto& c) {
                        c.spec.controller_duration = DurationConfig{Duration(33s), {}, {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.controller_duration->available_delay->value(), 33s);
                        EXPECT_EQ(c.spec.controller_duration->unavailable_delay->value(), 60s);
                      }},
        UserValueCase{"UnavailableDelay",
                      [](auto& c) {
                        c.spec.controller_duration = DurationConfig{{}, Duration(44s), {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.controller_duration->available_delay->value(), 20s);
                        EXPECT_EQ(c.spec.controller_duration->unavailable_delay->value(), 44s);
                      }},
        UserValueCase{"LeaderElect",
                      [](auto& c) {
                        c.spec.leader_elect = LeaderElectConfig{
                            Duration(30s), Duration(20s), Duration(3s), "endpoints", {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.leader_elect->lease_duration->value(), 30s);
                        EXPECT_EQ(c.spec.leader_elect->renew_deadline->value(), 20s);
                        EXPECT_EQ(c.spec.leader_elect->retry_period->value(), 3s);
                        EXPECT_EQ(c.spec.leader_elect->resource_lock, "endpoints");
                      }},
        UserValueCase{"PushReconcilerDisabled",
                      [](auto& c) {
                        c.spec.feature_gates =
                            std::vector<FeatureGateConfig>{{"PushReconciler", "Disabled", {}}};
                      },
                      [](const auto& c) {
                        ASSERT_EQ(c.spec.feature_gates->size(), 3u);
                        EXPECT_EQ((*c.spec.feature_gates)[0].name, "PushReconciler");
                        EXPECT_EQ((*c.spec.feature_gates)[0].configuration, "Disabled");
                      }},
        UserValueCase{"RawStatusEnabled",
                      [](auto& c) {
                        c.spec.feature_gates = std::vector<FeatureGateConfig>{
                            {"RawResourceStatusCollection", "Enabled", {}}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ((*c.spec.feature_gates)[1].name, "RawResourceStatusCollection");
                        EXPECT_EQ((*c.spec.feature_gates)[1].configuration, "Enabled");
                      }},
        UserValueCase{"SchedulerPreferencesDisabled",
                      [](auto& c) {
                        c.spec.feature_gates = std::vector<FeatureGateConfig>{
                            {"SchedulerPreferences", "Disabled", {}}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ((*c.spec.feature_gates)[2].name, "SchedulerPreferences");
                        EXPECT_EQ((*c.spec.feature_gates)[2].configuration, "Disabled");
                      }},
        UserValueCase{"HealthCheck",
                      [](auto& c) {
                        c.spec.cluster_health_check =
                            ClusterHealthCheckConfig{Duration(40s), 5, 2, Duration(7s), {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.cluster_health_check->period->value(), 40s);
                        EXPECT_EQ(c.spec.cluster_health_check->failure_threshold, 5);
                        EXPECT_EQ(c.spec.cluster_health_check->success_threshold, 2);
                        EXPECT_EQ(c.spec.cluster_health_check->timeout->value(), 7s);
                      }},
        UserValueCase{"SyncController",
                      [](auto& c) {
                        c.spec.sync_controller = SyncControllerConfig{7, "Disabled", {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.sync_controller->max_concurrent_reconciles, 7);
                        EXPECT_EQ(c.spec.sync_controller->adopt_resources, "Disabled");
                      }},
        UserValueCase{"AdoptResourcesOnly",
                      [](auto& c) {
                        c.spec.sync_controller = SyncControllerConfig{{}, "Disabled", {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.sync_controller->max_concurrent_reconciles, 1);
                        EXPECT_EQ(c.spec.sync_controller->adopt_resources, "Disabled");
                      }},
        UserValueCase{"StatusController",
                      [](auto& c) {
                        c.spec.status_controller = StatusControllerConfig{9, {}};
                      },
                      [](const auto& c) {
                        EXPECT_EQ(c.spec.status_controller->max_concurrent_reconciles, 9);
                      }}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(KubeFedConfigDefaultsTest, AppendsMissingGatesAndSortsByName) {
  KubeFedConfig config = scopeOnly();
  config.spec.feature_gates = std::vector<FeatureGateConfig>{
      {"SchedulerPreferences", "Disabled", {}}, {"Unknown", "Enabled", {}}};
  setKubeFedConfigDefaults(config);
  std::vector<std::string> names;
  for (const auto& gate : *config.spec.feature_gates)
    names.push_back(gate.name + "=" + gate.configuration);
  EXPECT_THAT(names,
              testing::ElementsAre("PushReconciler=Enabled", "RawResourceStatusCollection=Disabled",
                                   "SchedulerPreferences=Disabled", "Unknown=Enabled"));
}

TEST(KubeFedConfigTest, RoundTripKeepsTextAndUnknownFields) {
  const Json json = Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "KubeFedConfig",
    "metadata": {"name": "kubefed", "namespace": "kube-federation-system"},
    "future": [1],
    "spec": {
      "scope": "Namespaced",
      "x": {"y": 1},
      "controllerDuration": {"availableDelay": "1500ms", "unavailableDelay": "1m30s",
                             "clusterMonitorPeriod": "40s"},
      "leaderElect": {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "5s",
                      "resourceLock": "endpoints", "z": null},
      "featureGates": [{"name": "PushReconciler", "configuration": "Enabled", "note": "n"}],
      "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                             "timeout": "3s", "w": true},
      "syncController": {"adoptResources": "Enabled", "v": 1},
      "statusController": {"maxConcurrentReconciles": 2, "u": "u"}
    }
  })");
  auto config = KubeFedConfig::fromJson(json);
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config.value().spec.controller_duration->available_delay->value(), 1500ms);
  EXPECT_EQ(config.value().toJson(), json);
}

TEST(KubeFedConfigTest, AbsentAndEmptyGatesDiffer) {
  Json json = {{"spec", {{"scope", "Cluster"}}}};
  EXPECT_FALSE(KubeFedConfig::fromJson(json).value().spec.feature_gates.has_value());
  EXPECT_EQ(KubeFedConfig::fromJson(json).value().toJson(), json);
  json["spec"]["featureGates"] = Json::array();
  const auto config = KubeFedConfig::fromJson(json).value();
  ASSERT_TRUE(config.spec.feature_gates.has_value());
  EXPECT_TRUE(config.spec.feature_gates->empty());
  EXPECT_EQ(config.toJson(), json);
}

TEST(KubeFedConfigTest, BadDurationNamesThePath) {
  const Json json = {{"spec", {{"leaderElect", {{"retryPeriod", "5 seconds"}}}}}};
  EXPECT_EQ(KubeFedConfig::fromJson(json).error().message,
            "spec.leaderElect.retryPeriod: time: invalid duration \"5 seconds\"");
}

TEST(KubeFedConfigValidationTest, DefaultedConfigIsValid) {
  EXPECT_THAT(validateKubeFedConfig(validConfig(), nullptr), IsEmpty());
  const KubeFedConfig old = validConfig();
  EXPECT_THAT(validateKubeFedConfig(validConfig(), &old), IsEmpty());
}

// Verifies every lock type client-go knows is accepted: KubeFed's two and, beyond them, leases
// and the migration locks.
TEST(KubeFedConfigValidationTest, EveryClientGoLockTypeIsValid) {
  for (const char* lock :
       {"configmaps", "endpoints", "leases", "configmapsleases", "endpointsleases"}) {
    KubeFedConfig config = validConfig();
    config.spec.leader_elect->resource_lock = lock;
    EXPECT_THAT(validateKubeFedConfig(config, nullptr), IsEmpty()) << lock;
  }
}

TEST(KubeFedConfigValidationTest, ScopeIsImmutable) {
  const KubeFedConfig old = validConfig();
  KubeFedConfig updated = validConfig();
  updated.spec.scope = "Namespaced";
  const auto errors = validateKubeFedConfig(updated, &old);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message(), "spec.scope: Invalid value: \"Namespaced\": field is immutable");
}

struct ConfigCase {
  std::string name;
  std::function<void(KubeFedConfig&)> mutate;
  std::string first_error;
};

class KubeFedConfigValidationCaseTest : public testing::TestWithParam<ConfigCase> {};

TEST_P(KubeFedConfigValidationCaseTest, FirstErrorMatches) {
  KubeFedConfig config = validConfig();
  GetParam().mutate(config);
  const auto errors = validateKubeFedConfig(config, nullptr);
  ASSERT_FALSE(errors.empty());
  EXPECT_THAT(errors[0].message(), HasSubstr(GetParam().first_error));
}

auto& durations(KubeFedConfig& c) { return *c.spec.controller_duration; }
auto& elect(KubeFedConfig& c) { return *c.spec.leader_elect; }
auto& health(KubeFedConfig& c) { return *c.spec.cluster_health_check; }

INSTANTIATE_TEST_SUITE_P(
    Rules, KubeFedConfigValidationCaseTest,
    testing::Values(
        ConfigCase{"ScopeEnum", [](auto& c) { c.spec.scope = "NeitherClusterOrNamespaceScoped"; },
                   "spec.scope: Unsupported value: \"NeitherClusterOrNamespaceScoped\": "
                   "supported values: \"Cluster\", \"Namespaced\""},
        ConfigCase{"ScopeRequired", [](auto& c) { c.spec.scope = ""; },
                   "spec.scope: Required value"},
        ConfigCase{"ControllerDurationNil", [](auto& c) { c.spec.controller_duration.reset(); },
                   "spec.controllerDuration: Required value"},
        ConfigCase{"AvailableDelayNil", [](auto& c) { durations(c).available_delay.reset(); },
                   "spec.controllerDuration.availableDelay: Required value"},
        ConfigCase{"AvailableDelayZero",
                   [](auto& c) { durations(c).available_delay = Duration(0s); },
                   // KubeFed prints this duration as int64 nanoseconds.
                   "spec.controllerDuration.availableDelay: Invalid value: 0: should be greater "
                   "than 0"},
        ConfigCase{"UnavailableDelayNil", [](auto& c) { durations(c).unavailable_delay.reset(); },
                   "spec.controllerDuration.unavailableDelay: Required value"},
        ConfigCase{"UnavailableDelayNegative",
                   [](auto& c) { durations(c).unavailable_delay = Duration(-1s); },
                   "spec.controllerDuration.unavailableDelay: Invalid value: -1000000000: should "
                   "be greater than 0"},
        ConfigCase{"LeaderElectNil", [](auto& c) { c.spec.leader_elect.reset(); },
                   "spec.leaderElect: Required value"},
        ConfigCase{"LeaseDurationNil", [](auto& c) { elect(c).lease_duration.reset(); },
                   "spec.leaderElect.leaseDuration: Required value"},
        ConfigCase{"LeaseDurationZero", [](auto& c) { elect(c).lease_duration = Duration(0s); },
                   "spec.leaderElect.leaseDuration: Invalid value"},
        ConfigCase{"RenewDeadlineNil", [](auto& c) { elect(c).renew_deadline.reset(); },
                   "spec.leaderElect.renewDeadline: Required value"},
        ConfigCase{"RenewDeadlineZero", [](auto& c) { elect(c).renew_deadline = Duration(0s); },
                   "spec.leaderElect.renewDeadline: Invalid value"},
        ConfigCase{"LeaseNotGreaterThanRenew",
                   [](auto& c) {
                     elect(c).lease_duration = Duration(1ns);
                     elect(c).renew_deadline = Duration(2ns);
                     elect(c).retry_period = Duration(1ns);
                   },
                   "spec.leaderElect.leaseDuration: Invalid value: 1ns: leaseDuration must be "
                   "greater than renewDeadline"},
        ConfigCase{"LeaseEqualsRenew", [](auto& c) { elect(c).lease_duration = Duration(10s); },
                   "leaseDuration must be greater than renewDeadline"},
        ConfigCase{"RetryPeriodNil", [](auto& c) { elect(c).retry_period.reset(); },
                   "spec.leaderElect.retryPeriod: Required value"},
        ConfigCase{"RetryPeriodZero", [](auto& c) { elect(c).retry_period = Duration(0s); },
                   "spec.leaderElect.retryPeriod: Invalid value"},
        ConfigCase{"RenewWithinJitter",
                   [](auto& c) {
                     elect(c).renew_deadline = Duration(12ns);
                     elect(c).retry_period = Duration(10ns);
                   },
                   "spec.leaderElect.renewDeadline: Invalid value: 12ns: renewDeadline must be "
                   "greater than retryPeriod*JitterFactor(1.2)"},
        ConfigCase{"ResourceLockNil", [](auto& c) { elect(c).resource_lock.reset(); },
                   "spec.leaderElect.resourceLock: Required value"},
        ConfigCase{"ResourceLockEnum",
                   [](auto& c) { elect(c).resource_lock = "NeitherConfigmapsOrEndpoints"; },
                   "spec.leaderElect.resourceLock: Unsupported value: "
                   "\"NeitherConfigmapsOrEndpoints\": supported values: \"configmaps\", "
                   "\"endpoints\", \"leases\", \"configmapsleases\", \"endpointsleases\""},
        ConfigCase{"FeatureGatesNil", [](auto& c) { c.spec.feature_gates.reset(); },
                   "spec.featureGates: Required value"},
        ConfigCase{"FeatureGateName",
                   [](auto& c) { (*c.spec.feature_gates)[0].name = "BadFeatureName"; },
                   "spec.featureGates.name: Unsupported value: \"BadFeatureName\""},
        ConfigCase{"FeatureGateDuplicate",
                   [](auto& c) {
                     c.spec.feature_gates->push_back({"PushReconciler", "Enabled", {}});
                   },
                   "spec.featureGates.name: Duplicate value: \"PushReconciler\""},
        ConfigCase{
            "FeatureGateConfiguration",
            [](auto& c) { (*c.spec.feature_gates)[0].configuration = "NeitherEnableOrDisable"; },
            "spec.featureGates.configuration: Unsupported value"},
        ConfigCase{"HealthCheckNil", [](auto& c) { c.spec.cluster_health_check.reset(); },
                   "spec.clusterHealthCheck: Required value"},
        ConfigCase{"PeriodNil", [](auto& c) { health(c).period.reset(); },
                   "spec.clusterHealthCheck.period: Required value"},
        ConfigCase{"PeriodZero", [](auto& c) { health(c).period = Duration(0s); },
                   "spec.clusterHealthCheck.period: Invalid value"},
        ConfigCase{"FailureThresholdNil", [](auto& c) { health(c).failure_threshold.reset(); },
                   "spec.clusterHealthCheck.failureThreshold: Required value"},
        ConfigCase{"FailureThresholdZero", [](auto& c) { health(c).failure_threshold = 0; },
                   "spec.clusterHealthCheck.failureThreshold: Invalid value: 0: should be "
                   "greater than 0"},
        ConfigCase{"SuccessThresholdNil", [](auto& c) { health(c).success_threshold.reset(); },
                   "spec.clusterHealthCheck.successThreshold: Required value"},
        ConfigCase{"SuccessThresholdZero", [](auto& c) { health(c).success_threshold = 0; },
                   "spec.clusterHealthCheck.successThreshold: Invalid value"},
        ConfigCase{"TimeoutNil", [](auto& c) { health(c).timeout.reset(); },
                   "spec.clusterHealthCheck.timeout: Required value"},
        ConfigCase{"TimeoutZero", [](auto& c) { health(c).timeout = Duration(0s); },
                   "spec.clusterHealthCheck.timeout: Invalid value"},
        ConfigCase{"SyncControllerNil", [](auto& c) { c.spec.sync_controller.reset(); },
                   "spec.syncController: Required value"},
        ConfigCase{"AdoptResourcesNil",
                   [](auto& c) { c.spec.sync_controller->adopt_resources.reset(); },
                   "spec.syncController.adoptResources: Required value"},
        ConfigCase{
            "AdoptResourcesEnum",
            [](auto& c) { c.spec.sync_controller->adopt_resources = "NeitherEnableOrDisable"; },
            "spec.syncController.adoptResources: Unsupported value"},
        ConfigCase{"SyncConcurrencyNil",
                   [](auto& c) { c.spec.sync_controller->max_concurrent_reconciles.reset(); },
                   "spec.syncController.maxConcurrentReconciles: Required value"},
        ConfigCase{"SyncConcurrencyZero",
                   [](auto& c) { c.spec.sync_controller->max_concurrent_reconciles = 0; },
                   "spec.syncController.maxConcurrentReconciles: Invalid value: 0"},
        ConfigCase{"StatusControllerNil", [](auto& c) { c.spec.status_controller.reset(); },
                   "spec.statusController: Required value"},
        ConfigCase{"StatusConcurrencyNil",
                   [](auto& c) { c.spec.status_controller->max_concurrent_reconciles.reset(); },
                   "spec.statusController.maxConcurrentReconciles: Required value"},
        ConfigCase{"StatusConcurrencyNegative",
                   [](auto& c) { c.spec.status_controller->max_concurrent_reconciles = -2; },
                   "spec.statusController.maxConcurrentReconciles: Invalid value: -2"}),
    [](const auto& test_info) { return test_info.param.name; });

// QUIRK (§1.3): without adoptResources the concurrency is not checked at all.
TEST(KubeFedConfigValidationTest, MissingAdoptResourcesMasksConcurrency) {
  KubeFedConfig config = validConfig();
  config.spec.sync_controller = SyncControllerConfig{0, std::nullopt, {}};
  const auto errors = validateKubeFedConfig(config, nullptr);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message(), "spec.syncController.adoptResources: Required value");
}

TEST(KubeFedConfigValidationTest, JitterBoundaryIsExclusive) {
  KubeFedConfig config = validConfig();
  elect(config).renew_deadline = Duration(6s);
  elect(config).retry_period = Duration(5s);  // 5s * 1.2 == 6s: not strictly greater
  EXPECT_FALSE(validateKubeFedConfig(config, nullptr).empty());
  elect(config).renew_deadline = Duration(6001ms);
  EXPECT_THAT(validateKubeFedConfig(config, nullptr), IsEmpty());
}

}  // namespace
}  // namespace kf::core
