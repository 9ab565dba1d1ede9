#pragma once
// core.kubefed.io/v1alpha1 PropagatedVersion (namespaced) and ClusterPropagatedVersion
// (cluster-scoped): identical shapes, status only (spec §1.4).

#include <optional>
#include <string>
#include <vector>

#include "apis/meta/object_header.h"

namespace kf::core {

struct ClusterObjectVersion {
  std::string cluster_name;
  std::string version;
  Json extra;
};

struct PropagatedVersionStatus {
  std::string template_version;
  std::string overrides_version;
  std::vector<ClusterObjectVersion> cluster_versions;  // omitempty
  Json extra;

  static Result<PropagatedVersionStatus> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct PropagatedVersion {
  meta::ObjectHeader header;
  std::optional<PropagatedVersionStatus> status;
  Json extra;

  static Result<PropagatedVersion> fromJson(const Json& json);
  Json toJson() const;
};

using ClusterPropagatedVersion = PropagatedVersion;

}  // namespace kf::core
