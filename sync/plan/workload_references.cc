#include "sync/plan/workload_references.h"

namespace kf::sync {

namespace {

// The string at `key` of `object`; "" when absent or not a string.
std::string stringAt(const Json& object, std::string_view key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// The array at `key` of `object`; an empty array when absent or not an array.
const Json& arrayAt(const Json& object, std::string_view key) {
  static const Json empty = Json::array();
  if (!object.is_object()) return empty;
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : empty;
}

const Json& objectAt(const Json& object, std::string_view key) {
  static const Json empty = Json::object();
  if (!object.is_object()) return empty;
  const auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : empty;
}

void insertNamed(std::set<std::string>& names, const std::string& name) {
  if (!name.empty()) names.insert(name);
}

void addVolume(const Json& volume, PodTemplateReferences& out) {
  insertNamed(out.config_maps, stringAt(objectAt(volume, "configMap"), "name"));
  insertNamed(out.secrets, stringAt(objectAt(volume, "secret"), "secretName"));
  insertNamed(out.persistent_volume_claims,
              stringAt(objectAt(volume, "persistentVolumeClaim"), "claimName"));
  for (const Json& source : arrayAt(objectAt(volume, "projected"), "sources")) {
    insertNamed(out.config_maps, stringAt(objectAt(source, "configMap"), "name"));
    insertNamed(out.secrets, stringAt(objectAt(source, "secret"), "name"));
  }
}

void addContainer(const Json& container, PodTemplateReferences& out) {
  for (const Json& env : arrayAt(container, "env")) {
    const Json& value_from = objectAt(env, "valueFrom");
    insertNamed(out.config_maps, stringAt(objectAt(value_from, "configMapKeyRef"), "name"));
    insertNamed(out.secrets, stringAt(objectAt(value_from, "secretKeyRef"), "name"));
  }
  for (const Json& env_from : arrayAt(container, "envFrom")) {
    insertNamed(out.config_maps, stringAt(objectAt(env_from, "configMapRef"), "name"));
    insertNamed(out.secrets, stringAt(objectAt(env_from, "secretRef"), "name"));
  }
}

}  // namespace

bool isFederatedWorkloadKind(std::string_view federated_kind) {
  for (std::string_view known :
       {"FederatedDeployment", "FederatedStatefulSet", "FederatedDaemonSet", "FederatedReplicaSet",
        "FederatedJob", "FederatedCronJob"}) {
    if (federated_kind == known) return true;
  }
  return false;
}

FollowsMode followsModeOf(const Json& federated_object) {
  const std::optional<StringMap> annotations = objectAnnotations(federated_object);
  if (!annotations) return FollowsMode::kOwnPlacement;
  const auto it = annotations->find(kPlacementFollowsAnnotation);
  if (it == annotations->end()) return FollowsMode::kOwnPlacement;
  return it->second == kFollowsWorkloads ? FollowsMode::kWorkloads : FollowsMode::kInvalid;
}

const Json* podTemplateOfFederated(const Json& federated_object) {
  for (const Json* candidate :
       {nestedField(federated_object, {"spec", "template", "spec", "template"}),
        nestedField(federated_object,
                    {"spec", "template", "spec", "jobTemplate", "spec", "template"})}) {
    if (candidate != nullptr && candidate->is_object()) return candidate;
  }
  return nullptr;
}

PodTemplateReferences referencesOf(const Json& pod_template) {
  PodTemplateReferences out;
  const Json& spec = objectAt(pod_template, "spec");
  for (const Json& volume : arrayAt(spec, "volumes")) addVolume(volume, out);
  for (const char* list : {"containers", "initContainers", "ephemeralContainers"}) {
    for (const Json& container : arrayAt(spec, list)) addContainer(container, out);
  }
  for (const Json& pull_secret : arrayAt(spec, "imagePullSecrets")) {
    insertNamed(out.secrets, stringAt(pull_secret, "name"));
  }
  // The pod's service account, as the API server defaults it.
  std::string account = stringAt(spec, "serviceAccountName");
  if (account.empty()) account = stringAt(spec, "serviceAccount");
  out.service_accounts.insert(account.empty() ? "default" : account);
  return out;
}

const std::set<std::string>* referencedNamesOfKind(const PodTemplateReferences& references,
                                                   std::string_view target_kind) {
  if (target_kind == "ConfigMap") return &references.config_maps;
  if (target_kind == "Secret") return &references.secrets;
  if (target_kind == "ServiceAccount") return &references.service_accounts;
  if (target_kind == "PersistentVolumeClaim") return &references.persistent_volume_claims;
  return nullptr;
}

bool referenceableKind(std::string_view target_kind) {
  return target_kind == "ConfigMap" || target_kind == "Secret" || target_kind == "ServiceAccount" ||
         target_kind == "PersistentVolumeClaim";
}

bool referencesObject(const Json& federated_workload, std::string_view target_kind,
                      const std::string& name) {
  const Json* pod_template = podTemplateOfFederated(federated_workload);
  if (pod_template == nullptr) return false;
  const PodTemplateReferences references = referencesOf(*pod_template);
  const std::set<std::string>* names = referencedNamesOfKind(references, target_kind);
  return names != nullptr && names->contains(name);
}

std::set<std::string> followerPlacement(const std::vector<ReferencingWorkload>& workloads) {
  std::set<std::string> clusters;
  for (const ReferencingWorkload& workload : workloads) {
    clusters.insert(workload.placement.begin(), workload.placement.end());
  }
  return clusters;
}

}  // namespace kf::sync
