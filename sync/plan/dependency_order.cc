#include "sync/plan/dependency_order.h"

#include <utility>

#include "apis/meta/join.h"

namespace kf::sync {

OrderingDecision orderAfterDependencies(std::vector<ClusterStep> steps,
                                        const DependencyState& state) {
  OrderingDecision out;
  for (ClusterStep& step : steps) {
    const auto missing = state.missing.find(step.cluster);
    if (step.operation != OperationKind::kCreate || missing == state.missing.end() ||
        missing->second.empty()) {
      continue;
    }
    const auto since = state.waiting_since.find(step.cluster);
    const OrderingTime began = since != state.waiting_since.end() ? since->second : state.now;
    if (state.now - began >= state.max_wait) {
      out.gave_up[step.cluster] = missing->second;
      continue;
    }
    out.deferred[step.cluster] = began;
    step.operation.reset();
    step.status = PropagationStatus::kWaitingForDependencies;
    step.reason = "waiting for " + joinWith(missing->second, ", ") + " to be propagated first";
  }
  out.steps = std::move(steps);
  return out;
}

}  // namespace kf::sync
