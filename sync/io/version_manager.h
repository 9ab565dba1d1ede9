#pragma once
// The versions of member objects KubeFed last wrote, per federated object (spec §2.5.7), kept in
// memory and persisted in PropagatedVersion (namespaced federated types) or
// ClusterPropagatedVersion objects on the host. They are read back once at start, so after a
// restart members that did not drift are not written again.
//
// Writes go create-then-status-update (status is a subresource: a create drops it), follow the
// server's resourceVersion on Conflict / AlreadyExists, re-create on NotFound, and stop on
// Forbidden. A version whose content did not change is not written.

#include <map>
#include <set>
#include <string>

#include "federation/client/rest_client.h"
#include "federation/runtime/thread_annotations.h"
#include "sync/plan/event_key.h"
#include "sync/plan/propagated_versions.h"

namespace kf::sync {

// Stored versions per list request while loading (the informers' page size).
inline constexpr std::int64_t kVersionListPageSize = 500;

struct VersionManagerOptions {
  bool namespaced = true;        // PropagatedVersion; false: ClusterPropagatedVersion
  std::string target_namespace;  // where they are listed at start; "" = all namespaces
  std::string target_kind;       // names are "<lower kind>-<federated name>"
  int max_write_attempts = 5;    // a write retries this often after Conflict and friends
};

class VersionManager {
 public:
  // `host` must outlive the manager.
  VersionManager(RestClient& host, VersionManagerOptions options);

  // Lists the stored versions of this type, once: later calls return at once. Until it
  // succeeds the caller is not synced.
  Status load() KF_EXCLUDES(load_mu_, mu_);
  bool loaded() const KF_EXCLUDES(mu_);

  // Recorded member versions of `federated`, or none when the hashes changed since.
  ClusterVersions versionsFor(const QualifiedName& federated, const std::string& template_version,
                              const std::string& overrides_version) const KF_EXCLUDES(mu_);

  // Records a reconcile's outcome (mergeVersions) and writes it when it changed.
  Status update(const Json& federated_object, const std::string& template_version,
                const std::string& overrides_version, const std::set<std::string>& selected,
                const ClusterVersions& new_versions) KF_EXCLUDES(mu_);

  // Drops the in-memory entry (the object is deleted; garbage collection removes the stored
  // one through its owner reference).
  void forget(const QualifiedName& federated) KF_EXCLUDES(mu_);

 private:
  struct Entry {
    core::PropagatedVersionStatus status;
    std::string resource_version;  // "" = not stored yet
    bool stored = false;           // `status` is what the host holds
  };

  GroupVersionResource resource() const;
  // Adds the stored version `item` to `entries` when it is this type's and readable.
  void remember(const Json& item, std::map<std::string, Entry>& entries) const;
  // Writes `status` for `federated`, starting from `resource_version`; returns the stored
  // resourceVersion.
  Result<std::string> write(const Json& federated_object, const QualifiedName& federated,
                            const core::PropagatedVersionStatus& status,
                            std::string resource_version) const;

  RestClient& host_;
  const VersionManagerOptions options_;
  const std::string prefix_;
  Mutex load_mu_;  // serialises load(), which lists outside mu_
  mutable Mutex mu_;
  bool loaded_ KF_GUARDED_BY(mu_) = false;
  std::map<std::string, Entry> entries_ KF_GUARDED_BY(mu_);  // by federated key
};

}  // namespace kf::sync
