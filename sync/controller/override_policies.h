#pragma once
// The override policies of one sync controller's federated kind (apis/policy/override_policy.h,
// sync/plan/override_policy.h): watched on the host, read by each propagation pass, and given
// the status and events that say where they could not be applied.
//
// Opt-in by installation: when the host serves no policy.kubefed-cpp.io/v1alpha1 (the chart's
// CRDs absent) it is inactive: no informer, no source, no status, and the sync controller runs
// as KubeFed's. Finding that out costs one discovery GET when the sync controller starts; CRDs
// installed later take effect when the controller restarts. ClusterOverridePolicies are not
// watched by a namespace-scoped control plane, whose Role cannot list them.

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "apis/policy/override_policy.h"
#include "federation/client/rest_client.h"
#include "federation/controller/handler.h"
#include "federation/controller/source.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/thread_annotations.h"
#include "sync/plan/override_policy.h"
#include "sync/plan/override_policy_status.h"

namespace kf::sync {

struct OverridePoliciesOptions {
  std::string federated_kind;    // the kind the controller propagates, e.g. FederatedDeployment
  std::string target_namespace;  // "" = every namespace (a cluster-scoped control plane)
};

class OverridePolicies {
 public:
  // Leases the policy informers when the host serves the policy API; never fails (a failed
  // discovery is logged and leaves it inactive).
  static std::unique_ptr<OverridePolicies> start(const OverridePoliciesOptions& options,
                                                 InformerManager& informers,
                                                 std::shared_ptr<RestClient> host,
                                                 EventRecorderPtr recorder);
  ~OverridePolicies();
  OverridePolicies(const OverridePolicies&) = delete;
  OverridePolicies& operator=(const OverridePolicies&) = delete;

  bool active() const { return static_cast<bool>(namespaced_); }
  bool synced() const;

  // Sources over the policy informers; null when inactive (or, for the cluster-scoped kind, not
  // watched).
  SourcePtr namespacedSource() const;
  SourcePtr clusterSource() const;
  // The handler of both sources: `keys()` (the controller's federated objects) for a policy of
  // this kind, or one that was applied here before; only spec, label and deletion changes count
  // (not the status this writes). Valid while this lives.
  Handler policyHandler(std::function<std::vector<std::string>()> keys) const;
  // For the cluster-labels source: `keys()` while any policy of this kind exists, else nothing.
  std::function<std::vector<std::string>()> whilePoliciesExist(
      std::function<std::vector<std::string>()> keys) const;

  // The valid policies of this kind. An invalid one is left out, with the InvalidSpec status
  // and one Warning event per generation.
  std::vector<policy::OverridePolicy> current() KF_EXCLUDES(mu_);

  // After a pass over `federated_object` (key `object_key`): its failures replace those recorded
  // for it, each new one is a Warning event on the policy and on the object, and the status of
  // every policy concerned is written when it changed. `exists` says whether a federated object
  // is still cached (failures of deleted objects are dropped).
  void record(const Json& federated_object, const PolicyPatches& patches,
              const std::function<bool(const std::string&)>& exists) KF_EXCLUDES(mu_, write_mu_);

 private:
  OverridePolicies() = default;
  bool ofThisKind(const Json& policy_object) const KF_EXCLUDES(mu_);
  ObjectPtr cachedPolicy(const std::string& description) const;
  void writeStatus(const Json& policy_object, Json status) KF_REQUIRES(write_mu_);
  void warnInvalid(const Json& policy_object, const std::string& error) KF_EXCLUDES(mu_);

  OverridePoliciesOptions options_;
  std::shared_ptr<RestClient> host_;
  EventRecorderPtr recorder_;
  InformerLease namespaced_;
  InformerLease cluster_scoped_;
  mutable Mutex mu_;
  // describe() of a policy -> its failures by (object, cluster).
  std::map<std::string, PolicyFailureBook> failures_ KF_GUARDED_BY(mu_);
  std::set<std::pair<std::string, std::int64_t>> warned_invalid_ KF_GUARDED_BY(mu_);
  // Serialises status writes, so that a newer book is never overwritten by an older one.
  Mutex write_mu_;
  std::map<std::string, Json> written_ KF_GUARDED_BY(write_mu_);  // describe() -> status
};

}  // namespace kf::sync
