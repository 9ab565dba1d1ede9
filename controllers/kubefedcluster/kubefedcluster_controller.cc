#include "controllers/kubefedcluster/kubefedcluster_controller.h"

#include <spdlog/spdlog.h>

#include <set>
#include <utility>

#include "apis/meta/qualified_name.h"
#include "federation/client/resource_client.h"
#include "federation/metrics/kubefed_metrics.h"
#include "federation/runtime/interruptible_sleep.h"

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

std::vector<core::ClusterCondition> conditionsOf(const Json& object) {
  const auto status = object.find("status");
  if (status == object.end() || !status->is_object()) return {};
  auto parsed = core::KubeFedClusterStatus::fromJson(*status, meta::FieldPath("status"));
  return parsed ? parsed.value().conditions : std::vector<core::ClusterCondition>{};
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

Result<core::KubeFedCluster> parseCluster(const Json& object) {
  auto cluster = core::KubeFedCluster::fromJson(object);
  if (!cluster) {
    spdlog::warn("Ignoring unreadable KubeFedCluster name={} error={}", objectName(object),
                 cluster.error().describe());
  }
  return cluster;
}

}  // namespace

KubeFedClusterController::KubeFedClusterController(KubeFedClusterControllerOptions options,
                                                   RestClient& host, ClusterRegistry& registry,
                                                   EventRecorder& events, Clock& clock,
                                                   MemberClientFactory client_factory)
    : options_(std::move(options)),
      host_(host),
      registry_(registry),
      events_(events),
      clock_(clock),
      client_factory_(std::move(client_factory)) {
  if (!client_factory_) {
    const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout);
    client_factory_ = [this,
                       timeout](const core::KubeFedCluster& cluster) -> Result<MemberClients> {
      KF_TRY(config, loadClusterConfig(host_, options_.kubefed_namespace, cluster, timeout));
      return makeMemberClients(config, clock_);
    };
  }
}

KubeFedClusterController::~KubeFedClusterController() { stop(); }

void KubeFedClusterController::start() {
  MutexLock lock(lifecycle_mu_);
  if (started_ || stopped_) return;
  started_ = true;
  spdlog::info("Starting cluster controller namespace={}", options_.kubefed_namespace);
  SharedInformerOptions informer_options;
  informer_options.reflector.name = options_.kubefed_namespace + "/kubefedclusters";
  informer_ = std::make_unique<SharedInformer>(
      makeListerWatcher(host_, kKubeFedClusters, options_.kubefed_namespace, "", ""), clock_,
      informer_options);
  auto handler = std::make_shared<EventHandlerFuncs>();
  handler->on_add = [this](const ObjectPtr& object, bool) { clusterAdded(object); };
  handler->on_update = [this](const ObjectPtr&, const ObjectPtr& object) {
    clusterUpdated(object);
  };
  handler->on_delete = [this](const DeletedObject& deleted) {
    if (deleted.last_known) {
      clusterDeleted(deleted.last_known);
      return;
    }
    // A delete seen only on re-list may come without the object; the key still names it.
    const std::string name = QualifiedName::fromKey(deleted.key).name;
    clusterDeleted(std::make_shared<const Json>(Json{{"metadata", {{"name", name}}}}));
  };
  informer_->addEventHandler(handler);
  informer_->start();
  loop_ = std::jthread([this](std::stop_token stop) { runLoop(stop); });
}

void KubeFedClusterController::stop() {
  MutexLock lock(lifecycle_mu_);
  if (stopped_) return;
  stopped_ = true;
  if (loop_.joinable()) {
    loop_.request_stop();
    loop_.join();
  }
  if (informer_) informer_->stop();
  if (started_) spdlog::info("Stopped cluster controller namespace={}", options_.kubefed_namespace);
}

void KubeFedClusterController::runLoop(const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    checkClusterHealth();
    if (!waitPeriod(stop)) return;
  }
}

bool KubeFedClusterController::waitPeriod(const std::stop_token& stop) {
  return sleepUnlessStopped(clock_, stop, options_.period);
}

void KubeFedClusterController::clusterAdded(const ObjectPtr& object) { clusterUpdated(object); }

void KubeFedClusterController::clusterUpdated(const ObjectPtr& object) {
  const std::string name = objectName(*object);
  {
    MutexLock lock(mu_);
    latest_[name] = object;
  }
  ensureMember(object);
  publish(name);
}

void KubeFedClusterController::clusterDeleted(const ObjectPtr& last_known) {
  const std::string name = objectName(*last_known);
  {
    MutexLock lock(mu_);
    latest_.erase(name);
    members_.erase(name);
  }
  spdlog::info("Forgetting deleted cluster cluster={}", name);
  metrics::forgetCluster(name);
  publish(name);
}

void KubeFedClusterController::publish(const std::string& name) {
  MutexLock serial(publish_mu_);
  ObjectPtr object;
  std::shared_ptr<RestClient> client;
  {
    MutexLock lock(mu_);
    if (auto it = latest_.find(name); it != latest_.end()) object = it->second;
    if (auto it = members_.find(name); it != members_.end()) client = it->second->clients.client;
  }
  if (object == nullptr) {
    registry_.remove(name);
    return;
  }
  ClusterSnapshot snapshot;
  snapshot.name = name;
  snapshot.ready = isClusterReady(conditionsOf(*object));
  snapshot.labels = objectLabels(*object).value_or(StringMap{});
  snapshot.object = object;
  registry_.upsert(std::move(snapshot), std::move(client));
}

KubeFedClusterController::MemberPtr KubeFedClusterController::ensureMember(
    const ObjectPtr& object) {
  const std::string name = objectName(*object);
  MemberPtr member;
  {
    MutexLock building(build_mu_);
    ObjectPtr newest = object;
    {
      MutexLock lock(mu_);
      // The informer's copy is the one the registry publishes: build from it when there is one.
      if (auto it = latest_.find(name); it != latest_.end()) newest = it->second;
      if (auto it = members_.find(name); it != members_.end()) {
        if (!clientInputsChanged(*it->second->built_from, *newest)) return it->second;
        spdlog::info("Rebuilding cluster client after a spec change cluster={}", name);
        members_.erase(it);  // smoothing starts over with the new client, as in KubeFed
      }
    }
    auto cluster = parseCluster(*newest);
    if (!cluster) return nullptr;
    member = buildMember(cluster.value(), newest);
    if (member == nullptr) return nullptr;
    MutexLock lock(mu_);
    members_[name] = member;
  }
  publish(name);
  return member;
}

KubeFedClusterController::MemberPtr KubeFedClusterController::buildMember(
    const core::KubeFedCluster& cluster, const ObjectPtr& object) {
  auto clients = client_factory_(cluster);
  if (!clients) {
    const std::string message =
        "The configuration for this cluster may be malformed: " + clients.error().message;
    spdlog::warn("Building cluster client failed cluster={} error={}", cluster.name(),
                 clients.error().message);
    events_.event(referenceTo(*object), EventType::kWarning, "MalformedClusterConfig", message);
    return nullptr;
  }
  spdlog::info("Built cluster client cluster={} endpoint={}", cluster.name(),
               cluster.spec.api_endpoint);
  auto member = std::make_shared<Member>();
  member->built_from = object;
  member->clients = std::move(clients).value();
  return member;
}

void KubeFedClusterController::checkClusterHealth() {
  ResourceClient clusters(host_, kKubeFedClusters, options_.kubefed_namespace);
  auto listed = clusters.listAll({});
  if (!listed) {
    spdlog::error("Listing KubeFedClusters failed namespace={} error={}",
                  options_.kubefed_namespace, listed.error().describe());
    return;
  }
  std::vector<ProbeTarget> targets;
  for (auto& item : listed.value().items) {
    if (auto target = prepareTarget(std::move(item))) targets.push_back(std::move(*target));
  }
  pruneMembers(targets);
  // One thread per cluster: a slow or unreachable member only delays its own probe, which its
  // client's timeouts bound.
  std::vector<std::jthread> probes;
  probes.reserve(targets.size());
  for (const auto& target : targets) {
    probes.emplace_back([this, &target] { checkOne(target); });
  }
}

std::optional<KubeFedClusterController::ProbeTarget> KubeFedClusterController::prepareTarget(
    Json listed) {
  // List items may come without their type; events and status writes need it.
  listed["apiVersion"] = kApiVersion;
  listed["kind"] = kKind;
  auto cluster = parseCluster(listed);
  if (!cluster) return std::nullopt;
  auto object = std::make_shared<const Json>(std::move(listed));
  MemberPtr member = ensureMember(object);
  if (member == nullptr) {
    spdlog::warn("Skipping health check of a cluster without a client cluster={}",
                 cluster.value().name());
    return std::nullopt;
  }
  return ProbeTarget{std::move(object), std::move(cluster).value(), std::move(member)};
}

void KubeFedClusterController::pruneMembers(const std::vector<ProbeTarget>& listed) {
  std::set<std::string> keep;
  for (const auto& target : listed) keep.insert(target.cluster.name());
  MutexLock lock(mu_);
  for (auto it = members_.begin(); it != members_.end();) {
    const bool gone = !keep.contains(it->first) && !latest_.contains(it->first);
    it = gone ? members_.erase(it) : std::next(it);
  }
}

void KubeFedClusterController::checkOne(const ProbeTarget& target) {
  const std::string name = target.cluster.name();
  const SteadyTime start = clock_.now();
  HealthzOutcome outcome = probe(*target.member->clients.probe);
  metrics::observeClusterHealthDuration(clock_.now() - start);
  metrics::recordClusterState(name, metricState(classifyProbe(outcome)));
  if (!outcome) {
    spdlog::error("Failed to retrieve health of the cluster cluster={} error={}", name,
                  outcome.error().describe());
    events_.event(referenceTo(*target.object), EventType::kWarning, "RetrievingClusterHealthFailed",
                  "Failed to retrieve health of the cluster: " + outcome.error().describe());
  }
  std::vector<core::ClusterCondition> effective;
  {
    MutexLock lock(mu_);
    effective = smoothProbe(target.member->health, conditionsForProbe(outcome, clock_.wallNow()),
                            {options_.failure_threshold, options_.success_threshold});
  }
  reportTransition(target, effective);
  writeStatus(target, effective);
}

HealthzOutcome KubeFedClusterController::probe(RestClient& client) {
  RestRequest request;
  request.path = "/healthz";
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout);
  KF_TRY(response, client.send(request));
  return std::move(response.body);
}

// KubeFed records no event when a cluster's state changes; we add one per change of the written
// state (Normal ClusterReady, Warning ClusterNotReady, Warning ClusterOffline) so that
// `kubectl describe kubefedcluster` tells the history.
void KubeFedClusterController::reportTransition(
    const ProbeTarget& target, const std::vector<core::ClusterCondition>& effective) {
  const auto before = healthOf(conditionsOf(*target.object));
  const auto after = healthOf(effective);
  if (!after || before == after) return;
  spdlog::info("Cluster health changed cluster={} from={} to={}", target.cluster.name(),
               before ? healthName(*before) : "unknown", healthName(*after));
  const TransitionEvent event = transitionEvent(*after);
  const std::string message = effective.front().message.value_or(healthName(*after));
  events_.event(referenceTo(*target.object), event.type, event.reason, message);
}

void KubeFedClusterController::writeStatus(const ProbeTarget& target,
                                           const std::vector<core::ClusterCondition>& conditions) {
  // The whole status is replaced: zones and region are dropped, as KubeFed does.
  core::KubeFedClusterStatus status;
  status.conditions = conditions;
  Json object = *target.object;
  object["status"] = status.toJson();
  ResourceClient clusters(host_, kKubeFedClusters, options_.kubefed_namespace);
  auto written = clusters.updateStatus(object);
  if (!written) {
    spdlog::warn("Failed to update the status of cluster cluster={} error={}",
                 target.cluster.name(), written.error().describe());
  }
}

}  // namespace kf
