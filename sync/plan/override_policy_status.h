#pragma once
// The status the sync controller writes on an override policy (apis/policy/override_policy.h):
//   status:
//     observedGeneration: 4
//     conditions:
//     - {type: Applied, status: "False", reason: OverrideFailed,
//        message: "2 of the selected objects' clusters could not take the policy; see failures"}
//     failedCount: 2                 # object/cluster pairs the policy was left out of
//     failures:                      # the first kMaxListedFailures, by object then cluster
//     - {federatedObject: apps/web-1, cluster: member2, message: "..."}
// Reasons: Applied (status True), OverrideFailed, InvalidSpec (the spec does not validate: the
// policy applies nowhere, the message says why). Pure.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "apis/meta/object.h"

namespace kf::sync {

inline constexpr std::string_view kPolicyAppliedCondition = "Applied";
inline constexpr std::string_view kPolicyOverrideFailedReason = "OverrideFailed";
inline constexpr std::string_view kPolicyInvalidSpecReason = "InvalidSpec";
// Bounds the status of a policy that fails for thousands of objects; failedCount keeps the total.
inline constexpr std::size_t kMaxListedFailures = 20;

// (federated object key, cluster) -> why the policy was left out there.
using PolicyFailureBook = std::map<std::pair<std::string, std::string>, std::string>;

Json policyStatus(std::int64_t generation, const PolicyFailureBook& failures);
Json invalidPolicyStatus(std::int64_t generation, const std::string& error);

}  // namespace kf::sync
