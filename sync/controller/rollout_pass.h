#pragma once
// The staged rollout's part of a propagation pass (beyond KubeFed, opt-in by the annotation
// kubefed-cpp.io/rollout-strategy; decisions in sync/plan/rollout_plan.h, the record in
// sync/plan/rollout_record.h). Before dispatch it reads the strategy and the object's RolloutRun
// and decides; the steps of clusters that keep the previous template lose their updates (or
// create it), and clusters rolled back get it written. After dispatch it records which template
// each cluster now holds, writes the RolloutRun when that changed, and emits an Event when the
// run's phase or stage does.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "federation/cluster/cluster_registry.h"
#include "sync/controller/pass_inputs.h"
#include "sync/controller/sync_context.h"
#include "sync/io/member_operations.h"
#include "sync/plan/rollout_plan.h"
#include "sync/plan/sync_plan.h"

namespace kf::sync {

class RolloutPass {
 public:
  // nullopt when the object names no strategy. Fails (with a Warning event) when the strategy
  // is missing or invalid, or the record unreadable: the object is then not propagated, since
  // sending its template everywhere at once is what the strategy is there to prevent.
  static Result<std::optional<RolloutPass>> begin(SyncContext& context,
                                                  const Json& federated_object,
                                                  const VersionHashes& hashes,
                                                  const std::vector<ClusterSnapshot>& clusters,
                                                  const SyncObservation& observed);

  // The steps as the decision wants them; sets the previous template for the clusters that get it.
  std::vector<ClusterStep> adjust(std::vector<ClusterStep> steps,
                                  MemberObjectContext& members) const;
  // Clusters whose writes must not be recorded as versions of the current template.
  bool offTheNewTemplate(const std::string& cluster) const;
  // The run's summary for the federated object's status.rollout: strategy, phase, stage, message.
  Json summary() const;
  // After dispatch (`written`: cluster -> version written). The time to look again, if any.
  Result<std::optional<Duration>> finish(SyncContext& context, const Json& federated_object,
                                         const std::map<std::string, std::string>& written);

 private:
  std::string strategy_name_;
  QualifiedName run_name_;
  std::optional<Json> existing_run_;  // the RolloutRun as read, when there is one
  Json template_;                     // the federated object's spec.template
  Json previous_template_;            // null when there is none
  RolloutDecision decision_;
};

}  // namespace kf::sync
