#pragma once
// The bookkeeping of one reconcile's member-cluster operations (spec §2.5.6): operations run in
// parallel on the clusters' executors; each cluster starts with a provisional "<Op>TimedOut"
// status that only a failure replaces; all operations share one deadline (KubeFed's 30 s).
//
// When every operation finished in time, the provisional statuses resolve (statusAfterWait):
// created/updated -> OK, deleted -> WaitingForRemoval, label removed -> no entry. After the
// deadline the statuses stay as they are, results that arrive later are ignored, and operations
// still queued behind a slow cluster are dropped without running.
//
// One addition to KubeFed's rule: when every operation still pending is on a cluster that has
// answered nothing for kUnresponsiveAfter while requests to it were outstanding (a frozen or
// overloaded API server; ClusterExecutors::unresponsive), the wait ends then, as if the deadline
// had passed. Until the cluster health check reports such a cluster not Ready (about 30 s), each
// reconcile that includes it would otherwise hold its worker for the whole deadline, and with
// KubeFed's one worker per type every other cluster would wait too.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "federation/client/list_options.h"
#include "federation/runtime/clock.h"
#include "sync/io/cluster_executors.h"
#include "sync/plan/federated_status.h"
#include "sync/plan/operation_kind.h"
#include "sync/plan/propagation_status.h"

namespace kf::sync {

// How long a cluster may leave every request unanswered before a wait stops waiting for it.
inline constexpr Duration kUnresponsiveAfter = std::chrono::seconds(5);

struct DispatchOutcome {
  // Some operation did not finish: the deadline passed, the clusters they were on stopped
  // answering, or the executors stopped first.
  bool timed_out = false;
  // The clusters the wait stopped waiting for before the deadline, because they answer nothing.
  std::vector<std::string> unresponsive;
  std::map<std::string, ClusterOutcome> clusters;
  // cluster -> objectVersion() of the object an operation wrote.
  std::map<std::string, std::string> versions;
  // An update was written to some member this pass.
  bool resources_updated = false;
};

// What an operation reports while it runs (on a thread of the executors' pool). Reports made after
// the batch finished waiting are ignored.
class OperationReport {
 public:
  const std::string& cluster() const { return cluster_; }
  void fail(PropagationStatus status);
  // The member object as this operation last saw it: its `.status` (null when it has none)
  // becomes the cluster's remote status.
  void sawObject(const Json& object);
  void recordVersion(std::string version);
  void markResourcesUpdated();
  // The operation continues as another kind (a create that adopts an existing object updates
  // it): the cluster's provisional status becomes that kind's.
  void continueAs(OperationKind kind);

 private:
  friend class Dispatcher;
  struct Batch;
  OperationReport(std::shared_ptr<Batch> batch, std::string cluster)
      : batch_(std::move(batch)), cluster_(std::move(cluster)) {}

  std::shared_ptr<Batch> batch_;
  std::string cluster_;
};

using Operation = std::function<void(OperationReport& report)>;

class Dispatcher {
 public:
  // The deadline starts now.
  Dispatcher(ClusterExecutors& executors, Clock& clock, Duration timeout,
             Duration unresponsive_after = kUnresponsiveAfter);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // A status decided without an operation (ClusterNotReady, WaitingForRemoval, ...).
  void recordStatus(const std::string& cluster, PropagationStatus status,
                    std::optional<Json> remote_status = std::nullopt);
  // Gives `cluster` the kind's provisional status and queues `operation` on its executor.
  void dispatch(const std::string& cluster, OperationKind kind, Operation operation);
  // Blocks until every operation finished or the deadline passed. Call once.
  DispatchOutcome wait();

 private:
  // The clusters of the pending operations, when every one of them is unresponsive (else empty).
  std::vector<std::string> unresponsivePendingClusters() const;

  ClusterExecutors& executors_;
  const Duration unresponsive_after_;
  std::shared_ptr<OperationReport::Batch> batch_;
  TimerHandlePtr deadline_;
  // Wake wait() to look at the clusters again: an operation that started a little after the
  // dispatch has been unanswered for unresponsive_after by the second.
  TimerHandlePtr first_look_;
  TimerHandlePtr second_look_;
};

}  // namespace kf::sync
