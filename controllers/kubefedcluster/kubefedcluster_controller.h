#pragma once
// The KubeFedCluster controller (spec §2.4): keeps a client per member cluster, probes every
// member's /healthz each period, writes the smoothed Ready/Offline conditions to each
// KubeFedCluster's status, and keeps the ClusterRegistry in step so other controllers learn when
// clusters join, leave or change readiness.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "apis/core/kubefed_cluster.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/cluster/health.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"
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
};

// Builds the clients of one member cluster. The default reads the cluster's Secret through the
// host client and creates network clients (loadClusterConfig + makeMemberClients).
using MemberClientFactory = std::function<Result<MemberClients>(const core::KubeFedCluster&)>;

class KubeFedClusterController {
 public:
  // Every reference must outlive the controller.
  KubeFedClusterController(KubeFedClusterControllerOptions options, RestClient& host,
                           ClusterRegistry& registry, EventRecorder& events, Clock& clock,
                           MemberClientFactory client_factory = {});
  // stop().
  ~KubeFedClusterController();
  KubeFedClusterController(const KubeFedClusterController&) = delete;
  KubeFedClusterController& operator=(const KubeFedClusterController&) = delete;

  // Starts the KubeFedCluster informer and the health-check loop (a round at once, then one
  // every period after the previous round ended). A second call, or a call after stop(), does
  // nothing.
  void start() KF_EXCLUDES(lifecycle_mu_);
  // Stops the loop and the informer and joins every thread they started; a round in progress
  // finishes first (each probe is bounded by the timeout). Idempotent.
  void stop() KF_EXCLUDES(lifecycle_mu_);

  // One health-check round: lists the KubeFedClusters from the API, builds missing clients,
  // probes every cluster concurrently, and writes each status. Blocks until every probe and
  // write is done. start() calls it every period; tests call it directly.
  void checkClusterHealth() KF_EXCLUDES(build_mu_, mu_, publish_mu_);

  // The informer's handlers. Public so that tests can drive the controller without an
  // informer; called on the informer's dispatch thread otherwise.
  void clusterAdded(const ObjectPtr& object) KF_EXCLUDES(build_mu_, mu_, publish_mu_);
  void clusterUpdated(const ObjectPtr& object) KF_EXCLUDES(build_mu_, mu_, publish_mu_);
  void clusterDeleted(const ObjectPtr& last_known) KF_EXCLUDES(mu_, publish_mu_);

 private:
  // What the controller keeps per cluster while it has clients for it.
  struct Member {
    ObjectPtr built_from;  // the KubeFedCluster the clients were built from
    MemberClients clients;
    std::optional<SmoothingState> health;  // guarded by the controller's mu_
  };
  using MemberPtr = std::shared_ptr<Member>;

  struct ProbeTarget {
    ObjectPtr object;  // as listed this round
    core::KubeFedCluster cluster;
    MemberPtr member;
  };

  std::optional<ProbeTarget> prepareTarget(Json listed) KF_EXCLUDES(build_mu_, mu_, publish_mu_);
  // Drops members of clusters that are neither listed nor known to the informer (deleted while
  // a round was building their clients).
  void pruneMembers(const std::vector<ProbeTarget>& listed) KF_EXCLUDES(mu_);
  // The member for the cluster `object` names, built (again) when missing or when its spec,
  // labels or annotations changed; null when it cannot be built (a MalformedClusterConfig event
  // says why).
  MemberPtr ensureMember(const ObjectPtr& object) KF_EXCLUDES(build_mu_, mu_, publish_mu_);
  MemberPtr buildMember(const core::KubeFedCluster& cluster, const ObjectPtr& object);
  void checkOne(const ProbeTarget& target) KF_EXCLUDES(mu_);
  HealthzOutcome probe(RestClient& client);
  void reportTransition(const ProbeTarget& target,
                        const std::vector<core::ClusterCondition>& effective);
  void writeStatus(const ProbeTarget& target,
                   const std::vector<core::ClusterCondition>& conditions);
  // Brings the registry in step with the latest informer object and the member's client.
  void publish(const std::string& name) KF_EXCLUDES(mu_, publish_mu_);
  void runLoop(const std::stop_token& stop);
  // Waits one period on the injected clock; false when stopped first.
  bool waitPeriod(const std::stop_token& stop);

  const KubeFedClusterControllerOptions options_;
  RestClient& host_;
  ClusterRegistry& registry_;
  EventRecorder& events_;
  Clock& clock_;
  MemberClientFactory client_factory_;

  mutable Mutex mu_;
  std::map<std::string, MemberPtr> members_ KF_GUARDED_BY(mu_);
  // The latest KubeFedCluster the informer delivered, per name: what the registry publishes.
  std::map<std::string, ObjectPtr> latest_ KF_GUARDED_BY(mu_);
  // Serialises registry writes so that they follow the informer's order.
  Mutex publish_mu_;
  // Held while looking for and building a member (taken before mu_), so that the informer and a
  // round never build clients for the same cluster twice.
  Mutex build_mu_;

  Mutex lifecycle_mu_;  // start() and stop(); never taken by the threads they start or join
  bool started_ KF_GUARDED_BY(lifecycle_mu_) = false;
  bool stopped_ KF_GUARDED_BY(lifecycle_mu_) = false;
  std::unique_ptr<SharedInformer> informer_ KF_GUARDED_BY(lifecycle_mu_);
  std::jthread loop_ KF_GUARDED_BY(lifecycle_mu_);
};

}  // namespace kf
