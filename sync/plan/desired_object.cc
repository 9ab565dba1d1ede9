#include "sync/plan/desired_object.h"

#include "apis/federated/federated_resource.h"
#include "apis/meta/field_errors.h"
#include "sync/plan/managed_label.h"
#include "sync/plan/overrides.h"
#include "sync/plan/retain.h"

namespace kf::sync {

namespace {

bool dropAnnotations(Json& object) {
  auto annotations = objectAnnotations(object);
  if (!annotations || annotations->empty()) return false;
  setAnnotations(object, std::nullopt);
  return true;
}

bool dropFinalizers(Json& object) {
  auto finalizers = objectFinalizers(object);
  if (!finalizers || finalizers->empty()) return false;
  setFinalizers(object, std::nullopt);
  return true;
}

bool hasApiVersion(const Json& object) {
  auto it = object.find("apiVersion");
  return it != object.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
}

DesiredObject failed(DesiredObject out, PropagationStatus status, std::string error) {
  out.failure = status;
  out.error = std::move(error);
  return out;
}

std::string federatedDescription(const Json& federated_object) {
  const Json* kind = nestedField(federated_object, {"kind"});
  const std::string kind_text =
      kind != nullptr && kind->is_string() ? kind->get<std::string>() : std::string("object");
  const std::string ns = objectNamespace(federated_object);
  const std::string name = objectName(federated_object);
  return kind_text + " " + meta::goQuote(ns.empty() ? name : ns + "/" + name);
}

// Step 5 and 6 on `out.object`.
DesiredObject withOverrides(DesiredObject out, const Json& federated_object,
                            const std::string& cluster_name) {
  auto overrides = readOverridesMap(federated_object);
  if (!overrides) {
    return failed(std::move(out), PropagationStatus::kApplyOverridesFailed,
                  "Error reading cluster overrides for " + federatedDescription(federated_object) +
                      ": " + overrides.error().message);
  }
  auto cluster_overrides = overrides.value().find(cluster_name);
  if (cluster_overrides != overrides.value().end()) {
    auto applied = applyClusterOverrides(out.object, cluster_name, cluster_overrides->second);
    if (!applied) {
      return failed(std::move(out), PropagationStatus::kApplyOverridesFailed,
                    applied.error().message);
    }
  }
  addManagedLabel(out.object);
  return out;
}

}  // namespace

std::string templateFieldNotSupportedMessage(std::string_view field) {
  return "metadata." + std::string(field) +
         " cannot be set via template to avoid conflicting with controllers in member clusters. "
         "Consider using an override to add or remove elements from this collection.";
}

Result<TemplateObject> objectFromTemplate(const Json& federated_object,
                                          const core::ApiResource& target_type) {
  auto template_json = federated::readTemplate(federated_object);
  if (!template_json) {
    return makeError(Reason::kInvalid,
                     "Error retrieving template body: " + template_json.error().message);
  }
  TemplateObject out;
  out.object = template_json.value().value_or(Json::object());
  out.dropped_annotations = dropAnnotations(out.object);
  out.dropped_finalizers = dropFinalizers(out.object);
  setMetadataString(out.object, "name", objectName(federated_object));
  if (target_type.kind != "Namespace") {
    setMetadataString(out.object, "namespace", objectNamespace(federated_object));
  }
  out.object["kind"] = target_type.kind;
  if (!hasApiVersion(out.object)) {
    // Not apiVersion(): KubeFed writes "/v1" for the core group and servers accept it.
    out.object["apiVersion"] = target_type.group + "/" + target_type.version;
  }
  return out;
}

DesiredObject desiredObjectForCluster(const Json& federated_object,
                                      const core::ApiResource& target_type,
                                      const std::string& cluster_name, const Json* cluster_object,
                                      const std::vector<PolicyPatch>* policy_patches) {
  DesiredObject out;
  auto from_template = objectFromTemplate(federated_object, target_type);
  if (!from_template) {
    return failed(std::move(out), PropagationStatus::kComputeResourceFailed,
                  from_template.error().message);
  }
  out.object = std::move(from_template.value().object);
  out.dropped_annotations = from_template.value().dropped_annotations;
  out.dropped_finalizers = from_template.value().dropped_finalizers;
  if (cluster_object != nullptr) {
    auto retained =
        retainClusterFields(target_type.kind, out.object, *cluster_object, federated_object);
    if (!retained) {
      return failed(std::move(out), PropagationStatus::kFieldRetentionFailed,
                    "failed to retain fields: " + retained.error().message);
    }
  }
  if (policy_patches != nullptr) applyPolicyPatches(out.object, cluster_name, *policy_patches);
  return withOverrides(std::move(out), federated_object, cluster_name);
}

}  // namespace kf::sync
