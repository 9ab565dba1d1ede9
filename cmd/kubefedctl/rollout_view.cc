#include "cmd/kubefedctl/rollout_view.h"

#include <algorithm>
#include <map>
#include <set>

#include "sync/plan/rollout_plan.h"

namespace kf::kubefedctl {

namespace {

constexpr std::string_view kUnstaged = "(unstaged clusters)";

const Json& fieldOrNull(const Json& object, std::initializer_list<std::string_view> path) {
  static const Json kNull;
  const Json* value = nestedField(object, path);
  return value != nullptr ? *value : kNull;
}

// Each listed entry of an array of {name: ...} objects, by name.
std::map<std::string, const Json*> entriesByName(const Json& array) {
  std::map<std::string, const Json*> out;
  if (!array.is_array()) return out;
  for (const Json& entry : array) {
    if (entry.is_object() && !stringIn(entry, "name").empty()) {
      out[stringIn(entry, "name")] = &entry;
    }
  }
  return out;
}

std::string heldName(const Json* held, const Json& status) {
  if (held == nullptr) return "-";
  const std::string hash = stringIn(*held, "templateHash");
  if (hash == stringIn(status, "templateHash")) return "new";
  if (!hash.empty() && hash == stringIn(status, "previousTemplateHash")) return "previous";
  return "-";
}

std::string healthOf(const Json* workload) {
  if (workload == nullptr) return "-";
  const auto rolled_out = workload->find("rolledOut");
  if (rolled_out == workload->end() || !rolled_out->is_boolean()) return "-";
  return rolled_out->get<bool>() ? "yes" : "no";
}

std::vector<std::string> stageNames(const rollout::RolloutStrategySpec& strategy) {
  std::vector<std::string> names;
  for (const rollout::Stage& stage : strategy.stages) names.push_back(stage.name);
  return names;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

}  // namespace

Result<RolloutTarget> rolloutTargetOf(const std::vector<std::string>& args) {
  const char* usage = "expected KIND/NAME (e.g. federateddeployment/web or deployment/web)";
  if (args.size() == 2 && args[0].find('/') == std::string::npos) {
    return RolloutTarget{args[0], args[1]};
  }
  if (args.size() != 1) {
    return makeError(Reason::kBadRequest,
                     std::string(usage) + ", got " + std::to_string(args.size()) + " arguments");
  }
  const std::size_t slash = args[0].find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == args[0].size() ||
      args[0].find('/', slash + 1) != std::string::npos) {
    return makeError(Reason::kBadRequest, std::string(usage) + ", got \"" + args[0] + "\"");
  }
  return RolloutTarget{args[0].substr(0, slash), args[0].substr(slash + 1)};
}

TargetAndStage splitStageArgument(const std::vector<std::string>& args) {
  const bool slash_form = !args.empty() && args[0].find('/') != std::string::npos;
  const std::size_t target_words = slash_form ? 1 : 2;
  if (args.size() != target_words + 1) return {args, ""};
  return {{args.begin(), args.end() - 1}, args.back()};
}

RolloutSummary summarizeRollout(const Json& run, const rollout::RolloutStrategySpec& strategy,
                                const std::vector<ClusterLabels>& clusters,
                                const Json& federated_object) {
  const Json& status = fieldOrNull(run, {"status"});
  RolloutSummary summary{.strategy = stringIn(fieldOrNull(run, {"spec"}), "strategy"),
                         .phase = stringIn(status, "phase"),
                         .stage = stringIn(status, "currentStage"),
                         .message = stringIn(status, "message"),
                         .rows = {}};
  std::vector<sync::RolloutCluster> labelled;
  for (const auto& [name, labels] : clusters) labelled.push_back({name, labels});
  const std::map<std::string, std::size_t> stage_of = sync::stageOfClusters(strategy, labelled);

  const auto held = entriesByName(fieldOrNull(status, {"clusters"}));
  const auto propagated = entriesByName(fieldOrNull(federated_object, {"status", "clusters"}));
  const auto workloads =
      entriesByName(fieldOrNull(federated_object, {"status", "workload", "clusters"}));
  std::set<std::string> names;
  for (const auto& [name, entry] : held) names.insert(name);
  for (const auto& [name, entry] : propagated) names.insert(name);

  std::vector<std::pair<std::size_t, RolloutClusterRow>> ordered;
  for (const std::string& name : names) {
    const auto stage = stage_of.find(name);
    const std::size_t index = stage != stage_of.end() ? stage->second : strategy.stages.size() + 1;
    RolloutClusterRow row;
    row.stage = index < strategy.stages.size()    ? strategy.stages[index].name
                : index == strategy.stages.size() ? std::string(kUnstaged)
                                                  : std::string("-");
    row.cluster = name;
    const auto held_entry = held.find(name);
    const Json* held_json = held_entry != held.end() ? held_entry->second : nullptr;
    row.held = heldName(held_json, status);
    const auto workload = workloads.find(name);
    row.healthy = healthOf(workload != workloads.end() ? workload->second : nullptr);
    row.since = held_json != nullptr && !stringIn(*held_json, "since").empty()
                    ? stringIn(*held_json, "since")
                    : "-";
    ordered.emplace_back(index, std::move(row));
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, row] : ordered) summary.rows.push_back(std::move(row));
  return summary;
}

void printRolloutSummary(const RolloutSummary& summary, std::ostream& out) {
  out << "Strategy: " << summary.strategy << "\n";
  out << "Phase:    " << summary.phase << "\n";
  out << "Stage:    " << (summary.stage.empty() ? "-" : summary.stage) << "\n";
  out << "Message:  " << (summary.message.empty() ? "-" : summary.message) << "\n\n";
  const std::vector<std::string> header = {"STAGE", "CLUSTER", "TEMPLATE", "HEALTHY", "SINCE"};
  std::vector<std::vector<std::string>> lines = {header};
  for (const RolloutClusterRow& row : summary.rows) {
    lines.push_back({row.stage, row.cluster, row.held, row.healthy, row.since});
  }
  // Columns as kubectl's tables: each as wide as its widest cell, three spaces apart.
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& line : lines) {
    for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], line[i].size());
  }
  for (const auto& line : lines) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      text += line[i];
      if (i + 1 < line.size()) text += std::string(widths[i] - line[i].size() + 3, ' ');
    }
    out << text << "\n";
  }
}

Result<std::string> stageToApprove(const rollout::RolloutStrategySpec& strategy, const Json& run,
                                   const std::string& template_hash, const std::string& named) {
  const std::vector<std::string> names = stageNames(strategy);
  if (!named.empty()) {
    if (std::find(names.begin(), names.end(), named) == names.end()) {
      return makeError(Reason::kBadRequest, "unknown stage \"" + named +
                                                "\": the strategy's stages are " + joined(names));
    }
    return named;
  }
  const Json& status = fieldOrNull(run, {"status"});
  if (stringIn(status, "templateHash") != template_hash) {
    return makeError(Reason::kBadRequest,
                     "the run of the object's current template has not started yet (the "
                     "controller manager has not seen the change); try again, or name the stage "
                     "to approve it ahead: one of " +
                         joined(names));
  }
  const std::string current = stringIn(status, "currentStage");
  const std::string phase = stringIn(status, "phase");
  if (current.empty() || phase == "Failed" || phase == "RolledBack") {
    return makeError(Reason::kBadRequest, "the run has no stage to approve (phase " + phase +
                                              "); name a stage to approve it ahead: one of " +
                                              joined(names));
  }
  return current;
}

std::string mergedApproval(std::string_view existing, const std::string& stage,
                           const std::string& template_hash) {
  const std::string wanted = stage + "@" + template_hash;
  std::vector<std::string> kept;
  while (!existing.empty()) {
    const std::size_t comma = existing.find(',');
    const std::string entry(existing.substr(0, comma));
    existing = comma == std::string_view::npos ? std::string_view() : existing.substr(comma + 1);
    const std::size_t at = entry.rfind('@');
    const bool same_run = at != std::string::npos && entry.substr(at + 1) == template_hash;
    if (same_run && entry != wanted && std::find(kept.begin(), kept.end(), entry) == kept.end()) {
      kept.push_back(entry);
    }
  }
  kept.push_back(wanted);
  std::string out;
  for (const std::string& entry : kept) out += (out.empty() ? "" : ",") + entry;
  return out;
}

Result<Json> templateToRestore(const Json& run, const Json& federated_object) {
  const Json& previous = fieldOrNull(run, {"spec", "previousTemplate"});
  if (!previous.is_object()) {
    return makeError(Reason::kBadRequest,
                     "nothing to undo: the run has no previous template (the first template of "
                     "an object goes out at once)");
  }
  if (previous == fieldOrNull(federated_object, {"spec", "template"})) {
    return makeError(Reason::kBadRequest,
                     "nothing to undo: the object's template already is the run's previous one");
  }
  return previous;
}

}  // namespace kf::kubefedctl
