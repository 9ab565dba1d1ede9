#include "sync/plan/override_policy_status.h"

namespace kf::sync {

namespace {

Json condition(bool applied, std::string_view reason, const std::string& message) {
  return Json{{"type", kPolicyAppliedCondition},
              {"status", applied ? "True" : "False"},
              {"reason", reason},
              {"message", message}};
}

Json statusWith(std::int64_t generation, Json applied_condition, std::size_t failed_count,
                Json failures) {
  return Json{{"observedGeneration", generation},
              {"conditions", Json::array({std::move(applied_condition)})},
              {"failedCount", failed_count},
              {"failures", std::move(failures)}};
}

}  // namespace

Json policyStatus(std::int64_t generation, const PolicyFailureBook& failures) {
  Json listed = Json::array();
  for (const auto& [where, message] : failures) {
    if (listed.size() == kMaxListedFailures) break;
    listed.push_back(
        Json{{"federatedObject", where.first}, {"cluster", where.second}, {"message", message}});
  }
  if (failures.empty()) {
    return statusWith(generation,
                      condition(true, "Applied", "applied in every selected object's clusters"), 0,
                      std::move(listed));
  }
  const std::string message = std::to_string(failures.size()) +
                              " object/cluster pairs could not take the policy (it is left out "
                              "there); see status.failures";
  return statusWith(generation, condition(false, kPolicyOverrideFailedReason, message),
                    failures.size(), std::move(listed));
}

Json invalidPolicyStatus(std::int64_t generation, const std::string& error) {
  return statusWith(generation,
                    condition(false, kPolicyInvalidSpecReason, "applied nowhere: " + error), 0,
                    Json::array());
}

}  // namespace kf::sync
