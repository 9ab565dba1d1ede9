#pragma once
// The KubeFedCluster controller (spec §2.4): keeps a client per member cluster, probes each
// member's /healthz once per health period, writes the smoothed Ready/Offline conditions to the
// KubeFedCluster's status when they changed, and keeps the ClusterRegistry in step so other
// controllers learn when clusters join, leave or change readiness.
//
// A reconciler on the controller runtime: each cluster is its own key, probed again one period
// after its previous probe ended (KubeFed lists every cluster and probes them all once per round);
// a change of a cluster's spec, labels or annotations rebuilds its client and probes it at once.
// A fixed number of workers probe; a slow member holds up one of them for at most the timeout.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "apis/core/kubefed_cluster.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/cluster/health.h"
#include "federation/controller/controller.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct KubeFedClusterControllerOptions {
  std::string kubefed_namespace = "kube-federation-system";
  // KubeFedConfig spec.clusterHealthCheck, with KubeFed's defaults; all must be positive (the
  // KubeFedConfig validation ensures it).
  Duration period = std::chrono::seconds(10);
  Duration timeout = std::chrono::seconds(3);
  int failure_threshold = 3;
  int success_threshold = 1;
  // Clusters probed at the same time.
  int workers = 4;
  // The member clients' limits (KubeFed: 20/30), given to the clients the default factory makes.
  double member_qps = kMemberQps;
  int member_burst = kMemberBurst;
  // The KubeFedCluster informer's pools (its lists and watch opens, its handler calls); null:
  // memberIoPool(), dispatchPool().
  TaskPool* member_io = nullptr;
  TaskPool* dispatch = nullptr;
};

// Builds the clients of one member cluster. The default reads the cluster's Secret through the
// host client and creates network clients (loadClusterConfig + makeMemberClients).
using MemberClientFactory = std::function<Result<MemberClients>(const core::KubeFedCluster&)>;

// Every reference must outlive the reconciler.
struct KubeFedClusterDeps {
  const Store& cache;  // KubeFedClusters of the KubeFed namespace
  RestClient& host;
  ClusterRegistry& registry;
  EventRecorder& events;
  Clock& clock;
  MemberClientFactory client_factory;  // empty: the default
};

class KubeFedClusterReconciler final : public Reconciler {
 public:
  KubeFedClusterReconciler(KubeFedClusterControllerOptions options, KubeFedClusterDeps deps);

  // Probes the cluster `key` names and writes its status; requeued after the period, to be
  // probed again. A cluster gone from the cache leaves the registry.
  ReconcileResult reconcile(const std::string& key) override;

  // Whether each of `keys` was reconciled at least once: its cluster is in the registry, or is
  // known not to belong there (unreadable, gone, another namespace).
  bool reconciledEach(const std::vector<std::string>& keys) const KF_EXCLUDES(mu_);

 private:
  // What the reconciler keeps per cluster while it has clients for it.
  struct Member {
    ObjectPtr built_from;  // the KubeFedCluster the clients were built from
    MemberClients clients;
    std::optional<SmoothingState> health;
    std::string unreachable;  // why the last probe failed (unreachableMessage), "" after success
  };
  using MemberPtr = std::shared_ptr<Member>;

  ReconcileResult reconcileCluster(const std::string& key);
  void forget(const std::string& name) KF_EXCLUDES(mu_);
  // The member for `object`, built (again) when missing or when its spec, labels or annotations
  // changed; null when it cannot be built (a MalformedClusterConfig event says why).
  MemberPtr ensureMember(const core::KubeFedCluster& cluster, const ObjectPtr& object)
      KF_EXCLUDES(mu_);
  HealthzOutcome probe(RestClient& client);
  std::vector<core::ClusterCondition> probeAndSmooth(const std::string& name, Member& member,
                                                     const Json& object);
  void reportTransition(const Json& object, const std::vector<core::ClusterCondition>& effective,
                        const Member& member);
  // Writes the conditions unless the status holds them already; the object as stored after.
  ObjectPtr writeStatusIfChanged(const ObjectPtr& object,
                                 const std::vector<core::ClusterCondition>& conditions);
  void publish(const ObjectPtr& object, const MemberPtr& member);

  const KubeFedClusterControllerOptions options_;
  KubeFedClusterDeps deps_;
  mutable Mutex mu_;
  std::map<std::string, MemberPtr> members_ KF_GUARDED_BY(mu_);
  std::set<std::string> reconciled_ KF_GUARDED_BY(mu_);  // keys reconciled at least once
};

class KubeFedClusterController final : public Runnable {
 public:
  // Every reference must outlive the controller.
  KubeFedClusterController(KubeFedClusterControllerOptions options, RestClient& host,
                           ClusterRegistry& registry, EventRecorder& events, Clock& clock,
                           MemberClientFactory client_factory = {});
  // stop().
  ~KubeFedClusterController() override;

  // Starts the KubeFedCluster informer and the workers; every cluster is probed at once.
  Status start() override;
  // Stops the informer and the workers and joins them; a probe in progress finishes first (each
  // is bounded by the timeout). Idempotent.
  void stop() override;

 private:
  const std::string namespace_;
  ClusterRegistry& registry_;
  ControllerPtr controller_;
};

}  // namespace kf
