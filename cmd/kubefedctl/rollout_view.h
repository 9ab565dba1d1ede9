#pragma once
// What `kubefedctl rollout` shows and writes, from objects already read: the KIND/NAME argument,
// the stage and cluster table of a RolloutRun, the approval annotation merged with the entries
// already there, and the template an undo writes back. Pure: no cluster is read here.

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apis/meta/object.h"
#include "apis/rollout/rollout_strategy.h"

namespace kf::kubefedctl {

// What a rollout command acts on: TYPE as `plan` takes it (federated or target type, any name
// `enable` accepts) and the object's name.
struct RolloutTarget {
  std::string type;
  std::string name;
};

// "KIND/NAME" (kubectl's form) or "KIND NAME"; an error saying which form is expected.
Result<RolloutTarget> rolloutTargetOf(const std::vector<std::string>& args);

// The arguments that name the target, and a STAGE after them ("" when none).
struct TargetAndStage {
  std::vector<std::string> target;
  std::string stage;
};
// approve's arguments: KIND/NAME [STAGE] or KIND NAME [STAGE].
TargetAndStage splitStageArgument(const std::vector<std::string>& args);

// One cluster of the run, as `rollout status` lists it.
struct RolloutClusterRow {
  std::string
      stage;  // its stage's name; "(unstaged clusters)" when no stage selects it; "-" unknown
  std::string cluster;  // the KubeFedCluster's name
  std::string held;     // "new", "previous", or "-" while the run has written nothing there
  std::string healthy;  // the workload status's rolled out: "yes", "no", or "-" when unreported
  std::string since;    // when the cluster got the template it holds; "-" when it has none
};

struct RolloutSummary {
  std::string strategy;
  std::string phase;
  std::string stage;
  std::string message;
  std::vector<RolloutClusterRow> rows;  // in stage order, then by cluster name
};

// A KubeFedCluster's name and labels, which decide its stage.
using ClusterLabels = std::pair<std::string, StringMap>;

// The summary of `run` (a RolloutRun) for `federated_object`: one row per cluster the run wrote
// to or the object's propagation status lists, health from its workload status.
RolloutSummary summarizeRollout(const Json& run, const rollout::RolloutStrategySpec& strategy,
                                const std::vector<ClusterLabels>& clusters,
                                const Json& federated_object);

// The text form: strategy, phase, stage and message, then the table.
void printRolloutSummary(const RolloutSummary& summary, std::ostream& out);

// The stage `approve` approves for the object's template (`template_hash`): `named` when given
// (it must be one of the strategy's stages), else the run's current stage; an error when the run
// has finished or failed, or is not yet the run of that template (the controller has not seen
// the change yet).
Result<std::string> stageToApprove(const rollout::RolloutStrategySpec& strategy, const Json& run,
                                   const std::string& template_hash, const std::string& named);

// The value of kubefed-cpp.io/rollout-approved with `stage` approved for the run of
// `template_hash`. Entries for that run are kept; entries for other templates are dropped, since
// they could only let an old template through unseen if it came back.
std::string mergedApproval(std::string_view existing, const std::string& stage,
                           const std::string& template_hash);

// The template `undo` writes back to the federated object: the run's previous one. An error when
// the run has none (a first rollout) or the object already has it.
Result<Json> templateToRestore(const Json& run, const Json& federated_object);

}  // namespace kf::kubefedctl
