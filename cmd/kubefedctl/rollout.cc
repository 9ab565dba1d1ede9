#include "cmd/kubefedctl/rollout.h"

#include "apis/rollout/rollout_strategy.h"
#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/plan_sources.h"
#include "cmd/kubefedctl/rollout_view.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/yaml_json.h"
#include "sync/controller/pass_inputs.h"
#include "sync/plan/propagated_versions.h"
#include "sync/plan/rollout_plan.h"
#include "sync/plan/rollout_record.h"

namespace kf::kubefedctl {
namespace {

enum class Action { kStatus, kApprove, kPause, kResume, kUndo };

const GroupVersionResource kClusters{"core.kubefed.io", "v1beta1", "kubefedclusters", true};

GroupVersionResource rolloutResource(std::string_view plural) {
  return {std::string(rollout::kGroup), std::string(rollout::kVersion), std::string(plural), true};
}

const char* kKindNote =
    "\n\nKIND is a federated type or its target type, by any name `enable` accepts\n"
    "(federateddeployment, deployment, deployments.apps, ...). The object must name a\n"
    "RolloutStrategy with the annotation kubefed-cpp.io/rollout-strategy.";

HelpText helpFor(Action action) {
  switch (action) {
    case Action::kStatus:
      return {"status KIND/NAME", "Show the staged rollout of a federated resource",
              std::string("Show the staged rollout of a federated resource: its phase, the "
                          "current stage and\nwhat the run waits for, and per cluster its "
                          "stage, the template it holds (new or\nprevious), whether its "
                          "workload is rolled out, and since when. -o yaml|json prints\nthe "
                          "RolloutRun's status.") +
                  kKindNote,
              "  # The rollout of the FederatedDeployment web in namespace shop\n"
              "  kubefedctl rollout status deployment/web -n shop"};
    case Action::kApprove:
      return {"approve KIND/NAME [STAGE]", "Approve a stage of a staged rollout",
              std::string("Approve the current stage of the run (or STAGE) for the template "
                          "being rolled out.\nThe approval is written to the annotation "
                          "kubefed-cpp.io/rollout-approved as\n<stage>@<template hash>: it "
                          "counts for this template only.") +
                  kKindNote,
              "  # Let the stage that waits for approval start\n"
              "  kubefedctl rollout approve federateddeployment/web -n shop\n\n"
              "  # Approve the stage rest ahead of time\n"
              "  kubefedctl rollout approve deployment/web rest -n shop"};
    case Action::kPause:
      return {"pause KIND/NAME", "Pause a staged rollout",
              std::string("Stop the run from updating more clusters and stages from passing "
                          "(annotation\nkubefed-cpp.io/rollout-paused: \"true\"). Clusters "
                          "keep the template they hold.") +
                  kKindNote,
              "  kubefedctl rollout pause deployment/web -n shop"};
    case Action::kResume:
      return {"resume KIND/NAME", "Resume a paused staged rollout",
              std::string("Remove the annotation kubefed-cpp.io/rollout-paused.") + kKindNote,
              "  kubefedctl rollout resume deployment/web -n shop"};
    case Action::kUndo:
      return {"undo KIND/NAME", "Roll a federated resource back to the previous template",
              std::string("Write the run's previous template back to the federated "
                          "resource's spec.template.\nThe controller then rolls it out as "
                          "any change: the clusters that got the new\ntemplate get the "
                          "previous one again, the others keep it.") +
                  kKindNote,
              "  kubefedctl rollout undo deployment/web -n shop"};
  }
  return {};
}

// What every rollout command reads first.
struct RolloutObjects {
  sync::SyncTypeInfo type;
  QualifiedName name;  // of the federated object
  Json object;
  std::string run_namespace;  // where the strategy and the run live
  std::string strategy_name;
};

class RolloutCommand : public Command {
 public:
  explicit RolloutCommand(Action action) : action_(action) {}

  void addFlags(FlagSet& flags) override {
    global_.addTo(flags);
    flags.hide("dry-run");
    flags.addString("namespace", 'n', &ns_,
                    "The namespace of the federated resource (default: the context's).");
    flags.addString("context", 0, &context_,
                    "The kubeconfig context of the host cluster (kubectl's name for "
                    "--host-cluster-context).");
    if (action_ == Action::kStatus) {
      flags.addString("output", 'o', &output_,
                      "Output format: '' (a table), 'yaml' or 'json' (the RolloutRun's status).");
    }
  }

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (!context_.empty()) {
      if (!global_.host_cluster_context.empty() && global_.host_cluster_context != context_) {
        return fail("--context and --host-cluster-context name different contexts", streams);
      }
      global_.host_cluster_context = context_;
    }
    if (!output_.empty() && output_ != "yaml" && output_ != "json") {
      return fail("Invalid value for --output: " + output_ + " (valid: yaml, json)", streams);
    }
    auto [target_args, stage] =
        action_ == Action::kApprove ? splitStageArgument(args) : TargetAndStage{args, ""};
    auto target = rolloutTargetOf(target_args);
    if (!target) return fail(target.error().message, streams);
    auto done = act(target.value(), stage, streams);
    return done ? kExitOk : fail(done.error().message, streams);
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (args.empty()) return {federatedTypeNames(global_), false};
    if (args.size() == 1 && args[0].find('/') == std::string::npos) {
      return {objectNames(global_, args[0], namespaceOr("default")), false};
    }
    return {};
  }

  Completion completeFlagValue(const std::string& flag) override {
    if (flag == "output") return {{"json", "yaml"}, false};
    if (flag == "context") return {contextNames(global_), false};
    return completeGlobalFlag(global_, flag);
  }

 private:
  std::string namespaceOr(const std::string& fallback) const {
    if (!ns_.empty()) return ns_;
    auto ns = global_.contextNamespace();
    return ns ? ns.value() : fallback;
  }

  Result<RolloutObjects> read(RestClient& host, const RolloutTarget& target) {
    KF_TRY(sources, PlanSources::load(host, global_.kubefed_namespace));
    RolloutObjects read;
    KF_TRY(type, sources->typeNamed(target.type));
    read.type = std::move(type);
    std::string ns;
    if (read.type.federated_type.namespaced()) {
      ns = read.type.target_is_namespace ? target.name : namespaceOr("default");
      if (!ns_.empty()) ns = ns_;
    }
    read.name = {ns, target.name};
    KF_TRY(object, sources->storedObject(read.type, read.name));
    read.object = std::move(object);
    read.strategy_name = annotationValue(read.object, rollout::kStrategyAnnotation).value_or("");
    if (read.strategy_name.empty()) {
      return makeError(Reason::kBadRequest,
                       read.type.federated_type.kind + " \"" + read.name.key() +
                           "\" is not under a rollout strategy: name a RolloutStrategy with the "
                           "annotation " +
                           std::string(rollout::kStrategyAnnotation));
    }
    read.run_namespace = ns.empty() ? global_.kubefed_namespace : ns;
    return read;
  }

  Result<Json> readRun(RestClient& host, const RolloutObjects& objects) {
    const QualifiedName run_name =
        sync::propagatedVersionName(objects.type.target_type.kind, objects.name);
    auto run =
        ResourceClient(host, rolloutResource(sync::kRolloutRunResource), objects.run_namespace)
            .get(run_name.name);
    if (!run && isNotFound(run.error())) {
      return makeError(Reason::kNotFound,
                       "no rollout run yet for " + objects.type.federated_type.kind + " \"" +
                           objects.name.key() + "\" (RolloutRun \"" + objects.run_namespace + "/" +
                           run_name.name +
                           "\" not found): the controller manager writes it when it first "
                           "propagates the object; is it running?");
    }
    return run;
  }

  Result<rollout::RolloutStrategySpec> readStrategy(RestClient& host,
                                                    const RolloutObjects& objects) {
    auto found =
        ResourceClient(host, rolloutResource(rollout::kStrategyResource), objects.run_namespace)
            .get(objects.strategy_name);
    if (!found) {
      return makeError(found.error().reason, "RolloutStrategy \"" + objects.run_namespace + "/" +
                                                 objects.strategy_name +
                                                 "\": " + found.error().message);
    }
    return rollout::rolloutStrategyOf(found.value());
  }

  Result<std::vector<ClusterLabels>> readClusters(RestClient& host) {
    KF_TRY(list, ResourceClient(host, kClusters, global_.kubefed_namespace).list({}));
    std::vector<ClusterLabels> clusters;
    for (const Json& item : list.items) {
      clusters.emplace_back(objectName(item), objectLabels(item).value_or(StringMap{}));
    }
    return clusters;
  }

  Status act(const RolloutTarget& target, const std::string& stage, Streams streams) {
    KF_TRY(host, global_.hostClient());
    KF_TRY(objects, read(*host, target));
    switch (action_) {
      case Action::kStatus:
        return showStatus(*host, objects, streams);
      case Action::kPause:
      case Action::kResume:
        return setPaused(*host, objects, action_ == Action::kPause, streams);
      case Action::kApprove:
        return approve(*host, objects, stage, streams);
      case Action::kUndo:
        return undo(*host, objects, streams);
    }
    return boost::outcome_v2::success();
  }

  // "federateddeployments.types.kubefed.io/web", as kubectl names what it changed.
  static std::string shown(const RolloutObjects& objects) {
    return objects.type.federated_type.plural_name + "." + objects.type.federated_type.group + "/" +
           objects.name.name;
  }

  static Status patchAnnotation(RestClient& host, const RolloutObjects& objects,
                                const char* annotation, const Json& value) {
    const Json patch = {{"metadata", {{"annotations", {{annotation, value}}}}}};
    KF_TRYV(ResourceClient(host, objects.type.federated_resource, objects.name.ns)
                .patch(objects.name.name, PatchType::kMerge, patch.dump()));
    return boost::outcome_v2::success();
  }

  Status setPaused(RestClient& host, const RolloutObjects& objects, bool pause, Streams streams) {
    const bool paused = annotationValue(objects.object, sync::kRolloutPausedAnnotation) == "true";
    if (paused != pause) {
      // null removes the annotation (a merge patch).
      KF_TRYV(patchAnnotation(host, objects, sync::kRolloutPausedAnnotation,
                              pause ? Json("true") : Json()));
    }
    streams.out << shown(objects) << (pause ? " paused" : " resumed")
                << (paused == pause ? " (it already was)" : "") << "\n";
    return boost::outcome_v2::success();
  }

  Status approve(RestClient& host, const RolloutObjects& objects, const std::string& stage,
                 Streams streams) {
    KF_TRY(run, readRun(host, objects));
    KF_TRY(strategy, readStrategy(host, objects));
    // For the template the object has now: the run may still be the one of the last.
    const sync::VersionHashes hashes = sync::versionHashesOf(objects.object);
    if (!hashes.ok()) return makeError(Reason::kBadRequest, hashes.error);
    KF_TRY(approved, stageToApprove(strategy, run, hashes.template_version, stage));
    const std::string value = mergedApproval(
        annotationValue(objects.object, sync::kRolloutApprovedAnnotation).value_or(""), approved,
        hashes.template_version);
    KF_TRYV(patchAnnotation(host, objects, sync::kRolloutApprovedAnnotation, value));
    streams.out << shown(objects) << " stage " << approved << " approved\n";
    return boost::outcome_v2::success();
  }

  Status undo(RestClient& host, const RolloutObjects& objects, Streams streams) {
    KF_TRY(run, readRun(host, objects));
    KF_TRY(previous, templateToRestore(run, objects.object));
    Json object = objects.object;
    object["spec"]["template"] = std::move(previous);
    // An update, not a patch: the template is replaced whole, and a change made meanwhile fails
    // with a conflict instead of being overwritten.
    KF_TRYV(ResourceClient(host, objects.type.federated_resource, objects.name.ns).update(object));
    streams.out << shown(objects) << " rolled back to the previous template\n";
    return boost::outcome_v2::success();
  }

  Status showStatus(RestClient& host, const RolloutObjects& objects, Streams streams) {
    KF_TRY(run, readRun(host, objects));
    if (!output_.empty()) {
      const Json status = run.value("status", Json::object());
      if (output_ == "json") {
        streams.out << status.dump(2) << "\n";
      } else {
        streams.out << toYaml(nlohmann::ordered_json::parse(status.dump()));
      }
      return boost::outcome_v2::success();
    }
    KF_TRY(strategy, readStrategy(host, objects));
    KF_TRY(clusters, readClusters(host));
    printRolloutSummary(summarizeRollout(run, strategy, clusters, objects.object), streams.out);
    return boost::outcome_v2::success();
  }

  Action action_;
  GlobalOptions global_;
  std::string ns_;
  std::string context_;
  std::string output_;
};

CommandSpec leaf(const std::string& name, Action action) {
  return {name, helpFor(action), [action] { return std::make_unique<RolloutCommand>(action); }, {}};
}

}  // namespace

CommandSpec rolloutCommand() {
  return {"rollout",
          {"rollout", "Manage the staged rollout of a federated resource",
           "Manage the staged rollout of a federated resource under a RolloutStrategy: show it, "
           "approve a\nstage, pause and resume it, or undo the change.",
           ""},
          nullptr,
          {leaf("approve", Action::kApprove), leaf("pause", Action::kPause),
           leaf("resume", Action::kResume), leaf("status", Action::kStatus),
           leaf("undo", Action::kUndo)}};
}

}  // namespace kf::kubefedctl
