#include "cmd/kubefedctl/plan_sources.h"

#include <algorithm>
#include <chrono>

#include "apis/core/propagated_version.h"
#include "apis/core/validation.h"
#include "apis/meta/join.h"
#include "cmd/kubefedctl/host_resources.h"
#include "cmd/kubefedctl/join_objects.h"
#include "cmd/kubefedctl/member_diff.h"
#include "federation/client/discovery.h"
#include "federation/client/resource_client.h"
#include "federation/cluster/cluster_client.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/names.h"
#include "federation/crdgen/type_config.h"
#include "sync/controller/sync_controller.h"
#include "sync/plan/propagated_versions.h"
#include "sync/plan/workload_references.h"

namespace kf::kubefedctl {
namespace {

// Reads and dry runs against one member wait at most this long (one attempt, no retries): an
// unreachable member is reported, not waited for.
constexpr std::chrono::seconds kMemberTimeout{10};

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

// Only the reason of the server's error is kept (not its HTTP code or causes), with what was
// being done in front of its message.
ApiError reasonInContext(const ApiError& error, const std::string& what) {
  return makeError(error.reason, what + ": " + error.message);
}

GroupVersionResource versionsResource(const sync::SyncTypeInfo& type) {
  return type.federated_type.namespaced()
             ? GroupVersionResource{"core.kubefed.io", "v1alpha1", "propagatedversions", true}
             : GroupVersionResource{"core.kubefed.io", "v1alpha1", "clusterpropagatedversions",
                                    false};
}

GroupVersionResource federatedNamespaceResource() {
  return sync::groupVersionResourceOf(sync::defaultFederatedNamespaceType());
}

std::string groupOf(const std::string& api_version) {
  const auto slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

}  // namespace

Result<std::unique_ptr<PlanSources>> PlanSources::load(RestClient& host,
                                                       const std::string& kubefed_namespace) {
  std::unique_ptr<PlanSources> sources(new PlanSources(host, kubefed_namespace));
  KF_TRYV(sources->loadConfig());
  KF_TRYV(sources->loadTypeConfigs());
  KF_TRYV(sources->loadClusters());
  return Result<std::unique_ptr<PlanSources>>(std::move(sources));
}

Status PlanSources::loadConfig() {
  const QualifiedName name{namespace_, kKubeFedConfigName};
  KF_TRY(stored, hostObject(kKubeFedConfigs, name));
  core::KubeFedConfig config;
  if (stored) {
    auto decoded = core::KubeFedConfig::fromJson(*stored);
    if (!decoded) {
      return makeError(Reason::kBadConfig, "cannot read KubeFedConfig " + quoted(name.key()) +
                                               ": " + decoded.error().message);
    }
    config = std::move(decoded).value();
    if (auto errors = core::validateKubeFedConfig(config, nullptr); !errors.empty()) {
      return makeError(Reason::kInvalid, "KubeFedConfig " + quoted(name.key()) +
                                             " is invalid, so the controller manager does not "
                                             "run with it: " +
                                             joinWith(meta::messages(errors), "; "));
    }
  } else {
    // The controller manager creates this one when none exists.
    config.spec.scope = std::string(core::kScopeCluster);
    core::setKubeFedConfigDefaults(config);
  }
  // The controller manager's --feature-gates flag cannot be seen from here: the KubeFedConfig's
  // gates apply over the defaults.
  FeatureGate gates = kubefedFeatureGates();
  KF_TRY(plane, controlPlaneConfigOf(config, namespace_, "", gates, nullptr));
  config_ = std::move(plane);
  return boost::outcome_v2::success();
}

Status PlanSources::loadTypeConfigs() {
  auto listed = ResourceClient(host_, kTypeConfigs, namespace_).listAll({});
  if (!listed) {
    return reasonInContext(
        listed.error(), "cannot list the FederatedTypeConfigs in namespace " + quoted(namespace_) +
                            " (is KubeFed installed there? see --kubefed-namespace)");
  }
  for (const Json& item : listed.value().items) {
    auto ftc = core::FederatedTypeConfig::fromJson(item);
    if (!ftc) continue;  // the controller manager cannot run it either
    core::setFederatedTypeConfigDefaults(ftc.value());
    type_configs_.push_back(std::move(ftc).value());
  }
  return boost::outcome_v2::success();
}

Status PlanSources::loadClusters() {
  auto listed = ResourceClient(host_, kKubeFedClusterKind.resource, namespace_).listAll({});
  if (!listed) {
    return reasonInContext(listed.error(),
                           "cannot list the KubeFedClusters in namespace " + quoted(namespace_));
  }
  for (Json& item : listed.value().items) {
    clusters_.push_back(clusterSnapshotOf(std::make_shared<const Json>(std::move(item))));
  }
  std::sort(clusters_.begin(), clusters_.end(),
            [](const ClusterSnapshot& a, const ClusterSnapshot& b) { return a.name < b.name; });
  return boost::outcome_v2::success();
}

Result<sync::SyncTypeInfo> PlanSources::typeInfoOf(const core::FederatedTypeConfig& ftc) const {
  auto info = sync::syncTypeInfo(ftc, config_);
  if (!info) return reasonInContext(info.error(), "the sync controller cannot run this type");
  return info;
}

Result<sync::SyncTypeInfo> PlanSources::typeNamed(const std::string& name) {
  DiscoveryClient discovery(host_);
  auto resource = lookupApiResource(discovery, name, "");
  if (!resource) {
    return makeError(resource.error().reason,
                     "unknown type " + quoted(name) + ": " + resource.error().message +
                         " (name a federated type, e.g. federatedconfigmaps, or its target type)");
  }
  const ApiResourceInfo& info = resource.value();
  for (const auto& ftc : type_configs_) {
    const auto& federated = ftc.spec.federated_type;
    const auto& target = ftc.spec.target_type;
    if ((federated.plural_name == info.name && federated.group == info.group) ||
        (target.plural_name == info.name && target.group == info.group)) {
      return typeInfoOf(ftc);
    }
  }
  const std::string qualified = groupQualifiedName(info.name, info.group);
  return makeError(Reason::kNotFound, "no FederatedTypeConfig in namespace " + quoted(namespace_) +
                                          " propagates " + qualified +
                                          ": enable its type with `kubefedctl enable`");
}

Result<sync::SyncTypeInfo> PlanSources::typeOfDocument(const Json& document) const {
  const std::string kind = document.value("kind", "");
  const std::string group = groupOf(document.value("apiVersion", ""));
  for (const auto& ftc : type_configs_) {
    if (ftc.spec.federated_type.kind == kind && ftc.spec.federated_type.group == group) {
      return typeInfoOf(ftc);
    }
  }
  return makeError(Reason::kNotFound,
                   "no FederatedTypeConfig in namespace " + quoted(namespace_) +
                       " has the federated type " + quoted(kind) + " of group " + quoted(group) +
                       ": plan takes federated objects (e.g. FederatedDeployment) of enabled "
                       "types; `kubefedctl federate -f` makes them from plain ones");
}

Result<std::optional<Json>> PlanSources::hostObject(const GroupVersionResource& resource,
                                                    const QualifiedName& name) {
  auto found = ResourceClient(host_, resource, resource.namespaced ? name.ns : "").get(name.name);
  if (found) return std::optional<Json>(std::move(found).value());
  if (isNotFound(found.error())) return std::optional<Json>();
  return reasonInContext(found.error(), "cannot read " + resource.resource + " " +
                                            quoted(name.key()) + " on the host cluster");
}

Result<Json> PlanSources::storedObject(const sync::SyncTypeInfo& type, const QualifiedName& name) {
  KF_TRY(found, hostObject(type.federated_resource, name));
  if (!found) {
    return makeError(Reason::kNotFound,
                     type.federated_type.kind + " " + quoted(name.key()) +
                         " not found on the host cluster: check the name and the namespace (-n), "
                         "or plan a new object from a file with -f");
  }
  return std::move(*found);
}

Result<Json> PlanSources::appliedObject(const sync::SyncTypeInfo& type, Json document) {
  const QualifiedName name{objectNamespace(document), objectName(document)};
  KF_TRY(stored, hostObject(type.federated_resource, name));
  if (!stored) {
    document.erase("status");
    document["metadata"]["generation"] = 1;
    return document;
  }
  Json applied = std::move(*stored);
  const Json spec = document.value("spec", Json::object());
  if (applied.value("spec", Json()) != spec) {
    applied["metadata"]["generation"] = objectGeneration(applied) + 1;
  }
  applied["spec"] = spec;
  for (const char* field : {"labels", "annotations"}) {
    if (const Json* value = nestedField(document, {"metadata", field})) {
      applied["metadata"][field] = *value;
    }
  }
  return applied;
}

std::shared_ptr<RestClient> PlanSources::memberClient(const std::string& cluster,
                                                      std::string* error) {
  if (auto known = member_clients_.find(cluster); known != member_clients_.end()) {
    return known->second;
  }
  if (auto failed = member_client_errors_.find(cluster); failed != member_client_errors_.end()) {
    *error = failed->second;
    return nullptr;
  }
  auto snapshot = std::find_if(clusters_.begin(), clusters_.end(),
                               [&](const ClusterSnapshot& c) { return c.name == cluster; });
  auto built = [&]() -> Result<std::shared_ptr<RestClient>> {
    KF_TRY(kubefed_cluster, core::KubeFedCluster::fromJson(*snapshot->object));
    KF_TRY(config, loadClusterConfig(host_, namespace_, kubefed_cluster, kMemberTimeout));
    KF_TRY(clients, makeMemberClients(config, realClock()));
    return clients.probe;
  }();
  if (!built) {
    *error = "cannot connect to member cluster " + quoted(cluster) + ": " +
             built.error().describe() + " (check its KubeFedCluster and secret in namespace " +
             quoted(namespace_) + ")";
    member_client_errors_[cluster] = *error;
    return nullptr;
  }
  member_clients_[cluster] = built.value();
  return built.value();
}

void PlanSources::readMembers(const sync::SyncTypeInfo& type, const QualifiedName& target,
                              sync::ForecastInputs& inputs) {
  for (const ClusterSnapshot& cluster : clusters_) {
    if (!cluster.ready) continue;  // the controller does not read it either
    std::string error;
    std::shared_ptr<RestClient> client = memberClient(cluster.name, &error);
    if (!client) {
      inputs.unreadable[cluster.name] = error;
      continue;
    }
    auto found = ResourceClient(*client, type.target_resource, target.ns).get(target.name);
    if (found) {
      inputs.members[cluster.name] = std::move(found).value();
    } else if (!isNotFound(found.error())) {
      inputs.unreadable[cluster.name] =
          "cannot read " + type.target_type.kind + " " + quoted(target.key()) +
          " in member cluster " + quoted(cluster.name) + ": " + found.error().describe() +
          " (its KubeFedCluster says Ready: check that this machine reaches its API server)";
    }
  }
}

Result<sync::ForecastInputs> PlanSources::forecastInputs(const sync::SyncTypeInfo& type,
                                                         const Json& federated_object) {
  sync::ForecastInputs inputs;
  inputs.type = type;
  inputs.federated_object = federated_object;
  inputs.clusters = clusters_;
  inputs.now = std::chrono::system_clock::now();
  const QualifiedName federated{objectNamespace(federated_object), objectName(federated_object)};
  if (type.targetNamespaced()) {
    KF_TRY(federated_namespace,
           hostObject(federatedNamespaceResource(), QualifiedName{federated.ns, federated.ns}));
    inputs.federated_namespace = std::move(federated_namespace);
  }
  KF_TRY(stored_versions,
         hostObject(versionsResource(type),
                    sync::propagatedVersionName(type.target_type.kind, federated)));
  if (stored_versions) {
    // Unreadable versions count as none, as the controller treats them.
    auto parsed = core::PropagatedVersion::fromJson(*stored_versions);
    if (parsed && parsed.value().status) inputs.recorded = *parsed.value().status;
  }
  const QualifiedName target{type.target_is_namespace ? "" : federated.ns, federated.name};
  if (type.target_is_namespace) {
    KF_TRY(host_namespace, hostObject(kNamespaces, QualifiedName{"", federated.name}));
    if (host_namespace) inputs.host_namespace_uid = objectUid(*host_namespace);
  }
  KF_TRY(policies, policies_.forNamespace(federated.ns));
  inputs.override_policies = std::move(policies);
  if (sync::followsModeOf(federated_object) == sync::FollowsMode::kWorkloads &&
      type.targetNamespaced()) {
    KF_TRY(workloads, federatedWorkloads(federated.ns));
    inputs.federated_workloads = std::move(workloads);
  }
  readMembers(type, target, inputs);
  return inputs;
}

Result<std::vector<Json>> PlanSources::federatedWorkloads(const std::string& ns) {
  std::vector<Json> out;
  DiscoveryClient discovery(host_);
  auto resources = discovery.resources(sync::kFederatedTypesGroup, sync::kFederatedTypesVersion);
  if (!resources) {
    return withContext(resources.error(), "finding the federated workload types");
  }
  for (const ApiResourceInfo& resource : resources.value()) {
    if (!sync::isFederatedWorkloadKind(resource.kind) ||
        resource.name.find('/') != std::string::npos) {
      continue;
    }
    auto listed = ResourceClient(host_, resource.gvr(), ns).list({});
    if (!listed) return withContext(listed.error(), "listing " + resource.name);
    for (Json& item : listed.value().items) {
      item["kind"] = resource.kind;  // list items may come without it
      out.push_back(std::move(item));
    }
  }
  return out;
}

void PlanSources::addDiffs(const sync::SyncTypeInfo& type, ObjectPlan& plan) {
  const std::string target_ns = type.target_is_namespace ? "" : plan.name.ns;
  const std::string key = QualifiedName{target_ns, plan.name.name}.key();
  for (const sync::MemberForecast& member : plan.forecast.clusters) {
    if (member.desired.is_null()) continue;
    // The server's view of the write (defaults, admission) when a dry run is possible.
    Json written = member.desired;
    std::string error;
    if (auto client = memberClient(member.cluster, &error)) {
      ResourceClient objects(*client, type.target_resource, target_ns);
      auto dry_run = member.action == sync::MemberAction::kCreate
                         ? objects.create(member.desired, WriteOptions{.dry_run = true})
                     : member.server_side
                         ? objects.apply(member.desired,
                                         ApplyOptions{.field_manager = sync::kApplyFieldManager,
                                                      .dry_run = true})
                         : objects.update(member.desired, WriteOptions{.dry_run = true});
      if (dry_run) {
        written = std::move(dry_run).value();
      } else {
        error = dry_run.error().describe();
      }
    }
    if (!error.empty()) {
      plan.notes[member.cluster] = "the server's dry run failed (" + error +
                                   "): the diff shows the object as the controller would send "
                                   "it, without the server's defaults";
    }
    plan.diffs[member.cluster] =
        memberDiff(type.target_type, member.live, std::move(written),
                   member.cluster + ": " + type.target_type.kind + " " + key);
  }
}

Result<ObjectPlan> PlanSources::plan(const sync::SyncTypeInfo& type, const Json& federated_object) {
  KF_TRY(inputs, forecastInputs(type, federated_object));
  ObjectPlan plan;
  plan.kind = type.federated_type.kind;
  plan.name = QualifiedName{objectNamespace(federated_object), objectName(federated_object)};
  plan.target_kind = type.target_type.kind;
  plan.forecast = sync::forecastPropagation(inputs);
  addDiffs(type, plan);
  return plan;
}

}  // namespace kf::kubefedctl
