#include "controllers/kubefedcluster/kubefedcluster_controller.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "apis/meta/qualified_name.h"
#include "federation/client/resource_client.h"
#include "federation/controller/builder.h"
#include "federation/controller/informer_source.h"
#include "federation/metrics/kubefed_metrics.h"

namespace kf {
namespace {

const GroupVersionResource kKubeFedClusters{"core.kubefed.io", "v1beta1", "kubefedclusters", true};
constexpr const char* kApiVersion = "core.kubefed.io/v1beta1";
constexpr const char* kKind = "KubeFedCluster";

Json specOf(const Json& object) {
  const auto spec = object.find("spec");
  return spec == object.end() ? Json() : *spec;
}

// KubeFed rebuilds a cluster's client when any of these changed.
bool clientInputsChanged(const Json& before, const Json& after) {
  return specOf(before) != specOf(after) ||
         objectLabels(before).value_or(StringMap{}) != objectLabels(after).value_or(StringMap{}) ||
         objectAnnotations(before).value_or(StringMap{}) !=
             objectAnnotations(after).value_or(StringMap{});
}

metrics::ClusterState metricState(ClusterHealth health) {
  switch (health) {
    case ClusterHealth::kReady:
      return metrics::ClusterState::kReady;
    case ClusterHealth::kNotReady:
      return metrics::ClusterState::kNotReady;
    case ClusterHealth::kOffline:
      break;
  }
  return metrics::ClusterState::kOffline;
}

// The event for a change of the written state.
struct TransitionEvent {
  EventType type;
  const char* reason;
};

TransitionEvent transitionEvent(ClusterHealth health) {
  switch (health) {
    case ClusterHealth::kReady:
      return {EventType::kNormal, "ClusterReady"};
    case ClusterHealth::kNotReady:
      return {EventType::kWarning, "ClusterNotReady"};
    case ClusterHealth::kOffline:
      break;
  }
  return {EventType::kWarning, "ClusterOffline"};
}

// The cached object with its type, which list and watch items may lack and events and status
// writes need.
ObjectPtr withType(const ObjectPtr& cached) {
  if (cached->value("kind", "") == kKind) return cached;
  Json typed = *cached;
  typed["apiVersion"] = kApiVersion;
  typed["kind"] = kKind;
  return makeObject(std::move(typed));
}

}  // namespace

KubeFedClusterReconciler::KubeFedClusterReconciler(KubeFedClusterControllerOptions options,
                                                   KubeFedClusterDeps deps)
    : options_(std::move(options)), deps_(std::move(deps)) {
  if (!deps_.client_factory) {
    const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout);
    deps_.client_factory = [this,
                            timeout](const core::KubeFedCluster& cluster) -> Result<MemberClients> {
      KF_TRY(config, loadClusterConfig(deps_.host, options_.kubefed_namespace, cluster, timeout));
      config.qps = options_.member_qps;
      config.burst = options_.member_burst;
      return makeMemberClients(config, deps_.clock);
    };
  }
}

ReconcileResult KubeFedClusterReconciler::reconcile(const std::string& key) {
  ReconcileResult result = reconcileCluster(key);
  MutexLock lock(mu_);
  reconciled_.insert(key);
  return result;
}

bool KubeFedClusterReconciler::reconciledEach(const std::vector<std::string>& keys) const {
  MutexLock lock(mu_);
  for (const std::string& key : keys) {
    if (!reconciled_.contains(key)) return false;
  }
  return true;
}

ReconcileResult KubeFedClusterReconciler::reconcileCluster(const std::string& key) {
  const QualifiedName name = QualifiedName::fromKey(key);
  if (name.ns != options_.kubefed_namespace) return ReconcileStatus::kOk;
  const ObjectPtr cached = deps_.cache.get(key);
  if (!cached) {
    forget(name.name);
    return ReconcileStatus::kOk;
  }
  const ObjectPtr object = withType(cached);
  auto cluster = core::KubeFedCluster::fromJson(*object);
  if (!cluster) {
    // Its next change is queued by the informer; retrying the same object cannot help.
    spdlog::warn("Ignoring unreadable KubeFedCluster name={} error={}", name.name,
                 cluster.error().describe());
    return ReconcileStatus::kOk;
  }
  const MemberPtr member = ensureMember(cluster.value(), object);
  publish(object, member);
  if (member == nullptr) {
    return ReconcileStatus::requeueAfter(options_.period);  // tried (and reported) again
  }
  const auto effective = probeAndSmooth(name.name, *member, *object);
  reportTransition(*object, effective, *member);
  if (ObjectPtr written = writeStatusIfChanged(object, effective)) publish(written, member);
  return ReconcileStatus::requeueAfter(options_.period);
}

void KubeFedClusterReconciler::forget(const std::string& name) {
  {
    MutexLock lock(mu_);
    if (members_.erase(name) == 0 && !deps_.registry.cluster(name)) return;
  }
  spdlog::info("Forgetting deleted cluster cluster={}", name);
  metrics::forgetCluster(name);
  deps_.registry.remove(name);
}

KubeFedClusterReconciler::MemberPtr KubeFedClusterReconciler::ensureMember(
    const core::KubeFedCluster& cluster, const ObjectPtr& object) {
  const std::string name = cluster.name();
  {
    MutexLock lock(mu_);
    if (auto it = members_.find(name); it != members_.end()) {
      if (!clientInputsChanged(*it->second->built_from, *object)) return it->second;
      spdlog::info("Rebuilding cluster client after a spec change cluster={}", name);
      members_.erase(it);  // smoothing starts over with the new client, as in KubeFed
    }
  }
  auto clients = deps_.client_factory(cluster);
  if (!clients) {
    spdlog::warn("Building cluster client failed cluster={} error={}", name,
                 clients.error().message);
    deps_.events.event(
        referenceTo(*object), EventType::kWarning, "MalformedClusterConfig",
        "The configuration for this cluster may be malformed: " + clients.error().message);
    return nullptr;
  }
  spdlog::info("Built cluster client cluster={} endpoint={}", name, cluster.spec.api_endpoint);
  auto member = std::make_shared<Member>();
  member->built_from = object;
  member->clients = std::move(clients).value();
  MutexLock lock(mu_);
  members_[name] = member;
  return member;
}

std::vector<core::ClusterCondition> KubeFedClusterReconciler::probeAndSmooth(
    const std::string& name, Member& member, const Json& object) {
  const SteadyTime start = deps_.clock.now();
  HealthzOutcome outcome = probe(*member.clients.probe);
  metrics::observeClusterHealthDuration(deps_.clock.now() - start);
  metrics::recordClusterState(name, metricState(classifyProbe(outcome)));
  member.unreachable = outcome ? "" : unreachableMessage(outcome.error());
  if (!outcome) {
    spdlog::error("Failed to retrieve health of the cluster cluster={} error={}", name,
                  member.unreachable);
    deps_.events.event(referenceTo(object), EventType::kWarning, "RetrievingClusterHealthFailed",
                       "Failed to retrieve health of the cluster: " + outcome.error().describe());
  }
  // One worker at a time per key: the member's smoothing state is this reconcile's alone.
  return smoothProbe(member.health, conditionsForProbe(outcome, deps_.clock.wallNow()),
                     {options_.failure_threshold, options_.success_threshold});
}

HealthzOutcome KubeFedClusterReconciler::probe(RestClient& client) {
  RestRequest request;
  request.path = "/healthz";
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout);
  KF_TRY(response, client.send(request));
  return std::move(response.body);
}

// KubeFed records no event when a cluster's state changes; we add one per change of the written
// state (Normal ClusterReady, Warning ClusterNotReady, Warning ClusterOffline) so that
// `kubectl describe kubefedcluster` tells the history. ClusterOffline says why the cluster is
// not reachable, which KubeFed's Offline condition message does not.
void KubeFedClusterReconciler::reportTransition(
    const Json& object, const std::vector<core::ClusterCondition>& effective,
    const Member& member) {
  const auto before = healthOf(clusterConditionsOf(object));
  const auto after = healthOf(effective);
  if (!after || before == after) return;
  spdlog::info("Cluster health changed cluster={} from={} to={}", objectName(object),
               before ? healthName(*before) : "unknown", healthName(*after));
  const TransitionEvent event = transitionEvent(*after);
  const std::string message = *after == ClusterHealth::kOffline && !member.unreachable.empty()
                                  ? member.unreachable
                                  : effective.front().message.value_or(healthName(*after));
  deps_.events.event(referenceTo(object), event.type, event.reason, message);
}

ObjectPtr KubeFedClusterReconciler::writeStatusIfChanged(
    const ObjectPtr& object, const std::vector<core::ClusterCondition>& conditions) {
  // The whole status is replaced: zones and region are dropped, as KubeFed does.
  core::KubeFedClusterStatus status;
  status.conditions = conditions;
  Json desired = *object;
  desired["status"] = status.toJson();
  if (object->contains("status") && (*object)["status"] == desired["status"]) return nullptr;
  ResourceClient clusters(deps_.host, kKubeFedClusters, options_.kubefed_namespace);
  auto written = clusters.updateStatus(desired);
  if (!written && isConflict(written.error())) {
    // The cache lags behind the previous write: retry once on the object as stored now.
    if (auto current = clusters.get(objectName(*object))) {
      desired["metadata"]["resourceVersion"] = objectResourceVersion(current.value());
      written = clusters.updateStatus(desired);
    }
  }
  if (!written) {
    spdlog::warn("Failed to update the status of cluster cluster={} error={}", objectName(*object),
                 written.error().describe());
    return nullptr;
  }
  return withType(makeObject(std::move(written).value()));
}

void KubeFedClusterReconciler::publish(const ObjectPtr& object, const MemberPtr& member) {
  deps_.registry.upsert(clusterSnapshotOf(object), member ? member->clients.client : nullptr);
}

KubeFedClusterController::KubeFedClusterController(KubeFedClusterControllerOptions options,
                                                   RestClient& host, ClusterRegistry& registry,
                                                   EventRecorder& events, Clock& clock,
                                                   MemberClientFactory client_factory)
    : namespace_(options.kubefed_namespace), registry_(registry) {
  auto clusters = std::make_unique<InformerSource>(std::make_unique<SharedInformer>(
      makeListerWatcher(host, kKubeFedClusters, namespace_, "", ""), clock,
      SharedInformerOptions{
          .reflector = {.name = namespace_ + "/kubefedclusters", .pool = options.member_io},
          .dispatch = options.dispatch}));
  const int workers = options.workers;
  KubeFedClusterDeps deps{clusters->store(),        host, registry, events, clock,
                          std::move(client_factory)};
  auto reconciler = std::make_unique<KubeFedClusterReconciler>(std::move(options), std::move(deps));
  // The registry is complete once the informer has listed and each cluster it holds has been
  // reconciled once (and so published, unless it cannot be).
  registry.setSyncedCheck([source = clusters.get(), reconciled = reconciler.get()] {
    return source->synced() && reconciled->reconciledEach(source->keys());
  });
  controller_ = ControllerBuilder("kubefedcluster", clock)
                    .watches(std::move(clusters), enqueueObject().updatesWhen(clientInputsChanged))
                    .concurrency(workers)
                    .complete(std::move(reconciler));
}

KubeFedClusterController::~KubeFedClusterController() {
  stop();
  registry_.setSyncedCheck({});  // what it reads goes with the controller
}

Status KubeFedClusterController::start() {
  spdlog::info("Starting cluster controller namespace={}", namespace_);
  return controller_->start();
}

void KubeFedClusterController::stop() { controller_->stop(); }

}  // namespace kf
