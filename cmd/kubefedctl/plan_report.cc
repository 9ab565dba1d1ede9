#include "cmd/kubefedctl/plan_report.h"

#include <algorithm>

#include "apis/meta/join.h"

namespace kf::kubefedctl {
namespace {

using sync::MemberAction;
using sync::MemberForecast;

std::string statusText(const std::optional<sync::PropagationStatus>& status) {
  if (!status) return "no entry";
  if (*status == sync::PropagationStatus::kOk) return "OK";
  return std::string(sync::propagationStatusName(*status));
}

std::string heading(const ObjectPlan& plan) {
  std::string out = plan.kind + " \"" + plan.name.key() + "\" (" + plan.target_kind + ")";
  if (!plan.source.empty()) out += " from " + plan.source;
  if (plan.forecast.deleting) out += ", being deleted";
  return out;
}

// "replace /spec/x = "v"" (op "" is replace, as in KubeFed's overrides).
std::string overrideText(const federated::ClusterOverride& item) {
  std::string out = (item.op.empty() ? std::string("replace") : item.op) + " " + item.path;
  if (item.op != "remove") out += " = " + item.value.value_or(Json()).dump();
  return out;
}

// Which override policy changes what in the cluster, and which were left out there.
void printPolicies(const MemberForecast& member, std::ostream& out) {
  for (const sync::PolicyPatch& patch : member.policy_patches) {
    for (const federated::ClusterOverride& item : patch.overrides) {
      out << "    " << patch.policy << ": " << overrideText(item) << "\n";
    }
  }
  for (const sync::PolicyFailure& failure : member.policy_failures) {
    out << "    " << failure.policy << " left out: " << failure.message << "\n";
  }
}

void printCluster(const ObjectPlan& plan, const MemberForecast& member, std::ostream& out) {
  out << "  " << member.cluster << ": " << sync::memberActionName(member.action);
  if (!member.reason.empty()) out << " (" << member.reason << ")";
  if (!plan.forecast.deleting && member.action != MemberAction::kUnknown) {
    out << " -> status " << statusText(member.status);
  }
  out << "\n";
  if (auto note = plan.notes.find(member.cluster); note != plan.notes.end()) {
    out << "    note: " << note->second << "\n";
  }
  printPolicies(member, out);
  if (!member.drift.empty()) {
    out << "    " << sync::driftMessage(member.cluster, member.drift) << "\n";
  }
  if (!member.yielded.empty()) {
    out << "    " << sync::fieldOwnedElsewhereMessage(member.cluster, member.yielded) << "\n";
  }
  auto diff = plan.diffs.find(member.cluster);
  if (diff == plan.diffs.end()) return;
  if (diff->second.empty()) {
    out << "    (the object is written unchanged)\n";
    return;
  }
  std::string::size_type start = 0;
  while (start < diff->second.size()) {
    const auto end = diff->second.find('\n', start);
    out << "    " << diff->second.substr(start, end - start) << "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

Json policiesJson(const MemberForecast& member) {
  Json applied = Json::array();
  for (const sync::PolicyPatch& patch : member.policy_patches) {
    Json overrides = Json::array();
    for (const federated::ClusterOverride& item : patch.overrides) {
      Json entry = {{"op", item.op.empty() ? "replace" : item.op}, {"path", item.path}};
      if (item.value) entry["value"] = *item.value;
      overrides.push_back(std::move(entry));
    }
    applied.push_back({{"policy", patch.policy}, {"overrides", std::move(overrides)}});
  }
  return applied;
}

// An object that follows its workloads: its placement, and where it comes from.
void printFollowedWorkloads(const sync::PropagationForecast& forecast, std::ostream& out) {
  if (!forecast.followed_workloads) return;
  out << "  placement follows workloads (its own placement is ignored):";
  if (forecast.followed_workloads->empty()) out << " none references it, placed nowhere";
  out << "\n";
  for (const sync::ReferencingWorkload& workload : *forecast.followed_workloads) {
    out << "    " << workload.description << ": "
        << (workload.placement.empty()
                ? std::string("no cluster")
                : joinWith(std::vector<std::string>(workload.placement.begin(),
                                                    workload.placement.end()),
                           ", "))
        << "\n";
  }
}

Json followedWorkloadsJson(const std::vector<sync::ReferencingWorkload>& workloads) {
  Json out = Json::array();
  for (const sync::ReferencingWorkload& workload : workloads) {
    out.push_back({{"workload", workload.description}, {"clusters", workload.placement}});
  }
  return out;
}

void printPropagation(const sync::PropagationForecast& forecast, std::ostream& out) {
  for (const std::string& invalid : forecast.invalid_policies) {
    out << "  invalid override policy, applied nowhere: " << invalid << "\n";
  }
  if (forecast.deleting) {
    out << "  Propagation: not written while the federated object is being deleted\n";
    return;
  }
  if (!forecast.placement_error.empty()) out << "  " << forecast.placement_error << "\n";
  printFollowedWorkloads(forecast, out);
  if (!forecast.status_error.empty()) {
    out << "  Propagation: cannot be predicted: " << forecast.status_error << "\n";
    return;
  }
  const bool ok = forecast.reason == sync::AggregateReason::kSuccess;
  out << "  Propagation after the sync: " << (ok ? "True" : "False");
  if (!ok) out << " (" << sync::aggregateReasonName(forecast.reason) << ")";
  out << "\n";
}

std::string summary(const std::vector<ObjectPlan>& plans) {
  std::vector<std::string> writes;
  for (const auto& plan : plans) {
    for (const auto& member : plan.forecast.clusters) {
      if (!sync::writesToMember(member.action)) continue;
      writes.push_back(std::string(sync::memberActionName(member.action)) + " " + plan.kind + " " +
                       plan.name.key() + " in " + member.cluster);
    }
  }
  if (writes.empty()) return "No changes.";
  std::string out =
      std::to_string(writes.size()) + " member write" + (writes.size() == 1 ? "" : "s") + ":";
  for (const auto& write : writes) out += "\n  " + write;
  return out;
}

Json clusterJson(const ObjectPlan& plan, const MemberForecast& member) {
  Json out = {{"name", member.cluster},
              {"action", std::string(sync::memberActionName(member.action))},
              {"reason", member.reason}};
  // As status.clusters[].status holds it: "" for OK; null when the cluster gets no entry.
  out["status"] =
      member.status ? Json(std::string(sync::propagationStatusName(*member.status))) : Json();
  if (auto diff = plan.diffs.find(member.cluster); diff != plan.diffs.end()) {
    out["diff"] = diff->second;
  }
  if (auto note = plan.notes.find(member.cluster); note != plan.notes.end()) {
    out["note"] = note->second;
  }
  if (!member.drift.empty()) {
    Json drift = Json::array();
    for (const sync::DriftedField& field : member.drift) {
      drift.push_back({{"path", field.path},
                       {"desired", field.desired.value_or(Json())},
                       {"live", field.live.value_or(Json())},
                       {"manager", field.manager}});
    }
    out["drift"] = std::move(drift);
  }
  if (!member.policy_patches.empty()) out["overridePolicies"] = policiesJson(member);
  if (!member.policy_failures.empty()) {
    Json failures = Json::array();
    for (const sync::PolicyFailure& failure : member.policy_failures) {
      failures.push_back({{"policy", failure.policy}, {"message", failure.message}});
    }
    out["overridePolicyFailures"] = std::move(failures);
  }
  if (member.server_side) out["serverSideApply"] = true;
  if (!member.yielded.empty()) {
    Json yielded = Json::array();
    for (const sync::OwnedField& field : member.yielded) {
      yielded.push_back({{"path", field.path}, {"manager", field.manager}});
    }
    out["fieldsOwnedElsewhere"] = std::move(yielded);
  }
  return out;
}

Json objectJson(const ObjectPlan& plan) {
  Json clusters = Json::array();
  for (const auto& member : plan.forecast.clusters) clusters.push_back(clusterJson(plan, member));
  Json out = {{"kind", plan.kind},
              {"namespace", plan.name.ns},
              {"name", plan.name.name},
              {"targetKind", plan.target_kind},
              {"deleting", plan.forecast.deleting},
              {"clusters", std::move(clusters)},
              {"memberWrites", plan.forecast.memberWrites()}};
  if (!plan.source.empty()) out["source"] = plan.source;
  if (!plan.forecast.placement_error.empty()) out["placementError"] = plan.forecast.placement_error;
  if (plan.forecast.followed_workloads) {
    out["followedWorkloads"] = followedWorkloadsJson(*plan.forecast.followed_workloads);
  }
  if (!plan.forecast.deleting) {
    if (plan.forecast.status_error.empty()) {
      out["status"] = plan.forecast.status;
    } else {
      out["statusError"] = plan.forecast.status_error;
    }
  }
  return out;
}

int totalWrites(const std::vector<ObjectPlan>& plans) {
  int total = 0;
  for (const auto& plan : plans) total += plan.forecast.memberWrites();
  return total;
}

}  // namespace

int planExitCode(const std::vector<ObjectPlan>& plans) {
  for (const auto& plan : plans) {
    for (const auto& member : plan.forecast.clusters) {
      if (member.action == MemberAction::kUnknown) return kExitPlanIncomplete;
    }
  }
  return totalWrites(plans) > 0 ? kExitPlanChanges : 0;
}

void printPlanText(const std::vector<ObjectPlan>& plans, std::ostream& out) {
  for (const auto& plan : plans) {
    out << heading(plan) << "\n";
    if (plan.forecast.clusters.empty()) out << "  no member cluster is concerned\n";
    for (const auto& member : plan.forecast.clusters) printCluster(plan, member, out);
    printPropagation(plan.forecast, out);
  }
  out << summary(plans) << "\n";
}

Json planJson(const std::vector<ObjectPlan>& plans) {
  Json items = Json::array();
  for (const auto& plan : plans) items.push_back(objectJson(plan));
  return Json{{"items", std::move(items)}, {"memberWrites", totalWrites(plans)}};
}

}  // namespace kf::kubefedctl
