#pragma once
// Version tracking (spec §1.4, §2.5.7): a PropagatedVersion (namespaced federated types) or
// ClusterPropagatedVersion per federated object records the template and overrides hashes it was
// propagated with and, per cluster, the version of the member object KubeFed last wrote. The
// recorded versions only count while both hashes are unchanged; otherwise every member is
// updated again.
//
// These are the pure parts; the caller keeps the in-memory entries and writes the objects
// (create, then status update: status is a subresource).

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "apis/core/propagated_version.h"
#include "sync/plan/event_key.h"

namespace kf::sync {

// "<lower-case target kind>-": the prefix of every version name of one type.
std::string propagatedVersionPrefix(std::string_view target_kind);
// "<lower-case target kind>-<federated name>" in the federated object's namespace (none for a
// cluster-scoped federated type). FederatedNamespace X/X gives "namespace-X" in X.
QualifiedName propagatedVersionName(std::string_view target_kind, const QualifiedName& federated);

// {apiVersion, kind, name, uid} of the federated object, without controller flags, so that
// garbage collection removes the version with it.
Json propagatedVersionOwnerReference(const Json& federated_object);

// The object to create: PropagatedVersion when `namespaced`, else ClusterPropagatedVersion.
Json newPropagatedVersionObject(const QualifiedName& name, bool namespaced,
                                const Json& owner_reference,
                                const core::PropagatedVersionStatus& status);

using ClusterVersions = std::map<std::string, std::string>;  // cluster name -> object version

// The recorded version per cluster, or none at all when there is no entry or when either hash
// differs from the current one.
ClusterVersions versionsForClusters(const core::PropagatedVersionStatus* entry,
                                    const std::string& template_version,
                                    const std::string& overrides_version);

struct VersionsUpdate {
  core::PropagatedVersionStatus status;  // what to record
  bool unchanged = false;                // equal to the existing entry: write nothing
};

// The status to record after a reconcile. With an entry and unchanged hashes: the recorded
// versions of `selected_clusters`, overlaid with `new_versions`; otherwise `new_versions` alone.
// Empty versions are dropped (they mean the object was deleted) and clusters sorted by name.
// `unchanged` when an entry exists with the same hashes and versions (no versions and an absent
// list are the same).
VersionsUpdate mergeVersions(const core::PropagatedVersionStatus* entry,
                             const std::string& template_version,
                             const std::string& overrides_version,
                             const std::set<std::string>& selected_clusters,
                             const ClusterVersions& new_versions);

}  // namespace kf::sync
