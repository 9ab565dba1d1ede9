// KubeFed's admission handlers through the review they answer: every validation rule of spec
// §1.1-1.3 on each type (one case per rule, with the message KubeFed sends), status requests,
// scope immutability, the KubeFedConfig defaulting patch, requests the handlers let through, and
// objects they cannot decode.

#include "federation/admission/kubefed_handlers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "federation/client/base64.h"
#include "tests/unit/admission/review_support.h"

namespace kf::admission {
namespace {

using test::respond;
using testing::HasSubstr;

// apimachinery's messages for names, as KubeFed's validation passes them on.
const std::string kSubdomain =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kLabel =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const std::string kNameRule = "name must be 'TARGET_PLURAL_NAME(.TARGET_GROUP_NAME)'";

Json validFederatedTypeConfig() {
  return Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "FederatedTypeConfig",
    "metadata": {"name": "deployments.apps", "namespace": "kube-federation-system"},
    "spec": {
      "targetType": {"group": "apps", "version": "v1", "kind": "Deployment",
                     "pluralName": "deployments", "scope": "Namespaced"},
      "propagation": "Enabled",
      "federatedType": {"group": "types.kubefed.io", "version": "v1beta1",
                        "kind": "FederatedDeployment", "pluralName": "federateddeployments",
                        "scope": "Namespaced"},
      "statusType": {"group": "types.kubefed.io", "version": "v1beta1",
                     "kind": "FederatedDeploymentStatus",
                     "pluralName": "federateddeploymentstatuses", "scope": "Namespaced"},
      "statusCollection": "Enabled"
    },
    "status": {"observedGeneration": 1, "propagationController": "Running",
               "statusController": "NotRunning"}
  })");
}

Json validKubeFedCluster() {
  return Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "KubeFedCluster",
    "metadata": {"name": "member1", "namespace": "kube-federation-system"},
    "spec": {"apiEndpoint": "https://127.0.0.1:6443", "caBundle": "Zm9v",
             "secretRef": {"name": "member1-token"},
             "disabledTLSValidations": ["SubjectName", "ValidityPeriod"],
             "proxyURL": "socks5://127.0.0.1:1080"},
    "status": {"conditions": [{"type": "Ready", "status": "True",
                               "lastProbeTime": "2021-06-29T00:00:00Z",
                               "lastTransitionTime": "2021-06-29T00:00:00Z",
                               "reason": "ClusterReady", "message": "/healthz responded with ok"}]}
  })");
}

Json defaultedSpec() {
  return Json::parse(R"({
    "scope": "Cluster",
    "controllerDuration": {"availableDelay": "20s", "unavailableDelay": "1m0s"},
    "leaderElect": {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "5s",
                    "resourceLock": "configmaps"},
    "featureGates": [{"name": "PushReconciler", "configuration": "Enabled"},
                     {"name": "RawResourceStatusCollection", "configuration": "Disabled"},
                     {"name": "SchedulerPreferences", "configuration": "Enabled"}],
    "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                           "timeout": "3s"},
    "syncController": {"maxConcurrentReconciles": 1, "adoptResources": "Enabled"},
    "statusController": {"maxConcurrentReconciles": 1}
  })");
}

Json kubeFedConfig(Json spec) {
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedConfig"},
          {"metadata", {{"name", "kubefed"}, {"namespace", "kube-federation-system"}}},
          {"spec", std::move(spec)}};
}

Json validKubeFedConfig() { return kubeFedConfig(defaultedSpec()); }

// One rule: a change that breaks it, and the whole message KubeFed denies the request with.
struct RuleCase {
  std::string name;
  std::function<void(Json&)> breakRule;
  std::string message;
  bool substring = false;  // the message only contains `message` (where KubeFed's is unknown)
};

std::string caseName(const testing::TestParamInfo<RuleCase>& info) { return info.param.name; }

void expectDenied(const Json& response, const RuleCase& rule) {
  EXPECT_FALSE(response.value("allowed", true)) << response.dump();
  const Json status = response.value("status", Json::object());
  EXPECT_EQ(status.value("code", 0), 403);
  EXPECT_EQ(status.value("status", ""), "Failure");
  EXPECT_EQ(status.value("reason", ""), "Forbidden");
  if (rule.substring) {
    EXPECT_THAT(status.value("message", ""), HasSubstr(rule.message));
  } else {
    EXPECT_EQ(status.value("message", ""), rule.message);
  }
}

// --- FederatedTypeConfig -------------------------------------------------------------------------

class FtcSpecRuleTest : public testing::TestWithParam<RuleCase> {};

// Verifies a CREATE breaking one rule of the name or spec is denied with KubeFed's message, and
// that the same request is allowed without the break.
TEST_P(FtcSpecRuleTest, CreateBreakingTheRuleIsDenied) {
  Json ftc = validFederatedTypeConfig();
  EXPECT_TRUE(respond(validateFederatedTypeConfigRequest,
                      test::requestFor("federatedtypeconfigs", "CREATE", ftc))
                  .value("allowed", false));
  GetParam().breakRule(ftc);
  expectDenied(respond(validateFederatedTypeConfigRequest,
                       test::requestFor("federatedtypeconfigs", "CREATE", ftc)),
               GetParam());
}

// Verifies UPDATE is checked like CREATE.
TEST_P(FtcSpecRuleTest, UpdateBreakingTheRuleIsDenied) {
  Json ftc = validFederatedTypeConfig();
  GetParam().breakRule(ftc);
  expectDenied(respond(validateFederatedTypeConfigRequest,
                       test::requestFor("federatedtypeconfigs", "UPDATE", ftc)),
               GetParam());
}

Json& target(Json& ftc) { return ftc["spec"]["targetType"]; }

INSTANTIATE_TEST_SUITE_P(
    Rules, FtcSpecRuleTest,
    testing::Values(
        RuleCase{"NameMustBePluralDotGroup", [](Json& f) { f["metadata"]["name"] = "deployments"; },
                 "name: Invalid value: \"deployments\": " + kNameRule},
        RuleCase{"TargetGroupMustBeASubdomain",
                 [](Json& f) {
                   target(f)["group"] = "Apps";
                   f["metadata"]["name"] = "deployments.Apps";
                 },
                 "spec.targetType.group: Invalid value: \"Apps\": " + kSubdomain},
        RuleCase{"TargetVersionIsRequired", [](Json& f) { target(f)["version"] = ""; },
                 "spec.targetType.version: Required value"},
        RuleCase{"TargetVersionMustBeALabel", [](Json& f) { target(f)["version"] = "V1"; },
                 "spec.targetType.version: Invalid value: \"V1\": " + kLabel},
        RuleCase{"TargetKindIsRequired", [](Json& f) { target(f).erase("kind"); },
                 "spec.targetType.kind: Required value"},
        RuleCase{"TargetKindLowerCasedMustBeALabel",
                 [](Json& f) { target(f)["kind"] = "Deploy.Ment"; },
                 "spec.targetType.kind: Invalid value: \"Deploy.Ment\": " + kLabel},
        RuleCase{"TargetPluralNameIsRequired", [](Json& f) { target(f)["pluralName"] = ""; },
                 // The name no longer matches the (empty) plural either.
                 "[name: Invalid value: \"deployments.apps\": " + kNameRule +
                     ", spec.targetType.pluralName: Required value]"},
        RuleCase{"TargetPluralNameMustBeALabel",
                 [](Json& f) {
                   target(f)["pluralName"] = "deploy_ments";
                   f["metadata"]["name"] = "deploy_ments.apps";
                 },
                 "spec.targetType.pluralName: Invalid value: \"deploy_ments\": " + kLabel},
        RuleCase{"TargetScopeIsRequired", [](Json& f) { target(f).erase("scope"); },
                 "spec.targetType.scope: Required value"},
        RuleCase{"TargetScopeIsClusterOrNamespaced", [](Json& f) { target(f)["scope"] = "Global"; },
                 "spec.targetType.scope: Unsupported value: \"Global\": supported values: "
                 "\"Cluster\", \"Namespaced\""},
        RuleCase{"PropagationIsRequired", [](Json& f) { f["spec"].erase("propagation"); },
                 "spec.propagation: Required value"},
        RuleCase{"PropagationIsEnabledOrDisabled", [](Json& f) { f["spec"]["propagation"] = "On"; },
                 "spec.propagation: Unsupported value: \"On\": supported values: \"Enabled\", "
                 "\"Disabled\""},
        RuleCase{"FederatedGroupIsRequired",
                 [](Json& f) { f["spec"]["federatedType"].erase("group"); },
                 "spec.federatedType.group: Required value"},
        RuleCase{"FederatedGroupNeedsADot",
                 [](Json& f) { f["spec"]["federatedType"]["group"] = "kubefed"; },
                 "spec.federatedType.group: Invalid value: \"kubefed\": should be a domain with "
                 "at least one dot"},
        RuleCase{"FederatedTypeFollowsTheResourceRules",
                 [](Json& f) { f["spec"]["federatedType"]["pluralName"] = ""; },
                 "spec.federatedType.pluralName: Required value"},
        RuleCase{"StatusGroupIsRequired", [](Json& f) { f["spec"]["statusType"]["group"] = ""; },
                 "spec.statusType.group: Required value"},
        RuleCase{"StatusTypeFollowsTheResourceRules",
                 [](Json& f) { f["spec"]["statusType"]["version"] = "Beta"; },
                 "spec.statusType.version: Invalid value: \"Beta\": " + kLabel},
        RuleCase{"StatusCollectionIsEnabledOrDisabled",
                 [](Json& f) { f["spec"]["statusCollection"] = "Yes"; },
                 "spec.statusCollection: Unsupported value: \"Yes\": supported values: "
                 "\"Enabled\", \"Disabled\""},
        RuleCase{"EveryBrokenRuleIsReported",
                 [](Json& f) {
                   f["spec"]["propagation"] = "";
                   f["spec"]["federatedType"]["group"] = "kubefed";
                 },
                 "[spec.propagation: Required value, spec.federatedType.group: Invalid value: "
                 "\"kubefed\": should be a domain with at least one dot]"}),
    caseName);

class FtcStatusRuleTest : public testing::TestWithParam<RuleCase> {};

// Verifies a status update breaking one rule of the status is denied with KubeFed's message.
TEST_P(FtcStatusRuleTest, StatusUpdateBreakingTheRuleIsDenied) {
  Json ftc = validFederatedTypeConfig();
  GetParam().breakRule(ftc);
  expectDenied(respond(validateFederatedTypeConfigRequest,
                       test::requestFor("federatedtypeconfigs", "UPDATE", ftc, "status")),
               GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Rules, FtcStatusRuleTest,
    testing::Values(
        RuleCase{"ObservedGenerationIsNotNegative",
                 [](Json& f) { f["status"]["observedGeneration"] = -1; },
                 "status.observedGeneration: Invalid value: -1: must be greater than or equal to "
                 "0"},
        RuleCase{"PropagationControllerIsRequired",
                 [](Json& f) { f["status"].erase("propagationController"); },
                 "status.propagationController: Required value"},
        RuleCase{"PropagationControllerIsRunningOrNotRunning",
                 [](Json& f) { f["status"]["propagationController"] = "Stopped"; },
                 "status.propagationController: Unsupported value: \"Stopped\": supported values: "
                 "\"Running\", \"NotRunning\""},
        RuleCase{"StatusControllerIsRunningOrNotRunning",
                 [](Json& f) { f["status"]["statusController"] = "Paused"; },
                 "status.statusController: Unsupported value: \"Paused\": supported values: "
                 "\"Running\", \"NotRunning\""}),
    caseName);

// Verifies a status request checks only the status: a broken spec passes, a broken status does
// not, and KubeFed takes any subresource of an FTC for its status.
TEST(FtcHandlerTest, AnySubresourceChecksOnlyTheStatus) {
  Json ftc = validFederatedTypeConfig();
  ftc["spec"]["propagation"] = "On";
  for (const char* sub : {"status", "scale"}) {
    EXPECT_TRUE(respond(validateFederatedTypeConfigRequest,
                        test::requestFor("federatedtypeconfigs", "UPDATE", ftc, sub))
                    .value("allowed", false))
        << sub;
  }
  ftc["status"]["propagationController"] = "";
  const Json denied = respond(validateFederatedTypeConfigRequest,
                              test::requestFor("federatedtypeconfigs", "UPDATE", ftc, "scale"));
  EXPECT_EQ(test::messageOf(denied), "status.propagationController: Required value");
}

// --- KubeFedCluster ------------------------------------------------------------------------------

class ClusterSpecRuleTest : public testing::TestWithParam<RuleCase> {};

// Verifies a CREATE or UPDATE breaking one rule of the spec is denied with KubeFed's message.
TEST_P(ClusterSpecRuleTest, CreateOrUpdateBreakingTheRuleIsDenied) {
  Json cluster = validKubeFedCluster();
  EXPECT_TRUE(
      respond(validateKubeFedClusterRequest, test::requestFor("kubefedclusters", "CREATE", cluster))
          .value("allowed", false));
  GetParam().breakRule(cluster);
  for (const char* operation : {"CREATE", "UPDATE"}) {
    expectDenied(respond(validateKubeFedClusterRequest,
                         test::requestFor("kubefedclusters", operation, cluster)),
                 GetParam());
  }
}

Json& clusterSpec(Json& cluster) { return cluster["spec"]; }

INSTANTIATE_TEST_SUITE_P(
    Rules, ClusterSpecRuleTest,
    testing::Values(
        RuleCase{"ApiEndpointIsRequired", [](Json& c) { clusterSpec(c).erase("apiEndpoint"); },
                 "spec.apiEndpoint: Required value"},
        RuleCase{"ApiEndpointSchemeIsHttpOrHttps",
                 [](Json& c) { clusterSpec(c)["apiEndpoint"] = "tcp://192.0.2.1:6443"; },
                 "spec.apiEndpoint: Unsupported value: \"tcp\": supported values: \"http\", "
                 "\"https\""},
        RuleCase{"ApiEndpointWithoutSchemeHasNoPath",
                 [](Json& c) { clusterSpec(c)["apiEndpoint"] = "example.com/path"; },
                 "spec.apiEndpoint: Invalid value: \"example.com/path\": host must be a URL or a "
                 "host:port pair: \"example.com/path\""},
        RuleCase{"ApiEndpointPortIsANumber",
                 [](Json& c) { clusterSpec(c)["apiEndpoint"] = "example.com:port"; },
                 "spec.apiEndpoint: Invalid value: \"example.com:port\": parse "
                 "\"https://example.com:port\": invalid port \":port\" after host"},
        RuleCase{"ApiEndpointPortIsInRange",
                 [](Json& c) { clusterSpec(c)["apiEndpoint"] = "https://example.com:65536"; },
                 "spec.apiEndpoint: Invalid value: 65536: must be between 1 and 65535, "
                 "inclusive"},
        RuleCase{"ApiEndpointHostIsWhatGoParses",
                 [](Json& c) { clusterSpec(c)["apiEndpoint"] = "exa mple.com:6443"; },
                 "spec.apiEndpoint: Invalid value: \"exa mple.com:6443\": parse "
                 "\"https://exa mple.com:6443\": invalid character \" \" in host name"},
        RuleCase{"SecretNameIsRequired", [](Json& c) { clusterSpec(c)["secretRef"].erase("name"); },
                 "spec.secretRef.name: Required value"},
        RuleCase{"SecretNameIsASubdomain",
                 [](Json& c) { clusterSpec(c)["secretRef"]["name"] = "Member_Token"; },
                 "spec.secretRef.name: Invalid value: \"Member_Token\": " + kSubdomain},
        RuleCase{"DisabledTlsValidationsAreKnown",
                 [](Json& c) { clusterSpec(c)["disabledTLSValidations"] = {"Everything"}; },
                 "spec.disabledTLSValidations: Unsupported value: \"Everything\": supported "
                 "values: \"*\", \"SubjectName\", \"ValidityPeriod\""},
        RuleCase{"StarIsTheOnlyDisabledTlsValidation",
                 [](Json& c) {
                   clusterSpec(c)["disabledTLSValidations"] = {"*", "SubjectName"};
                 },
                 "spec.disabledTLSValidations: Invalid value: []v1beta1.TLSValidation{\"*\", "
                 "\"SubjectName\"}: when * is specified, it is expected to be the only option in "
                 "list"},
        RuleCase{"ProxyUrlSchemeIsHttpHttpsOrSocks5",
                 [](Json& c) { clusterSpec(c)["proxyURL"] = "ftp://192.0.2.2:21"; },
                 "spec.proxyURL: Invalid value: \"ftp://192.0.2.2:21\": proxy URL scheme must be "
                 "one of: [http, https, socks5]"},
        // KubeFed's handler fails on it (the API server then denies without a reason).
        RuleCase{"ProxyUrlParses", [](Json& c) { clusterSpec(c)["proxyURL"] = "http://a b"; },
                 "spec.proxyURL: Invalid value: \"http://a b\": parse \"http://a b\": invalid "
                 "character \" \" in host name"}),
    caseName);

class ClusterStatusRuleTest : public testing::TestWithParam<RuleCase> {};

// Verifies a status update breaking one rule of a condition is denied with KubeFed's message.
TEST_P(ClusterStatusRuleTest, StatusUpdateBreakingTheRuleIsDenied) {
  Json cluster = validKubeFedCluster();
  GetParam().breakRule(cluster);
  expectDenied(respond(validateKubeFedClusterRequest,
                       test::requestFor("kubefedclusters", "UPDATE", cluster, "status")),
               GetParam());
}

Json& condition(Json& cluster) { return cluster["status"]["conditions"][0]; }

INSTANTIATE_TEST_SUITE_P(
    Rules, ClusterStatusRuleTest,
    testing::Values(
        RuleCase{"ConditionTypeIsRequired", [](Json& c) { condition(c).erase("type"); },
                 "status.conditions[0].type: Required value"},
        RuleCase{"ConditionTypeIsReadyOrOffline", [](Json& c) { condition(c)["type"] = "Healthy"; },
                 "status.conditions[0].type: Unsupported value: \"Healthy\": supported values: "
                 "\"Ready\", \"Offline\""},
        RuleCase{"ConditionStatusIsRequired", [](Json& c) { condition(c)["status"] = ""; },
                 "status.conditions[0].status: Required value"},
        RuleCase{"ConditionStatusIsTrueFalseOrUnknown",
                 [](Json& c) { condition(c)["status"] = "Yes"; },
                 "status.conditions[0].status: Unsupported value: \"Yes\": supported values: "
                 "\"True\", \"False\", \"Unknown\""},
        RuleCase{"LastProbeTimeIsRequired", [](Json& c) { condition(c).erase("lastProbeTime"); },
                 "status.conditions[0].lastProbeTime: Required value"}),
    caseName);

// Verifies only the subresource "status" means a status request for a KubeFedCluster.
TEST(ClusterHandlerTest, OnlyTheStatusSubresourceChecksTheStatus) {
  Json cluster = validKubeFedCluster();
  cluster["spec"]["apiEndpoint"] = "";
  EXPECT_TRUE(respond(validateKubeFedClusterRequest,
                      test::requestFor("kubefedclusters", "UPDATE", cluster, "status"))
                  .value("allowed", false));
  EXPECT_EQ(
      test::messageOf(respond(validateKubeFedClusterRequest,
                              test::requestFor("kubefedclusters", "UPDATE", cluster, "other"))),
      "spec.apiEndpoint: Required value");
}

// Verifies KubeFed's rule for the endpoint's host: none. A host Go's URL parser takes is allowed
// on CREATE and on UPDATE (a relabelled cluster joined under KubeFed goes through here too).
TEST(ClusterHandlerTest, AnyHostGoParsesIsAllowed) {
  for (const char* endpoint :
       {"https://964C03D0934F8B3D97FBC6982BD906F4.gr7.us-west-2.eks.amazonaws.com",
        "https://LOCALHOST:6443", "https://Example_Host:6443", "https://example.com.:6443",
        "https://user@example.com:6443"}) {
    Json cluster = validKubeFedCluster();
    cluster["spec"]["apiEndpoint"] = endpoint;
    for (const char* operation : {"CREATE", "UPDATE"}) {
      const Json response = respond(validateKubeFedClusterRequest,
                                    test::requestFor("kubefedclusters", operation, cluster));
      EXPECT_TRUE(response.value("allowed", false)) << endpoint << ": " << response.dump();
    }
  }
}

// --- KubeFedConfig -------------------------------------------------------------------------------

class ConfigRuleTest : public testing::TestWithParam<RuleCase> {};

// Verifies a CREATE breaking one rule is denied with KubeFed's message.
TEST_P(ConfigRuleTest, CreateBreakingTheRuleIsDenied) {
  Json config = validKubeFedConfig();
  EXPECT_TRUE(
      respond(validateKubeFedConfigRequest, test::requestFor("kubefedconfigs", "CREATE", config))
          .value("allowed", false));
  GetParam().breakRule(config);
  expectDenied(
      respond(validateKubeFedConfigRequest, test::requestFor("kubefedconfigs", "CREATE", config)),
      GetParam());
}

Json& spec(Json& config) { return config["spec"]; }
Json& elect(Json& config) { return config["spec"]["leaderElect"]; }
Json& health(Json& config) { return config["spec"]["clusterHealthCheck"]; }

INSTANTIATE_TEST_SUITE_P(
    Rules, ConfigRuleTest,
    testing::Values(
        RuleCase{"ScopeIsRequired", [](Json& c) { spec(c)["scope"] = ""; },
                 "spec.scope: Required value"},
        RuleCase{"ScopeIsClusterOrNamespaced", [](Json& c) { spec(c)["scope"] = "Global"; },
                 "spec.scope: Unsupported value: \"Global\": supported values: \"Cluster\", "
                 "\"Namespaced\""},
        RuleCase{"ControllerDurationIsRequired",
                 [](Json& c) { spec(c).erase("controllerDuration"); },
                 "spec.controllerDuration: Required value"},
        RuleCase{"AvailableDelayIsRequired",
                 [](Json& c) { spec(c)["controllerDuration"].erase("availableDelay"); },
                 "spec.controllerDuration.availableDelay: Required value"},
        RuleCase{"AvailableDelayIsPositive",
                 [](Json& c) { spec(c)["controllerDuration"]["availableDelay"] = "0s"; },
                 "spec.controllerDuration.availableDelay: Invalid value: 0: should be greater "
                 "than 0"},
        RuleCase{"UnavailableDelayIsPositive",
                 [](Json& c) { spec(c)["controllerDuration"]["unavailableDelay"] = "-1s"; },
                 // KubeFed prints the duration in nanoseconds here.
                 "spec.controllerDuration.unavailableDelay: Invalid value: -1000000000: should be "
                 "greater than 0"},
        RuleCase{"LeaderElectIsRequired", [](Json& c) { spec(c).erase("leaderElect"); },
                 "spec.leaderElect: Required value"},
        RuleCase{"LeaseDurationIsRequired", [](Json& c) { elect(c).erase("leaseDuration"); },
                 "spec.leaderElect.leaseDuration: Required value"},
        RuleCase{"LeaseDurationIsPositive", [](Json& c) { elect(c)["leaseDuration"] = "0s"; },
                 "[spec.leaderElect.leaseDuration: Invalid value: 0: should be greater than 0, "
                 "spec.leaderElect.leaseDuration: Invalid value: 0s: leaseDuration must be "
                 "greater than renewDeadline]"},
        RuleCase{"RenewDeadlineIsRequired", [](Json& c) { elect(c).erase("renewDeadline"); },
                 "spec.leaderElect.renewDeadline: Required value"},
        RuleCase{"RetryPeriodIsRequired", [](Json& c) { elect(c).erase("retryPeriod"); },
                 "spec.leaderElect.retryPeriod: Required value"},
        RuleCase{"LeaseDurationExceedsRenewDeadline",
                 [](Json& c) { elect(c)["leaseDuration"] = "10s"; },
                 "spec.leaderElect.leaseDuration: Invalid value: 10s: leaseDuration must be "
                 "greater than renewDeadline"},
        RuleCase{"RenewDeadlineExceedsJitteredRetryPeriod",
                 [](Json& c) { elect(c)["renewDeadline"] = "6s"; },
                 "spec.leaderElect.renewDeadline: Invalid value: 6s: renewDeadline must be "
                 "greater than retryPeriod*JitterFactor(1.2)"},
        RuleCase{"ResourceLockIsRequired", [](Json& c) { elect(c).erase("resourceLock"); },
                 "spec.leaderElect.resourceLock: Required value"},
        RuleCase{"ResourceLockIsKnown", [](Json& c) { elect(c)["resourceLock"] = "secrets"; },
                 "spec.leaderElect.resourceLock: Unsupported value: \"secrets\": supported "
                 "values: \"configmaps\", \"endpoints\", \"leases\", \"configmapsleases\", "
                 "\"endpointsleases\""},
        RuleCase{"FeatureGatesAreRequired", [](Json& c) { spec(c).erase("featureGates"); },
                 "spec.featureGates: Required value"},
        RuleCase{"FeatureGateNamesAreUnique",
                 [](Json& c) {
                   spec(c)["featureGates"].push_back(
                       {{"name", "PushReconciler"}, {"configuration", "Disabled"}});
                 },
                 "spec.featureGates.name: Duplicate value: \"PushReconciler\""},
        // KubeFed v0.8.1's order of the supported names is not known here: only the start.
        RuleCase{
            "FeatureGateNamesAreKnown",
            [](Json& c) { spec(c)["featureGates"][0]["name"] = "Teleport"; },
            "spec.featureGates.name: Unsupported value: \"Teleport\": supported values: ", true},
        RuleCase{"FeatureGateConfigurationIsEnabledOrDisabled",
                 [](Json& c) { spec(c)["featureGates"][0]["configuration"] = "On"; },
                 "spec.featureGates.configuration: Unsupported value: \"On\": supported values: "
                 "\"Enabled\", \"Disabled\""},
        RuleCase{"ClusterHealthCheckIsRequired",
                 [](Json& c) { spec(c).erase("clusterHealthCheck"); },
                 "spec.clusterHealthCheck: Required value"},
        RuleCase{"HealthCheckPeriodIsPositive", [](Json& c) { health(c)["period"] = "0s"; },
                 "spec.clusterHealthCheck.period: Invalid value: 0: should be greater than 0"},
        RuleCase{"HealthCheckTimeoutIsRequired", [](Json& c) { health(c).erase("timeout"); },
                 "spec.clusterHealthCheck.timeout: Required value"},
        RuleCase{"FailureThresholdIsPositive", [](Json& c) { health(c)["failureThreshold"] = 0; },
                 "spec.clusterHealthCheck.failureThreshold: Invalid value: 0: should be greater "
                 "than 0"},
        RuleCase{"SuccessThresholdIsRequired", [](Json& c) { health(c).erase("successThreshold"); },
                 "spec.clusterHealthCheck.successThreshold: Required value"},
        RuleCase{"SyncControllerIsRequired", [](Json& c) { spec(c).erase("syncController"); },
                 "spec.syncController: Required value"},
        RuleCase{"AdoptResourcesIsRequired",
                 [](Json& c) { spec(c)["syncController"].erase("adoptResources"); },
                 "spec.syncController.adoptResources: Required value"},
        RuleCase{"AdoptResourcesIsEnabledOrDisabled",
                 [](Json& c) { spec(c)["syncController"]["adoptResources"] = "Always"; },
                 "spec.syncController.adoptResources: Unsupported value: \"Always\": supported "
                 "values: \"Enabled\", \"Disabled\""},
        RuleCase{"SyncConcurrencyIsPositive",
                 [](Json& c) { spec(c)["syncController"]["maxConcurrentReconciles"] = 0; },
                 "spec.syncController.maxConcurrentReconciles: Invalid value: 0: should be "
                 "greater than 0"},
        // QUIRK (spec §1.3): without adoptResources the concurrency is not checked.
        RuleCase{"MissingAdoptResourcesHidesABadSyncConcurrency",
                 [](Json& c) {
                   spec(c)["syncController"] = {{"maxConcurrentReconciles", 0}};
                 },
                 "spec.syncController.adoptResources: Required value"},
        RuleCase{"StatusControllerIsRequired", [](Json& c) { spec(c).erase("statusController"); },
                 "spec.statusController: Required value"},
        RuleCase{"StatusConcurrencyIsPositive",
                 [](Json& c) { spec(c)["statusController"]["maxConcurrentReconciles"] = -2; },
                 "spec.statusController.maxConcurrentReconciles: Invalid value: -2: should be "
                 "greater than 0"}),
    caseName);

Json updateOf(const Json& config, const Json& old_config) {
  Json request = test::requestFor("kubefedconfigs", "UPDATE", config);
  request["oldObject"] = old_config;
  return request;
}

// Verifies the scope cannot change on UPDATE, while other changes pass, and that the old object
// is only consulted on UPDATE.
TEST(ConfigHandlerTest, ScopeIsImmutableOnUpdate) {
  const Json old_config = validKubeFedConfig();
  Json namespaced = validKubeFedConfig();
  namespaced["spec"]["scope"] = "Namespaced";
  const Json denied = respond(validateKubeFedConfigRequest, updateOf(namespaced, old_config));
  expectDenied(denied,
               {"", nullptr, "spec.scope: Invalid value: \"Namespaced\": field is immutable"});

  Json retuned = validKubeFedConfig();
  retuned["spec"]["leaderElect"]["leaseDuration"] = "30s";
  EXPECT_TRUE(
      respond(validateKubeFedConfigRequest, updateOf(retuned, old_config)).value("allowed", false));
  EXPECT_TRUE(respond(validateKubeFedConfigRequest,
                      test::requestFor("kubefedconfigs", "CREATE", namespaced))
                  .value("allowed", false));
}

// Verifies an UPDATE whose old object cannot be decoded is a bad request.
TEST(ConfigHandlerTest, UndecodableOldObjectIsABadRequest) {
  Json request = test::requestFor("kubefedconfigs", "UPDATE", validKubeFedConfig());
  request["oldObject"] = {{"spec", {{"scope", 7}}}};
  const Json response = respond(validateKubeFedConfigRequest, request);
  EXPECT_FALSE(response.value("allowed", true));
  EXPECT_EQ(response["status"].value("code", 0), 400);
  EXPECT_THAT(test::messageOf(response), HasSubstr("request.oldObject: spec.scope"));
  request.erase("oldObject");
  EXPECT_EQ(respond(validateKubeFedConfigRequest, request)["status"].value("code", 0), 400);
}

// --- KubeFedConfig defaulting --------------------------------------------------------------------

// The JSON patch of a response, decoded from its base64.
Json patchOf(const Json& response) {
  EXPECT_EQ(response.value("patchType", ""), "JSONPatch");
  const auto decoded = base64Decode(response.value("patch", ""));
  EXPECT_TRUE(decoded.has_value());
  return decoded ? Json::parse(*decoded, nullptr, false) : Json();
}

// Verifies a partial config is allowed with one operation replacing /spec with every default.
TEST(DefaulterTest, PartialConfigGetsTheWholeDefaultedSpec) {
  const Json response =
      respond(defaultKubeFedConfigRequest,
              test::requestFor("kubefedconfigs", "CREATE", kubeFedConfig({{"scope", "Cluster"}})));
  EXPECT_TRUE(response.value("allowed", false));
  EXPECT_EQ(patchOf(response),
            Json::array({{{"op", "replace"}, {"path", "/spec"}, {"value", defaultedSpec()}}}));
}

// Verifies values the user set survive defaulting, and the gate list comes back sorted with
// the missing gates added.
TEST(DefaulterTest, UserValuesSurviveAndGatesAreCompletedAndSorted) {
  const Json spec = {
      {"scope", "Namespaced"},
      {"leaderElect", {{"leaseDuration", "30s"}, {"resourceLock", "endpoints"}}},
      {"featureGates", {{{"name", "SchedulerPreferences"}, {"configuration", "Disabled"}}}},
      {"syncController", {{"adoptResources", "Disabled"}}}};
  const Json response = respond(defaultKubeFedConfigRequest,
                                test::requestFor("kubefedconfigs", "CREATE", kubeFedConfig(spec)));
  Json expected = defaultedSpec();
  expected["scope"] = "Namespaced";
  expected["leaderElect"]["leaseDuration"] = "30s";
  expected["leaderElect"]["resourceLock"] = "endpoints";
  expected["featureGates"][2]["configuration"] = "Disabled";
  expected["syncController"]["adoptResources"] = "Disabled";
  const Json patch = patchOf(response);
  ASSERT_EQ(patch.size(), 1u) << patch.dump();
  EXPECT_EQ(patch[0]["value"], expected);
}

// Verifies a config defaulting does not change is allowed without a patch, and that a change
// of order alone (unsorted gates) is a change.
TEST(DefaulterTest, CompleteConfigIsAllowedWithoutAPatch) {
  const Json plain = respond(defaultKubeFedConfigRequest,
                             test::requestFor("kubefedconfigs", "CREATE", validKubeFedConfig()));
  EXPECT_TRUE(plain.value("allowed", false));
  EXPECT_FALSE(plain.contains("patch")) << plain.dump();
  EXPECT_FALSE(plain.contains("patchType"));

  Json unsorted = validKubeFedConfig();
  std::swap(unsorted["spec"]["featureGates"][0], unsorted["spec"]["featureGates"][2]);
  const Json sorted =
      respond(defaultKubeFedConfigRequest, test::requestFor("kubefedconfigs", "UPDATE", unsorted));
  EXPECT_EQ(patchOf(sorted)[0]["value"], defaultedSpec());
}

// Verifies that once defaulting adds anything, every duration of the spec is written back as Go's
// Duration.String() writes it, as KubeFed's re-marshalled spec has them; a config defaulting does
// not change keeps the user's text.
TEST(DefaulterTest, AChangedSpecHasEveryDurationInGoForm) {
  Json spec = defaultedSpec();
  spec["controllerDuration"] = {{"availableDelay", "1500ms"}, {"unavailableDelay", "60s"}};
  spec["leaderElect"]["leaseDuration"] = "3600s";
  spec["leaderElect"]["renewDeadline"] = "0.5m";
  spec["leaderElect"]["retryPeriod"] = "2000000us";
  spec["clusterHealthCheck"]["period"] = "90m";
  spec["clusterHealthCheck"]["timeout"] = "1h1s";
  const Json unchanged = respond(defaultKubeFedConfigRequest,
                                 test::requestFor("kubefedconfigs", "CREATE", kubeFedConfig(spec)));
  EXPECT_TRUE(unchanged.value("allowed", false));
  EXPECT_FALSE(unchanged.contains("patch")) << unchanged.dump();

  spec["statusController"].erase("maxConcurrentReconciles");
  const Json response = respond(defaultKubeFedConfigRequest,
                                test::requestFor("kubefedconfigs", "CREATE", kubeFedConfig(spec)));
  Json expected = defaultedSpec();
  expected["controllerDuration"] = {{"availableDelay", "1.5s"}, {"unavailableDelay", "1m0s"}};
  expected["leaderElect"]["leaseDuration"] = "1h0m0s";
  expected["leaderElect"]["renewDeadline"] = "30s";
  expected["leaderElect"]["retryPeriod"] = "2s";
  expected["clusterHealthCheck"]["period"] = "1h30m0s";
  expected["clusterHealthCheck"]["timeout"] = "1h0m1s";
  const Json patch = patchOf(response);
  ASSERT_EQ(patch.size(), 1u) << patch.dump();
  EXPECT_EQ(patch[0]["value"], expected);
}

// --- What every handler lets through, and what none can decode -----------------------------------

struct HandlerCase {
  std::string name;
  AdmissionHandler handler;
  std::string resource;
};

std::string handlerName(const testing::TestParamInfo<HandlerCase>& param) {
  return param.param.name;
}

class EveryHandlerTest : public testing::TestWithParam<HandlerCase> {};

// Verifies DELETE and CONNECT, other resources and other groups are allowed without looking at
// the object (which here could not be decoded).
TEST_P(EveryHandlerTest, AllowsWhatItDoesNotCheck) {
  const Json garbage = {{"spec", 5}, {"status", "x"}};
  std::vector<Json> requests;
  for (const char* operation : {"DELETE", "CONNECT"}) {
    requests.push_back(test::requestFor(GetParam().resource, operation, garbage));
  }
  Json other_resource = test::requestFor("configmaps", "CREATE", garbage);
  requests.push_back(other_resource);
  Json other_group = test::requestFor(GetParam().resource, "CREATE", garbage);
  other_group["resource"]["group"] = "core.kubefed.example";
  requests.push_back(other_group);
  for (const Json& request : requests) {
    const Json response = respond(GetParam().handler, request);
    EXPECT_TRUE(response.value("allowed", false)) << request.dump();
    EXPECT_EQ(response["status"].value("code", 0), 200);
    EXPECT_FALSE(response.contains("patch"));
  }
}

// Verifies an object that does not decode is denied with 400 BadRequest naming the bad field, as
// is a CREATE without an object.
TEST_P(EveryHandlerTest, UndecodableObjectIsABadRequest) {
  const Json response = respond(
      GetParam().handler, test::requestFor(GetParam().resource, "CREATE", {{"spec", "text"}}));
  EXPECT_FALSE(response.value("allowed", true));
  const Json status = response.value("status", Json::object());
  EXPECT_EQ(status.value("code", 0), 400);
  EXPECT_EQ(status.value("status", ""), "Failure");
  EXPECT_EQ(status.value("reason", ""), "BadRequest");
  EXPECT_THAT(status.value("message", ""), HasSubstr("request.object: spec: expected object"));

  Json no_object = test::requestFor(GetParam().resource, "CREATE", Json());
  no_object.erase("object");
  EXPECT_EQ(respond(GetParam().handler, no_object)["status"].value("code", 0), 400);
}

INSTANTIATE_TEST_SUITE_P(
    Handlers, EveryHandlerTest,
    testing::Values(
        HandlerCase{"FederatedTypeConfigs", validateFederatedTypeConfigRequest,
                    "federatedtypeconfigs"},
        HandlerCase{"KubeFedClusters", validateKubeFedClusterRequest, "kubefedclusters"},
        HandlerCase{"KubeFedConfigs", validateKubeFedConfigRequest, "kubefedconfigs"},
        HandlerCase{"KubeFedConfigDefaults", defaultKubeFedConfigRequest, "kubefedconfigs"}),
    handlerName);

}  // namespace
}  // namespace kf::admission
