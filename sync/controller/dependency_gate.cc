#include "sync/controller/dependency_gate.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "apis/meta/join.h"
#include "sync/controller/follower_directory.h"
#include "sync/plan/dependency_order.h"
#include "sync/plan/workload_references.h"

namespace kf::sync {

namespace {

constexpr std::array<std::string_view, 4> kReferencedKinds = {
    "ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim"};

// The clusters whose status entry says the follower is there: no error, or drifted and left so
// (drift policy ReportOnly).
std::set<std::string> propagatedClusters(const Json& follower) {
  std::set<std::string> out;
  const Json* clusters = nestedField(follower, {"status", "clusters"});
  if (clusters == nullptr || !clusters->is_array()) return out;
  for (const Json& entry : *clusters) {
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) continue;
    const std::string status = entry.value("status", "");
    if (status.empty() || status == "Drifted") out.insert(entry["name"].get<std::string>());
  }
  return out;
}

// Per cluster that a step creates the workload in, the followers not propagated there.
std::map<std::string, std::vector<std::string>> missingFollowers(
    const SyncContext& context, const Json& federated_object,
    const std::vector<ClusterStep>& steps) {
  std::map<std::string, std::vector<std::string>> missing;
  const Json* pod_template = podTemplateOfFederated(federated_object);
  if (pod_template == nullptr) return missing;
  const PodTemplateReferences references = referencesOf(*pod_template);
  const std::string ns = objectNamespace(federated_object);
  for (std::string_view kind : kReferencedKinds) {
    for (const std::string& name : *referencedNamesOfKind(references, kind)) {
      const ObjectPtr follower =
          context.follower_directory->find(std::string(kind), ns + "/" + name);
      if (!follower || followsModeOf(*follower) != FollowsMode::kWorkloads) continue;
      const std::set<std::string> propagated = propagatedClusters(*follower);
      for (const ClusterStep& step : steps) {
        if (step.operation == OperationKind::kCreate && !propagated.contains(step.cluster)) {
          missing[step.cluster].push_back(std::string(kind) + " \"" + name + "\"");
        }
      }
    }
  }
  return missing;
}

void event(const SyncContext& context, const Json& federated_object, EventType type,
           const std::string& reason, const std::string& message) {
  if (context.recorder) {
    context.recorder->event(referenceTo(federated_object), type, reason, message);
  }
}

}  // namespace

GatedSteps orderAfterFollowers(SyncContext& context, const Json& federated_object,
                               std::vector<ClusterStep> steps) {
  const bool creates = std::any_of(steps.begin(), steps.end(), [](const ClusterStep& step) {
    return step.operation == OperationKind::kCreate;
  });
  const std::string key = objectKey(federated_object);
  if (!creates || context.follower_directory == nullptr) {
    context.dependency_waits.set(key, {});
    return GatedSteps{std::move(steps), std::nullopt};
  }
  const std::map<std::string, SteadyTime> waiting = context.dependency_waits.of(key);
  auto missing = missingFollowers(context, federated_object, steps);
  OrderingDecision decision =
      orderAfterDependencies(std::move(steps), DependencyState{.missing = std::move(missing),
                                                               .waiting_since = waiting,
                                                               .now = context.clock.now(),
                                                               .max_wait = kDependencyWait});
  for (const ClusterStep& step : decision.steps) {
    if (step.status == PropagationStatus::kWaitingForDependencies &&
        !waiting.contains(step.cluster)) {
      event(context, federated_object, EventType::kNormal, "WaitingForDependencies",
            "not created in cluster \"" + step.cluster + "\" yet: " + step.reason);
    }
  }
  for (const auto& [cluster, followers] : decision.gave_up) {
    event(context, federated_object, EventType::kWarning, "DependenciesNotPropagated",
          "created in cluster \"" + cluster + "\" without " + joinWith(followers, ", ") +
              ", not propagated there after waiting " +
              std::to_string(
                  std::chrono::duration_cast<std::chrono::seconds>(kDependencyWait).count()) +
              "s (see their status)");
  }
  const bool deferred = !decision.deferred.empty();
  context.dependency_waits.set(key, std::move(decision.deferred));
  return GatedSteps{std::move(decision.steps),
                    deferred ? std::optional<Duration>(kDependencyRecheck) : std::nullopt};
}

}  // namespace kf::sync
