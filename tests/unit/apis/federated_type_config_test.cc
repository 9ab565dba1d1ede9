#include "apis/core/federated_type_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "apis/core/validation.h"

namespace kf::core {
namespace {

using testing::HasSubstr;

Json deploymentsFtcJson() {
  return Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1",
    "kind": "FederatedTypeConfig",
    "metadata": {"name": "deployments.apps", "namespace": "kube-federation-system",
                 "annotations": {"a": "b"}},
    "spec": {
      "targetType": {"group": "apps", "version": "v1", "kind": "Deployment",
                     "pluralName": "deployments", "scope": "Namespaced"},
      "propagation": "Enabled",
      "federatedType": {"group": "types.kubefed.io", "version": "v1beta1",
                        "kind": "FederatedDeployment", "pluralName": "federateddeployments",
                        "scope": "Namespaced"},
      "statusType": {"group": "types.kubefed.io", "version": "v1beta1",
                     "kind": "FederatedDeploymentStatus",
                     "pluralName": "federateddeploymentstatus", "scope": "Namespaced"},
      "statusCollection": "Enabled"
    },
    "status": {"observedGeneration": 1, "propagationController": "Running",
               "statusController": "NotRunning"}
  })");
}

FederatedTypeConfig validFtc() {
  return FederatedTypeConfig::fromJson(deploymentsFtcJson()).value();
}

TEST(FederatedTypeConfigTest, ReadsFields) {
  const auto ftc = validFtc();
  EXPECT_EQ(ftc.name(), "deployments.apps");
  EXPECT_EQ(ftc.spec.target_type.group, "apps");
  EXPECT_EQ(ftc.spec.target_type.apiVersion(), "apps/v1");
  EXPECT_TRUE(ftc.spec.target_type.namespaced());
  EXPECT_EQ(ftc.spec.federated_type.plural_name, "federateddeployments");
  ASSERT_TRUE(ftc.spec.status_type.has_value());
  EXPECT_EQ(ftc.spec.status_collection, "Enabled");
  ASSERT_TRUE(ftc.status.has_value());
  EXPECT_EQ(ftc.status->observed_generation, 1);
  EXPECT_EQ(ftc.status->status_controller, "NotRunning");
}

TEST(FederatedTypeConfigTest, RoundTripKeepsUnknownFieldsAtEveryLevel) {
  Json json = deploymentsFtcJson();
  json["extraTop"] = {{"x", 1}};
  json["spec"]["extraSpec"] = true;
  json["spec"]["targetType"]["extraTarget"] = "t";
  json["spec"]["federatedType"]["extraFed"] = Json::array({1, 2});
  json["spec"]["statusType"]["extraStatusType"] = nullptr;
  json["status"]["extraStatus"] = "s";
  json["metadata"]["labels"] = {{"k", "v"}};
  auto ftc = FederatedTypeConfig::fromJson(json);
  ASSERT_TRUE(ftc) << ftc.error().message;
  EXPECT_EQ(ftc.value().toJson(), json);
}

TEST(FederatedTypeConfigTest, RoundTripKeepsOptionalFieldsAbsent) {
  Json json = deploymentsFtcJson();
  json["spec"].erase("statusType");
  json["spec"].erase("statusCollection");
  json["spec"]["targetType"].erase("group");
  json.erase("status");
  json["status"] = {{"observedGeneration", 0}, {"propagationController", "NotRunning"}};
  auto ftc = FederatedTypeConfig::fromJson(json).value();
  EXPECT_FALSE(ftc.spec.status_type.has_value());
  EXPECT_FALSE(ftc.spec.status_collection.has_value());
  EXPECT_EQ(ftc.toJson(), json);
  // A present-but-empty omitempty group survives as well.
  json["spec"]["targetType"]["group"] = "";
  EXPECT_EQ(FederatedTypeConfig::fromJson(json).value().toJson(), json);
}

TEST(FederatedTypeConfigTest, WrongTypeNamesThePath) {
  Json json = deploymentsFtcJson();
  json["spec"]["federatedType"]["kind"] = 7;
  auto ftc = FederatedTypeConfig::fromJson(json);
  ASSERT_FALSE(ftc);
  EXPECT_EQ(ftc.error().message, "spec.federatedType.kind: expected string");
  json = deploymentsFtcJson();
  json["status"]["observedGeneration"] = "1";
  EXPECT_EQ(FederatedTypeConfig::fromJson(json).error().message,
            "status.observedGeneration: expected integer");
}

struct PluralCase {
  std::string kind;
  std::string plural;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const PluralCase& c, std::ostream* os) { *os << c.kind; }

class PluralNameTest : public testing::TestWithParam<PluralCase> {};

TEST_P(PluralNameTest, FollowsKubeFedRule) {
  EXPECT_EQ(pluralName(GetParam().kind), GetParam().plural);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, PluralNameTest,
    testing::Values(PluralCase{"Deployment", "deployments"}, PluralCase{"Ingress", "ingresses"},
                    PluralCase{"Box", "boxes"}, PluralCase{"Batch", "batches"},
                    PluralCase{"Mesh", "meshes"}, PluralCase{"Quiz", "quizes"},
                    PluralCase{"Potato", "potatoes"}, PluralCase{"Policy", "policies"},
                    PluralCase{"Gateway", "gatewaies"}, PluralCase{"Key", "keies"},
                    PluralCase{"FederatedDeployment", "federateddeployments"},
                    PluralCase{"Endpoints", "endpointses"}));

TEST(GroupQualifiedNameTest, OmitsEmptyGroup) {
  ApiResource resource;
  resource.plural_name = "configmaps";
  EXPECT_EQ(groupQualifiedName(resource), "configmaps");
  resource.group = "apps";
  resource.plural_name = "deployments";
  EXPECT_EQ(groupQualifiedName(resource), "deployments.apps");
}

TEST(FederatedTypeConfigDefaultsTest, FillsOnlyEmptyFields) {
  FederatedTypeConfig ftc;
  ftc.header.metadata = {{"name", "deployments.apps"}};
  ftc.spec.federated_type =
      ApiResource{"types.kubefed.io", "v1beta1", "FederatedDeployment", "", "Namespaced", Json()};
  ftc.spec.status_type = ApiResource{"", "", "FederatedServiceStatus", "", "", Json()};
  setFederatedTypeConfigDefaults(ftc);
  EXPECT_EQ(ftc.spec.target_type.plural_name, "deployments");
  EXPECT_EQ(ftc.spec.target_type.group, "apps");
  EXPECT_EQ(ftc.spec.federated_type.plural_name, "federateddeployments");
  EXPECT_EQ(ftc.spec.status_type->plural_name, "federatedservicestatuses");
  EXPECT_EQ(ftc.spec.status_type->group, "types.kubefed.io");
  EXPECT_EQ(ftc.spec.status_type->version, "v1beta1");

  FederatedTypeConfig set = validFtc();
  set.spec.target_type.plural_name = "custom";
  set.spec.federated_type.plural_name = "fedcustom";
  setFederatedTypeConfigDefaults(set);
  EXPECT_EQ(set.spec.target_type.plural_name, "custom");
  EXPECT_EQ(set.spec.federated_type.plural_name, "fedcustom");
  EXPECT_EQ(set.spec.status_type->plural_name, "federateddeploymentstatus");

  FederatedTypeConfig core;
  core.header.metadata = {{"name", "configmaps"}};
  setFederatedTypeConfigDefaults(core);
  EXPECT_EQ(core.spec.target_type.plural_name, "configmaps");
  EXPECT_EQ(core.spec.target_type.group, "");
}

TEST(FederatedTypeNamespacedTest, NamespacesIsSpecial) {
  FederatedTypeConfig ftc;
  ftc.header.metadata = {{"name", "namespaces"}};
  ftc.spec.target_type.scope = "Cluster";
  EXPECT_TRUE(federatedTypeNamespaced(ftc));
  ftc.header.metadata = {{"name", "clusterroles.rbac.authorization.k8s.io"}};
  EXPECT_FALSE(federatedTypeNamespaced(ftc));
  ftc.spec.target_type.scope = "Namespaced";
  EXPECT_TRUE(federatedTypeNamespaced(ftc));
}

TEST(FederatedTypeConfigValidationTest, ValidPassesForSpecAndStatus) {
  for (bool status : {true, false}) {
    EXPECT_THAT(validateFederatedTypeConfig(validFtc(), status), testing::IsEmpty());
  }
  FederatedTypeConfig services = validFtc();
  services.header.metadata["name"] = "services";
  services.spec.target_type = ApiResource{"", "v1", "Service", "services", "Namespaced", Json()};
  EXPECT_THAT(validateFederatedTypeConfig(services, false), testing::IsEmpty());
}

struct FtcCase {
  std::string name;
  std::function<void(FederatedTypeConfig&)> mutate;
  std::string first_error;
};

class FtcSpecValidationTest : public testing::TestWithParam<FtcCase> {};

TEST_P(FtcSpecValidationTest, FirstErrorMatches) {
  FederatedTypeConfig ftc = validFtc();
  GetParam().mutate(ftc);
  const auto errors = validateFederatedTypeConfigSpec(ftc.spec, meta::FieldPath("spec"));
  ASSERT_FALSE(errors.empty());
  EXPECT_THAT(errors[0].message(), HasSubstr(GetParam().first_error));
}

INSTANTIATE_TEST_SUITE_P(
    Rules, FtcSpecValidationTest,
    testing::Values(
        FtcCase{"FedGroupRequired", [](auto& f) { f.spec.federated_type.group = ""; },
                "spec.federatedType.group: Required value"},
        FtcCase{"StatusGroupRequired", [](auto& f) { f.spec.status_type->group = ""; },
                "spec.statusType.group: Required value"},
        FtcCase{"PropagationRequired", [](auto& f) { f.spec.propagation = ""; },
                "spec.propagation: Required value"},
        FtcCase{"FedGroupNeedsDot", [](auto& f) { f.spec.federated_type.group = "nodomain"; },
                "spec.federatedType.group: Invalid value: \"nodomain\": should be a domain with "
                "at least one dot"},
        FtcCase{"TargetVersionLabel", [](auto& f) { f.spec.target_type.version = "Alpha"; },
                "must consist of lower case alphanumeric characters"},
        FtcCase{"StatusPluralLabel",
                [](auto& f) { f.spec.status_type->plural_name = "2InvalidKind"; },
                "start with an alphabetic character"},
        FtcCase{"PropagationEnum", [](auto& f) { f.spec.propagation = "InvalidPropagationMode"; },
                "spec.propagation: Unsupported value: \"InvalidPropagationMode\": supported "
                "values: \"Enabled\", \"Disabled\""},
        FtcCase{"StatusCollectionEnum",
                [](auto& f) { f.spec.status_collection = "InvalidStatusCollectionMode"; },
                "spec.statusCollection: Unsupported value"},
        FtcCase{"StatusCollectionEmpty", [](auto& f) { f.spec.status_collection = ""; },
                "spec.statusCollection: Required value"},
        FtcCase{"TargetGroupSubdomain", [](auto& f) { f.spec.target_type.group = "invalid#group"; },
                "spec.targetType.group: Invalid value: \"invalid#group\": a lowercase RFC 1123 "
                "subdomain must consist of lower case alphanumeric characters, '-' or '.'"},
        FtcCase{"TargetVersionRequired", [](auto& f) { f.spec.target_type.version = ""; },
                "spec.targetType.version: Required value"},
        FtcCase{"TargetKindRequired", [](auto& f) { f.spec.target_type.kind = ""; },
                "spec.targetType.kind: Required value"},
        FtcCase{"TargetKindLabel", [](auto& f) { f.spec.target_type.kind = "Invalid.Kind"; },
                "alphanumeric characters or '-'"},
        FtcCase{"TargetPluralRequired", [](auto& f) { f.spec.target_type.plural_name = ""; },
                "spec.targetType.pluralName: Required value"},
        FtcCase{"TargetScopeRequired", [](auto& f) { f.spec.target_type.scope = ""; },
                "spec.targetType.scope: Required value"},
        FtcCase{"TargetScopeEnum",
                [](auto& f) { f.spec.target_type.scope = "NeitherClusterOrNamespaceScoped"; },
                "spec.targetType.scope: Unsupported value: \"NeitherClusterOrNamespaceScoped\": "
                "supported values: \"Cluster\", \"Namespaced\""},
        FtcCase{"FedKindLabel", [](auto& f) { f.spec.federated_type.kind = "Fed_Kind"; },
                "spec.federatedType.kind: Invalid value: \"Fed_Kind\": a DNS-1035 label"}),
    [](const auto& test_info) { return test_info.param.name; });

// KubeFed reports a name that is both too long and malformed as one error, the messages joined
// by ",".
TEST(FederatedTypeConfigValidationTest, ANameBreakingBothRulesIsOneError) {
  const std::string plural = "Deployments" + std::string(60, 'x');
  const std::string group = "Apps" + std::string(250, 'x');
  FederatedTypeConfig ftc = validFtc();
  ftc.spec.target_type.plural_name = plural;
  ftc.spec.target_type.group = group;
  ftc.spec.target_type.kind = "Deploy.Ment" + std::string(60, 'x');
  const auto errors = validateFederatedTypeConfigSpec(ftc.spec, meta::FieldPath("spec"));
  const std::string label_rule =
      "must be no more than 63 characters,a DNS-1035 label must consist of lower case "
      "alphanumeric characters or '-', start with an alphabetic character, and end with an "
      "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
      "'[a-z]([-a-z0-9]*[a-z0-9])?')";
  ASSERT_EQ(errors.size(), 3u) << meta::aggregate(errors);
  EXPECT_THAT(errors[0].message(),
              HasSubstr("spec.targetType.group: Invalid value: \"" + group +
                        "\": must be no more than 253 characters,a lowercase RFC 1123 subdomain"));
  // The kind is checked in lower case and shown as written.
  EXPECT_EQ(errors[1].message(), "spec.targetType.kind: Invalid value: \"Deploy.Ment" +
                                     std::string(60, 'x') + "\": " + label_rule);
  EXPECT_EQ(errors[2].message(),
            "spec.targetType.pluralName: Invalid value: \"" + plural + "\": " + label_rule);
}

TEST(FederatedTypeConfigValidationTest, NameMustMatchTarget) {
  FederatedTypeConfig ftc = validFtc();
  ftc.header.metadata["name"] = "deployments";
  auto errors = validateFederatedTypeConfig(ftc, false);
  ASSERT_FALSE(errors.empty());
  EXPECT_THAT(errors[0].message(),
              HasSubstr("name must be 'TARGET_PLURAL_NAME(.TARGET_GROUP_NAME)'"));
  // Status requests do not look at the name.
  EXPECT_THAT(validateFederatedTypeConfig(ftc, true), testing::IsEmpty());
}

TEST(FederatedTypeConfigValidationTest, StatusRequestChecksOnlyStatus) {
  FederatedTypeConfig ftc = validFtc();
  ftc.spec.propagation = "";
  EXPECT_THAT(validateFederatedTypeConfig(ftc, true), testing::IsEmpty());
  ftc.status.reset();
  auto errors = validateFederatedTypeConfig(ftc, true);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message(), "status.propagationController: Required value");
}

struct StatusCase {
  std::int64_t generation;
  std::string propagation;
  std::optional<std::string> status_controller;
  std::string first_error;  // "" = valid
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const StatusCase& c, std::ostream* os) {
  *os << c.propagation << "/" << c.status_controller.value_or("<none>") << "/" << c.generation;
}

class FtcStatusValidationTest : public testing::TestWithParam<StatusCase> {};

TEST_P(FtcStatusValidationTest, Matches) {
  const auto& c = GetParam();
  FederatedTypeConfigStatus status{c.generation, c.propagation, c.status_controller, Json()};
  const auto errors = validateFederatedTypeConfigStatus(status, meta::FieldPath("status"));
  if (c.first_error.empty()) {
    EXPECT_THAT(errors, testing::IsEmpty());
  } else {
    ASSERT_FALSE(errors.empty());
    EXPECT_THAT(errors[0].message(), HasSubstr(c.first_error));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rules, FtcStatusValidationTest,
    testing::Values(StatusCase{1, "Running", "NotRunning", ""},
                    StatusCase{0, "NotRunning", std::nullopt, ""},
                    StatusCase{1, "", "Running", "status.propagationController: Required value"},
                    StatusCase{-1, "Running", "NotRunning",
                               "status.observedGeneration: Invalid value: -1: must be greater "
                               "than or equal to 0"},
                    StatusCase{1, "InvalidControllerStatus", "Running",
                               "status.propagationController: Unsupported value"},
                    StatusCase{1, "Running", "InvalidControllerStatus",
                               "status.statusController: Unsupported value"}));

}  // namespace
}  // namespace kf::core
