#include "sync/plan/override_policy.h"

#include <algorithm>

#include "apis/encoding/md5.h"
#include "apis/meta/field_errors.h"
#include "apis/policy/override_variables.h"
#include "sync/plan/overrides.h"

namespace kf::sync {

namespace {

Result<std::string> expandString(const std::string& text, const PolicyCluster& cluster) {
  if (!policy::usesVariables(text)) return text;
  KF_TRY(parts, policy::parseTemplate(text));
  std::string out;
  for (const policy::TemplatePart& part : parts) {
    switch (part.kind) {
      case policy::TemplatePart::Kind::kText:
        out += part.text;
        break;
      case policy::TemplatePart::Kind::kClusterName:
        out += cluster.name;
        break;
      case policy::TemplatePart::Kind::kClusterLabel: {
        const auto label = cluster.labels.find(part.text);
        if (label == cluster.labels.end()) {
          return makeError(Reason::kInvalid,
                           "${CLUSTER_LABEL:" + part.text + "}: cluster " +
                               meta::goQuote(cluster.name) + " has no label " +
                               meta::goQuote(part.text) +
                               " (label the KubeFedCluster, or "
                               "narrow the policy's clusterSelector to clusters that have it)");
        }
        out += label->second;
        break;
      }
    }
  }
  return out;
}

Result<std::vector<federated::ClusterOverride>> expandPolicy(const policy::OverridePolicy& policy,
                                                             const PolicyCluster& cluster) {
  std::vector<federated::ClusterOverride> out;
  out.reserve(policy.overrides.size());
  for (std::size_t i = 0; i < policy.overrides.size(); ++i) {
    const policy::PolicyOverride& item = policy.overrides[i];
    federated::ClusterOverride expanded{item.op, item.path, std::nullopt};
    if (item.value) {
      auto value = expandVariables(*item.value, cluster);
      if (!value) {
        return makeError(Reason::kInvalid, "spec.overrides[" + std::to_string(i) +
                                               "].value: " + value.error().message);
      }
      expanded.value = std::move(value).value();
    }
    out.push_back(std::move(expanded));
  }
  return out;
}

// ClusterOverridePolicies before OverridePolicies, each by name.
bool appliesBefore(const policy::OverridePolicy* a, const policy::OverridePolicy* b) {
  if (a->clusterScoped() != b->clusterScoped()) return a->clusterScoped();
  return a->name < b->name;
}

const std::vector<PolicyPatch> kNoPatches;

}  // namespace

bool policySelectsObject(const policy::OverridePolicy& policy, const Json& federated_object) {
  if (federated_object.value("kind", "") != policy.resource_kind) return false;
  if (!policy.clusterScoped() && objectNamespace(federated_object) != policy.ns) return false;
  return policy.resource_labels.matches(objectLabels(federated_object).value_or(StringMap{}));
}

bool policySelectsCluster(const policy::OverridePolicy& policy, const PolicyCluster& cluster) {
  if (policy.cluster_names) {
    const auto& names = *policy.cluster_names;
    return std::find(names.begin(), names.end(), cluster.name) != names.end();
  }
  if (policy.cluster_selector) {
    return policy.cluster_selector->matches(cluster.labels);
  }
  return true;
}

std::vector<const policy::OverridePolicy*> policiesSelecting(
    const std::vector<policy::OverridePolicy>& policies, const Json& federated_object) {
  std::vector<const policy::OverridePolicy*> out;
  for (const policy::OverridePolicy& policy : policies) {
    if (policySelectsObject(policy, federated_object)) out.push_back(&policy);
  }
  std::sort(out.begin(), out.end(), appliesBefore);
  return out;
}

Result<Json> expandVariables(const Json& value, const PolicyCluster& cluster) {
  if (value.is_string()) {
    KF_TRY(text, expandString(value.get<std::string>(), cluster));
    return Json(std::move(text));
  }
  if (!value.is_object() && !value.is_array()) return value;
  Json out = value;
  for (auto& member : out) {
    KF_TRY(expanded, expandVariables(member, cluster));
    member = std::move(expanded);
  }
  return out;
}

const std::vector<PolicyPatch>& PolicyPatches::forCluster(const std::string& cluster) const {
  const auto found = by_cluster.find(cluster);
  return found == by_cluster.end() ? kNoPatches : found->second;
}

PolicyPatches policyPatchesFor(const std::vector<policy::OverridePolicy>& policies,
                               const Json& federated_object,
                               const std::vector<PolicyCluster>& placed) {
  PolicyPatches out;
  for (const policy::OverridePolicy* policy : policiesSelecting(policies, federated_object)) {
    out.selecting.push_back(policy->describe());
    for (const PolicyCluster& cluster : placed) {
      if (!policySelectsCluster(*policy, cluster)) continue;
      auto expanded = expandPolicy(*policy, cluster);
      if (!expanded) {
        out.failures.push_back({policy->describe(), cluster.name, expanded.error().message});
        continue;
      }
      out.by_cluster[cluster.name].push_back({policy->describe(), std::move(expanded).value()});
    }
  }
  return out;
}

std::vector<PolicyFailure> applyPolicyPatches(Json& object, const std::string& cluster,
                                              const std::vector<PolicyPatch>& patches) {
  std::vector<PolicyFailure> failures;
  for (const PolicyPatch& patch : patches) {
    // applyClusterOverrides is all or nothing: a failing policy leaves no partial change.
    auto applied = applyClusterOverrides(object, cluster, patch.overrides);
    if (!applied) failures.push_back({patch.policy, cluster, applied.error().message});
  }
  return failures;
}

void dropFailingPatches(PolicyPatches& patches, const Json& template_object) {
  for (auto& [cluster, list] : patches.by_cluster) {
    Json object = template_object;
    std::vector<PolicyPatch> kept;
    for (PolicyPatch& patch : list) {
      auto failed = applyPolicyPatches(object, cluster, {patch});
      if (failed.empty()) {
        kept.push_back(std::move(patch));
      } else {
        patches.failures.push_back(std::move(failed.front()));
      }
    }
    list = std::move(kept);
  }
  std::erase_if(patches.by_cluster, [](const auto& entry) { return entry.second.empty(); });
}

std::string clusterPatchesDigest(const std::vector<PolicyPatch>& patches) {
  if (patches.empty()) return "";
  Json fingerprint = Json::array();
  for (const PolicyPatch& patch : patches) {
    Json overrides = Json::array();
    for (const auto& item : patch.overrides) {
      overrides.push_back(
          {{"op", item.op}, {"path", item.path}, {"value", item.value.value_or(Json())}});
    }
    fingerprint.push_back({{"policy", patch.policy}, {"overrides", std::move(overrides)}});
  }
  return md5Hex(fingerprint.dump());
}

ClusterVersions versionsUnderPolicies(const ClusterVersions& recorded,
                                      const PolicyPatches& patches) {
  ClusterVersions out;
  for (const auto& [cluster, version] : recorded) {
    const std::string digest = clusterPatchesDigest(patches.forCluster(cluster));
    const auto separator = version.find(kPolicyVersionSeparator);
    const std::string recorded_digest =
        separator == std::string::npos ? ""
                                       : version.substr(separator + kPolicyVersionSeparator.size());
    if (recorded_digest != digest) continue;  // written under other policies: write again
    out.emplace(cluster, version.substr(0, separator));
  }
  return out;
}

ClusterVersions versionsWithPolicies(const ClusterVersions& written, const PolicyPatches& patches) {
  ClusterVersions out;
  for (const auto& [cluster, version] : written) {
    const std::string digest = clusterPatchesDigest(patches.forCluster(cluster));
    std::string marked = version;
    // An empty version means the object was deleted: nothing to mark.
    if (!digest.empty() && !version.empty()) marked.append(kPolicyVersionSeparator).append(digest);
    out.emplace(cluster, std::move(marked));
  }
  return out;
}

}  // namespace kf::sync
