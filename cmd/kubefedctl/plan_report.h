#pragma once
// What `kubefedctl plan` prints, and its exit code, from the forecasts of sync/
// propagation_forecast.h and the diffs of the member objects. Pure: no cluster is read here.

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "apis/meta/qualified_name.h"
#include "sync/controller/propagation_forecast.h"

namespace kf::kubefedctl {

// `plan` exits as `kubectl diff` does: 0 nothing would change, 1 some member would be written,
// more on error. 2: some member cluster could not be read, so the plan is incomplete.
inline constexpr int kExitPlanChanges = 1;
inline constexpr int kExitPlanIncomplete = 2;

// The plan of one federated object.
struct ObjectPlan {
  std::string kind;  // "FederatedConfigMap"
  QualifiedName name;
  std::string target_kind;  // "ConfigMap"
  std::string source;       // for -f: where the object came from; "" for the stored object
  sync::PropagationForecast forecast;
  // Per cluster that would be written: the unified diff of its object, live (-) to as the
  // controller would write it (+); "" when the write changes nothing in it.
  std::map<std::string, std::string> diffs;
  // Per cluster: what else the reader must know (the server's dry run failed, ...).
  std::map<std::string, std::string> notes;
};

int planExitCode(const std::vector<ObjectPlan>& plans);

// The text form: per object a heading, per cluster its action and why, the diff, the
// Propagation condition the sync would leave, and a summary line ("No changes." when none).
void printPlanText(const std::vector<ObjectPlan>& plans, std::ostream& out);

// The machine form (-o json): {"items": [...], "memberWrites": N}, one item per object.
Json planJson(const std::vector<ObjectPlan>& plans);

}  // namespace kf::kubefedctl
