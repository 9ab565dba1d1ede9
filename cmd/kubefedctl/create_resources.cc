#include "cmd/kubefedctl/create_resources.h"

#include <optional>
#include <set>

#include "cmd/kubefedctl/host_resources.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/names.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf::kubefedctl {
namespace {

// How often `enable` looks whether its CRD is Established yet.
constexpr std::chrono::milliseconds kEstablishedPollInterval{200};

Json toJson(const OrderedJson& value) { return Json::parse(value.dump()); }

std::string field(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// Same plural, each side in the list of group/versions known to serve one API.
const std::vector<std::pair<std::string, std::set<std::string>>>& equivalenceTable() {
  static const std::vector<std::pair<std::string, std::set<std::string>>> table = {
      {"deployments", {"apps/v1", "apps/v1beta1", "apps/v1beta2", "extensions/v1beta1"}},
      {"daemonsets", {"apps/v1", "apps/v1beta1", "apps/v1beta2", "extensions/v1beta1"}},
      {"replicasets", {"apps/v1", "apps/v1beta1", "apps/v1beta2", "extensions/v1beta1"}},
      {"statefulsets", {"apps/v1", "apps/v1beta1", "apps/v1beta2"}},
      {"networkpolicies", {"networking.k8s.io/v1", "extensions/v1beta1"}},
      {"podsecuritypolicies", {"policy/v1beta1", "extensions/v1beta1"}},
      {"ingresses", {"networking.k8s.io/v1beta1", "extensions/v1beta1"}},
  };
  return table;
}

std::string groupVersion(const Json& api_resource) {
  return field(api_resource, "group") + "/" + field(api_resource, "version");
}

Status requireNamespace(RestClient& client, const std::string& ns) {
  auto found = ResourceClient(client, kNamespaces).get(ns);
  if (found) return boost::outcome_v2::success();
  if (isNotFound(found.error())) {
    return makeError(Reason::kNotFound, "KubeFed system namespace \"" + ns + "\" does not exist");
  }
  return found.error();
}

// An existing FTC may not be switched to another federated type.
Status checkFederatedTypeUnchanged(const Json& existing, const Json& wanted) {
  const Json& have = existing["spec"]["federatedType"];
  const Json& want = wanted["spec"]["federatedType"];
  auto describe = [](const Json& t) {
    return field(t, "pluralName") + "." + field(t, "group") + "/" + field(t, "version");
  };
  if (describe(have) == describe(want)) return boost::outcome_v2::success();
  return makeError(Reason::kInvalid, "Federation is already enabled for \"" + objectName(existing) +
                                         "\" with federated type \"" + describe(have) +
                                         "\". Changing the federated type to \"" + describe(want) +
                                         "\" is not supported.");
}

// An existing federated CRD may only be rewritten for the FTC that owns it.
Status checkCrdNotClaimed(const ObjectList& type_configs, const Json& wanted,
                          const std::string& crd_name) {
  const Json& target = wanted["spec"]["targetType"];
  for (const auto& other : type_configs.items) {
    if (objectName(other) == objectName(wanted)) continue;
    const Json& other_target = other["spec"]["targetType"];
    if (equivalentApis(target, other_target)) {
      return makeError(Reason::kInvalid,
                       "Failed to enable \"" + objectName(wanted) +
                           "\". Federation of this type is already enabled for equivalent type \"" +
                           groupVersion(other_target) + "\" by FederatedTypeConfig \"" +
                           objectName(other) + "\"");
    }
    const Json& fed = other["spec"]["federatedType"];
    if (field(fed, "pluralName") + "." + field(fed, "group") == crd_name) {
      return makeError(Reason::kInvalid,
                       "Failed to enable \"" + objectName(wanted) + "\". The federated type \"" +
                           crd_name + "\" is already in use by FederatedTypeConfig \"" +
                           objectName(other) +
                           "\". Use a non-default --federated-group to enable a different type.");
    }
  }
  return boost::outcome_v2::success();
}

Status writeCrd(RestClient& client, const Json& crd, const ObjectList& type_configs,
                const Json& type_config, std::ostream& out) {
  ResourceClient crds(client, kCrds);
  const std::string name = objectName(crd);
  auto existing = crds.get(name);
  if (!existing && !isNotFound(existing.error())) return existing.error();
  if (!existing) {
    KF_TRYV(crds.create(crd));
    out << "customresourcedefinition.apiextensions.k8s.io/" << name << " created\n";
    return boost::outcome_v2::success();
  }
  KF_TRYV(checkCrdNotClaimed(type_configs, type_config, name));
  Json updated = existing.value();
  updated["spec"] = crd["spec"];
  KF_TRYV(crds.update(updated));
  out << "customresourcedefinition.apiextensions.k8s.io/" << name << " updated\n";
  return boost::outcome_v2::success();
}

bool isEstablished(const Json& crd) {
  for (const auto& condition :
       crd.value("status", Json::object()).value("conditions", Json::array())) {
    if (condition.value("type", "") == "Established" && condition.value("status", "") == "True") {
      return true;
    }
  }
  return false;
}

Status writeTypeConfig(ResourceClient& type_configs, const Json& type_config, bool exists,
                       const std::string& ns, std::ostream& out) {
  const std::string name = objectName(type_config);
  if (exists) {
    const std::string patch = Json{{"spec", type_config["spec"]}}.dump();
    KF_TRYV(type_configs.patch(name, PatchType::kMerge, patch));
    out << "federatedtypeconfig.core.kubefed.io/" << name << " updated in namespace " << ns << "\n";
    return boost::outcome_v2::success();
  }
  KF_TRYV(type_configs.create(type_config));
  out << "federatedtypeconfig.core.kubefed.io/" << name << " created in namespace " << ns << "\n";
  return boost::outcome_v2::success();
}

}  // namespace

Status waitEstablished(RestClient& client, const std::string& name,
                       std::chrono::milliseconds timeout) {
  ResourceClient crds(client, kCrds);
  std::optional<ApiError> failed;
  const bool established = pollImmediate(client.clock(), kEstablishedPollInterval, timeout, [&] {
    auto crd = crds.get(name);
    if (!crd && !isNotFound(crd.error())) failed = crd.error();
    return failed || (crd && isEstablished(crd.value()));
  });
  if (failed) return *failed;
  if (!established) {
    return makeError(Reason::kTimeout, "timed out waiting for CustomResourceDefinition \"" + name +
                                           "\" to be established");
  }
  return boost::outcome_v2::success();
}

bool equivalentApis(const Json& a, const Json& b) {
  const std::string plural = field(a, "pluralName");
  if (plural != field(b, "pluralName") || groupVersion(a) == groupVersion(b)) return false;
  for (const auto& [name, group_versions] : equivalenceTable()) {
    if (name == plural) {
      return group_versions.count(groupVersion(a)) > 0 && group_versions.count(groupVersion(b)) > 0;
    }
  }
  return false;
}

Status createResources(RestClient& client, const EnableResources& resources,
                       const CreateOptions& options, std::ostream& out) {
  const std::string& ns = options.kubefed_namespace;
  KF_TRYV(requireNamespace(client, ns));

  Json type_config = toJson(resources.type_config);
  type_config["metadata"]["namespace"] = ns;
  const Json crd = toJson(resources.crd);

  ResourceClient type_configs(client, kTypeConfigs, ns);
  auto existing = type_configs.get(objectName(type_config));
  if (!existing && !isNotFound(existing.error())) return existing.error();
  if (existing) {
    KF_TRYV(checkFederatedTypeUnchanged(existing.value(), type_config));
  }
  if (options.dry_run) return boost::outcome_v2::success();

  auto all = type_configs.listAll({});
  if (!all && !isNotFound(all.error())) return all.error();
  const ObjectList listed = all ? all.value() : ObjectList{};
  KF_TRYV(writeCrd(client, crd, listed, type_config, out));
  KF_TRYV(waitEstablished(client, objectName(crd), options.established_timeout));
  return writeTypeConfig(type_configs, type_config, static_cast<bool>(existing), ns, out);
}

}  // namespace kf::kubefedctl
