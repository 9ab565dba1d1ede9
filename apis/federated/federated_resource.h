#pragma once
// Read access to the spec of any generated Federated<Kind> object (spec §1.6), straight from
// its unstructured JSON. Wrong types fail with the field path, e.g.
// "spec.placement.clusters[1].name: expected string".

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apis/meta/json_reader.h"
#include "apis/meta/label_selector.h"

namespace kf::federated {

struct Placement {
  // Present (even empty) wins over the selector; `clusters: []` selects nothing.
  std::optional<std::vector<std::string>> clusters;
  // Absent or null selects nothing; {} selects every cluster.
  std::optional<meta::LabelSelector> cluster_selector;
};

struct ClusterOverride {
  std::string op;  // "" means replace
  std::string path;
  std::optional<Json> value;  // absent or null: none
};

struct ClusterOverrides {
  std::string cluster_name;
  std::vector<ClusterOverride> cluster_overrides;
};

struct FederatedSpec {
  std::optional<Json> template_json;  // spec.template; absent or null: none
  Placement placement;
  std::vector<ClusterOverrides> overrides;
  bool retain_replicas = false;
};

// Each reads only its part of `object` (the whole federated object, not its spec).
Result<std::optional<Json>> readTemplate(const Json& object);
Result<Placement> readPlacement(const Json& object);
Result<std::vector<ClusterOverrides>> readOverrides(const Json& object);
Result<bool> readRetainReplicas(const Json& object);
Result<FederatedSpec> readFederatedSpec(const Json& object);

}  // namespace kf::federated
