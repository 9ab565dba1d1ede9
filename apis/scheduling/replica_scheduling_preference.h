#pragma once
// scheduling.kubefed.io/v1alpha1 ReplicaSchedulingPreference: how a FederatedDeployment's or
// FederatedReplicaSet's replicas are spread over clusters (spec §1.5).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "apis/meta/object_header.h"

namespace kf::scheduling {

// Key of the entry that applies to every cluster without its own entry.
inline constexpr std::string_view kAllClusters = "*";

struct ClusterPreferences {
  std::int64_t min_replicas = 0;             // omitempty
  std::optional<std::int64_t> max_replicas;  // absent: unbounded
  std::int64_t weight = 0;                   // omitempty
  Json extra;
};

struct ReplicaSchedulingPreferenceSpec {
  std::string target_kind;  // "FederatedDeployment" | "FederatedReplicaSet"
  std::int32_t total_replicas = 0;
  bool rebalance = false;                              // omitempty
  std::map<std::string, ClusterPreferences> clusters;  // omitempty
  bool intersect_with_cluster_selector = false;        // omitempty
  Json extra;

  static Result<ReplicaSchedulingPreferenceSpec> fromJson(const Json& json,
                                                          const meta::FieldPath& path);
  Json toJson() const;
};

struct ReplicaSchedulingPreference {
  meta::ObjectHeader header;
  ReplicaSchedulingPreferenceSpec spec;
  Json status;  // an empty object in KubeFed; kept verbatim, null when absent
  Json extra;

  static Result<ReplicaSchedulingPreference> fromJson(const Json& json);
  Json toJson() const;
};

}  // namespace kf::scheduling
