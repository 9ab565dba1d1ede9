#pragma once
// The federated workloads that objects of one sync controller's type follow (beyond KubeFed,
// opt-in by kubefed-cpp.io/placement-follows: workloads, sync/plan/workload_references.h): an
// index from a referenced name to the workloads that reference it, kept by the workload
// informers' events, and the source that queues a follower again when a workload referencing it
// (before or after the change) is added, changed or deleted.
//
// Inactive until a pass meets the first object that follows (activate()): only then does it ask
// the host which federated workload types it serves (one discovery GET of types.kubefed.io/
// v1beta1) and lease their informers (the keys the workloads' own sync controllers lease, so
// that they share one list/watch). Without the annotation no request is made and nothing is
// watched. Types enabled after activation are not seen until the controller restarts.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"
#include "federation/controller/handler.h"
#include "federation/controller/source.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

struct WorkloadFollowersOptions {
  std::string target_kind;       // the followers' kind, e.g. ConfigMap
  std::string target_namespace;  // "" = every namespace
};

// A federated workload that references a follower, as cached.
struct CachedWorkload {
  std::string kind;  // e.g. FederatedDeployment
  ObjectPtr object;
};

class WorkloadFollowers : public std::enable_shared_from_this<WorkloadFollowers> {
 public:
  // `follows(key)`: whether the federated object of that key is cached and follows workloads
  // (only those are queued).
  WorkloadFollowers(WorkloadFollowersOptions options, InformerManager& informers,
                    std::shared_ptr<RestClient> host,
                    std::function<bool(const std::string& key)> follows);
  ~WorkloadFollowers();
  WorkloadFollowers(const WorkloadFollowers&) = delete;
  WorkloadFollowers& operator=(const WorkloadFollowers&) = delete;

  // For the controller's builder: queues, with the handler, the followers whose referencing
  // workloads changed. It may outlive this (the controller drops its sources after its
  // reconciler), and then does nothing. Only on an object owned by a shared_ptr.
  SourcePtr source();

  // Discovers and leases the workload informers, once; later calls return the first outcome.
  Status activate() KF_EXCLUDES(activation_mu_, mu_);
  // Active, and every workload informer listed and indexed.
  bool synced() const KF_EXCLUDES(activation_mu_);
  // The cached workloads referencing the follower `ns/name`.
  std::vector<CachedWorkload> referencing(const std::string& follower_key) const KF_EXCLUDES(mu_);

 private:
  class FollowerSource;
  struct Watched {
    std::string kind;
    InformerLease lease;
    HandlerId handler = 0;
  };

  // Replaces the index entries of workload `ref` by `followers`; queues both old and new ones.
  void reindex(const std::string& ref, std::set<std::string> followers) KF_EXCLUDES(mu_);
  void watch(std::size_t index) KF_REQUIRES(activation_mu_);
  void queue(const std::set<std::string>& followers) KF_EXCLUDES(mu_);
  void startSource(EnqueueTarget& target, Handler handler) KF_EXCLUDES(mu_);
  void stopSource() KF_EXCLUDES(mu_);

  WorkloadFollowersOptions options_;
  InformerManager& informers_;
  std::shared_ptr<RestClient> host_;
  std::function<bool(const std::string&)> follows_;

  mutable Mutex activation_mu_;
  std::optional<Status> activated_ KF_GUARDED_BY(activation_mu_);
  std::vector<Watched> watched_ KF_GUARDED_BY(activation_mu_);

  mutable Mutex mu_;
  EnqueueTarget* target_ KF_GUARDED_BY(mu_) = nullptr;
  std::optional<Handler> handler_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
  // "<index of watched_>|<workload key>" -> follower keys it references, and the reverse.
  std::map<std::string, std::set<std::string>> followers_of_ KF_GUARDED_BY(mu_);
  std::map<std::string, std::set<std::string>> workloads_of_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::sync
