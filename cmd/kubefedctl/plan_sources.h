#pragma once
// Where `kubefedctl plan` reads what the sync controller reads: the KubeFedConfig, the
// FederatedTypeConfigs and the KubeFedClusters of the KubeFed namespace; the federated object,
// its FederatedNamespace and its PropagatedVersion on the host; and the object in every ready
// member cluster, through the same KubeFedCluster credentials the controller uses. It only
// reads: the diffs come from server-side dry runs (dryRun=All), which persist nothing.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cmd/kubefedctl/plan_policies.h"
#include "cmd/kubefedctl/plan_report.h"
#include "federation/client/rest_client.h"
#include "sync/controller/sync_context.h"

namespace kf::kubefedctl {

class PlanSources {
 public:
  // Reads the KubeFedConfig (KubeFed's defaults when there is none, as the controller manager
  // creates it), the FederatedTypeConfigs and the KubeFedClusters of `kubefed_namespace`.
  static Result<std::unique_ptr<PlanSources>> load(RestClient& host,
                                                   const std::string& kubefed_namespace);

  // The type TYPE names: its federated type or its target type, by any name `enable` accepts.
  Result<sync::SyncTypeInfo> typeNamed(const std::string& name);
  // The type of a federated object read from a file, by the group of its apiVersion and kind.
  Result<sync::SyncTypeInfo> typeOfDocument(const Json& document) const;

  // The stored federated object; NotFound saying what to do when it does not exist.
  Result<Json> storedObject(const sync::SyncTypeInfo& type, const QualifiedName& name);
  // `document` applied over the stored object of that name (spec, labels and annotations
  // replaced), or as a new object when none is stored.
  Result<Json> appliedObject(const sync::SyncTypeInfo& type, Json document);

  // What the sync controller would do with `federated_object`.
  Result<ObjectPlan> plan(const sync::SyncTypeInfo& type, const Json& federated_object);

 private:
  PlanSources(RestClient& host, std::string kubefed_namespace)
      : host_(host), namespace_(std::move(kubefed_namespace)) {}

  Status loadConfig();
  Status loadTypeConfigs();
  Status loadClusters();
  Result<sync::SyncTypeInfo> typeInfoOf(const core::FederatedTypeConfig& ftc) const;
  // The object `name` of `resource` on the host; nullopt when it does not exist.
  Result<std::optional<Json>> hostObject(const GroupVersionResource& resource,
                                         const QualifiedName& name);
  Result<sync::ForecastInputs> forecastInputs(const sync::SyncTypeInfo& type,
                                              const Json& federated_object);
  void readMembers(const sync::SyncTypeInfo& type, const QualifiedName& target,
                   sync::ForecastInputs& inputs);
  // The federated workloads of namespace `ns` (for an object that follows them): one discovery
  // GET and one LIST per federated workload type the host serves.
  Result<std::vector<Json>> federatedWorkloads(const std::string& ns);
  // The member client of a ready cluster, built once; null with *error set when it cannot be.
  std::shared_ptr<RestClient> memberClient(const std::string& cluster, std::string* error);
  void addDiffs(const sync::SyncTypeInfo& type, ObjectPlan& plan);

  RestClient& host_;
  const std::string namespace_;
  ControlPlaneConfig config_;
  std::vector<core::FederatedTypeConfig> type_configs_;
  std::vector<ClusterSnapshot> clusters_;
  std::map<std::string, std::shared_ptr<RestClient>> member_clients_;
  std::map<std::string, std::string> member_client_errors_;
  PlanPolicies policies_{host_};  // override policies, an addition
};

}  // namespace kf::kubefedctl
