#include "sync/plan/desired_object.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using testing::HasSubstr;

core::ApiResource targetType(std::string group, std::string version, std::string kind,
                             std::string scope = "Namespaced") {
  core::ApiResource type;
  type.group = std::move(group);
  type.version = std::move(version);
  type.kind = std::move(kind);
  type.scope = std::move(scope);
  return type;
}

const core::ApiResource kDeployment = targetType("apps", "v1", "Deployment");
const core::ApiResource kConfigMap = targetType("", "v1", "ConfigMap");
const core::ApiResource kNamespace = targetType("", "v1", "Namespace", "Cluster");

Json federated(const char* spec) {
  return Json{{"apiVersion", "types.kubefed.io/v1beta1"},
              {"kind", "FederatedDeployment"},
              {"metadata", {{"name", "web"}, {"namespace", "prod"}}},
              {"spec", Json::parse(spec)}};
}

// Verifies steps 1-3 and 6: name, namespace, kind and apiVersion from the federated object and
// the type, the managed label last.
TEST(DesiredObjectTest, BuildsObjectFromTemplate) {
  const auto desired = desiredObjectForCluster(
      federated(R"({"template": {"metadata": {"name": "other", "labels": {"app": "web"}},
                                 "spec": {"replicas": 1}}})"),
      kDeployment, "c1", nullptr);
  ASSERT_TRUE(desired.ok()) << desired.error;
  EXPECT_EQ(desired.object, Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "prod",
                 "labels": {"app": "web", "kubefed.io/managed": "true"}},
    "spec": {"replicas": 1}})"));
  EXPECT_FALSE(desired.dropped_annotations);
  EXPECT_FALSE(desired.dropped_finalizers);
}

// Verifies the QUIRK "/v1" for core types and that a template apiVersion is kept.
TEST(DesiredObjectTest, ApiVersionQuirkAndTemplateVersion) {
  auto core_object =
      objectFromTemplate(federated(R"({"template": {"data": {"a": "b"}}})"), kConfigMap);
  ASSERT_TRUE(core_object);
  EXPECT_EQ(core_object.value().object["apiVersion"], "/v1");
  auto explicit_version =
      objectFromTemplate(federated(R"({"template": {"apiVersion": "apps/v1beta2"}})"), kDeployment);
  ASSERT_TRUE(explicit_version);
  EXPECT_EQ(explicit_version.value().object["apiVersion"], "apps/v1beta2");
  EXPECT_EQ(explicit_version.value().object["kind"], "Deployment");
}

// Verifies that template annotations and finalizers are dropped and reported, with the message.
TEST(DesiredObjectTest, DropsTemplateAnnotationsAndFinalizers) {
  auto object = objectFromTemplate(
      federated(R"({"template": {"metadata": {"annotations": {"a": "b"}, "finalizers": ["f"]}}})"),
      kDeployment);
  ASSERT_TRUE(object);
  EXPECT_TRUE(object.value().dropped_annotations);
  EXPECT_TRUE(object.value().dropped_finalizers);
  EXPECT_FALSE(object.value().object["metadata"].contains("annotations"));
  EXPECT_FALSE(object.value().object["metadata"].contains("finalizers"));
  EXPECT_EQ(templateFieldNotSupportedMessage("annotations"),
            "metadata.annotations cannot be set via template to avoid conflicting with controllers "
            "in member clusters. Consider using an override to add or remove elements from this "
            "collection.");
  // Empty ones are neither reported nor removed.
  auto empty = objectFromTemplate(
      federated(R"({"template": {"metadata": {"annotations": {}, "finalizers": []}}})"),
      kDeployment);
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty.value().dropped_annotations);
  EXPECT_FALSE(empty.value().dropped_finalizers);
  EXPECT_TRUE(empty.value().object["metadata"].contains("annotations"));
}

// Verifies that a missing template gives an empty object and a Namespace target keeps no
// namespace from the federated object.
TEST(DesiredObjectTest, NamespaceFromEmptyTemplate) {
  const Json federated_namespace = Json::parse(
      R"({"kind": "FederatedNamespace", "metadata": {"name": "team", "namespace": "team"},
          "spec": {"placement": {"clusters": []}}})");
  const auto desired = desiredObjectForCluster(federated_namespace, kNamespace, "c1", nullptr);
  ASSERT_TRUE(desired.ok()) << desired.error;
  EXPECT_EQ(desired.object, Json::parse(R"({"apiVersion": "/v1", "kind": "Namespace",
      "metadata": {"name": "team", "labels": {"kubefed.io/managed": "true"}}})"));
}

// Verifies that a cluster-scoped target loses any template namespace.
TEST(DesiredObjectTest, ClusterScopedTargetHasNoNamespace) {
  const Json object = Json::parse(R"({"metadata": {"name": "admin"},
      "spec": {"template": {"metadata": {"namespace": "stray"}, "rules": []}}})");
  auto desired = objectFromTemplate(
      object, targetType("rbac.authorization.k8s.io", "v1", "ClusterRole", "Cluster"));
  ASSERT_TRUE(desired);
  EXPECT_FALSE(desired.value().object["metadata"].contains("namespace"));
}

// Verifies that a template that is not an object fails with ComputeResourceFailed.
TEST(DesiredObjectTest, InvalidTemplateFails) {
  const auto desired =
      desiredObjectForCluster(federated(R"({"template": "x"})"), kDeployment, "c1", nullptr);
  EXPECT_EQ(desired.failure, PropagationStatus::kComputeResourceFailed);
  EXPECT_THAT(desired.error, HasSubstr("Error retrieving template body: spec.template"));
}

// Verifies that overrides apply to their cluster only and cannot remove the managed label.
TEST(DesiredObjectTest, OverridesApplyPerClusterBeforeManagedLabel) {
  const Json object = federated(R"({
    "template": {"spec": {"replicas": 1}},
    "overrides": [{"clusterName": "c1", "clusterOverrides": [
        {"path": "/spec/replicas", "value": 5},
        {"path": "/metadata/labels", "value": {"only": "this"}}]}]})");
  const auto c1 = desiredObjectForCluster(object, kDeployment, "c1", nullptr);
  ASSERT_TRUE(c1.ok()) << c1.error;
  EXPECT_EQ(c1.object["spec"]["replicas"], 5);
  EXPECT_EQ(c1.object["metadata"]["labels"],
            Json::parse(R"({"only": "this", "kubefed.io/managed": "true"})"));
  const auto c2 = desiredObjectForCluster(object, kDeployment, "c2", nullptr);
  ASSERT_TRUE(c2.ok()) << c2.error;
  EXPECT_EQ(c2.object["spec"]["replicas"], 1);
}

// Verifies that invalid overrides fail every cluster with ApplyOverridesFailed, even clusters
// without overrides, and that a patch failure fails only its cluster.
TEST(DesiredObjectTest, OverrideErrors) {
  const Json duplicate = federated(R"({"template": {}, "overrides": [
      {"clusterName": "c1"}, {"clusterName": "c1"}]})");
  const auto c2 = desiredObjectForCluster(duplicate, kDeployment, "c2", nullptr);
  EXPECT_EQ(c2.failure, PropagationStatus::kApplyOverridesFailed);
  EXPECT_EQ(c2.error,
            "Error reading cluster overrides for FederatedDeployment \"prod/web\": cluster \"c1\" "
            "appears more than once");
  const Json failing = federated(R"({"template": {}, "overrides": [
      {"clusterName": "c1", "clusterOverrides": [{"op": "remove", "path": "/spec/x"}]}]})");
  const auto c1 = desiredObjectForCluster(failing, kDeployment, "c1", nullptr);
  EXPECT_EQ(c1.failure, PropagationStatus::kApplyOverridesFailed);
  EXPECT_THAT(c1.error, HasSubstr("cluster \"c1\": override[0] (remove /spec/x): remove operation "
                                  "does not apply: doc is missing path"));
  EXPECT_TRUE(desiredObjectForCluster(failing, kDeployment, "c3", nullptr).ok());
}

// Verifies the update path: retention before overrides, so overrides can change retained fields.
TEST(DesiredObjectTest, UpdatePathRetainsThenOverrides) {
  const Json object = federated(R"({
    "template": {"spec": {"replicas": 1}}, "retainReplicas": true,
    "overrides": [{"clusterName": "c1", "clusterOverrides": [
        {"path": "/metadata/annotations/extra", "value": "x"}]}]})");
  const Json cluster = Json::parse(R"({"metadata": {"name": "web", "namespace": "prod",
      "resourceVersion": "7", "annotations": {"deployment.kubernetes.io/revision": "3"}},
      "spec": {"replicas": 4}})");
  const auto desired = desiredObjectForCluster(object, kDeployment, "c1", &cluster);
  ASSERT_TRUE(desired.ok()) << desired.error;
  EXPECT_EQ(desired.object["metadata"]["resourceVersion"], "7");
  EXPECT_EQ(desired.object["metadata"]["annotations"],
            Json::parse(R"({"deployment.kubernetes.io/revision": "3", "extra": "x"})"));
  EXPECT_EQ(desired.object["spec"]["replicas"], 4);
}

// Verifies that a retention error fails the update with FieldRetentionFailed.
TEST(DesiredObjectTest, RetentionErrorFails) {
  const Json cluster = Json::parse(R"({"spec": {"clusterIP": 1}})");
  const auto desired = desiredObjectForCluster(federated(R"({"template": {}})"),
                                               targetType("", "v1", "Service"), "c1", &cluster);
  EXPECT_EQ(desired.failure, PropagationStatus::kFieldRetentionFailed);
  EXPECT_THAT(desired.error, HasSubstr("failed to retain fields: Error retrieving clusterIP"));
}

}  // namespace
}  // namespace kf::sync
