#include "sync/io/version_manager.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "federation/client/resource_client.h"

namespace kf::sync {

namespace {

std::string describeVersion(const QualifiedName& name) { return name.key(); }

}  // namespace

VersionManager::VersionManager(RestClient& host, VersionManagerOptions options)
    : host_(host),
      options_(std::move(options)),
      prefix_(propagatedVersionPrefix(options_.target_kind)) {}

GroupVersionResource VersionManager::resource() const {
  return options_.namespaced
             ? GroupVersionResource{"core.kubefed.io", "v1alpha1", "propagatedversions", true}
             : GroupVersionResource{"core.kubefed.io", "v1alpha1", "clusterpropagatedversions",
                                    false};
}

Status VersionManager::load() {
  MutexLock load_lock(load_mu_);
  if (loaded()) {
    return boost::outcome_v2::success();
  }
  ResourceClient versions(host_, resource(), options_.namespaced ? options_.target_namespace : "");
  // In pages, each kept only while it is read: every type's versions share the resource (the
  // name prefix tells them apart), so with tens of thousands of federated objects one response
  // would hold them all at once.
  ListOptions page_options;
  page_options.limit = kVersionListPageSize;
  std::map<std::string, Entry> entries;
  while (true) {
    Result<ObjectList> page = versions.list(page_options);
    if (!page) {
      return withContext(page.error(), "listing the stored " + resource().resource);
    }
    for (const Json& item : page.value().items) {
      remember(item, entries);
    }
    if (page.value().continue_token.empty()) break;
    page_options.continue_token = page.value().continue_token;
  }
  MutexLock lock(mu_);
  entries_ = std::move(entries);
  loaded_ = true;
  return boost::outcome_v2::success();
}

void VersionManager::remember(const Json& item, std::map<std::string, Entry>& entries) const {
  const std::string name = objectName(item);
  if (name.rfind(prefix_, 0) != 0) {
    return;  // another type's
  }
  Result<core::PropagatedVersion> parsed = core::PropagatedVersion::fromJson(item);
  if (!parsed) {
    // Treated as absent: the next write of that object replaces it.
    spdlog::warn("Ignoring the unreadable {} {}: {}", resource().resource, objectKey(item),
                 parsed.error().describe());
    return;
  }
  const QualifiedName federated{options_.namespaced ? objectNamespace(item) : "",
                                name.substr(prefix_.size())};
  entries[federated.key()] = Entry{parsed.value().status.value_or(core::PropagatedVersionStatus{}),
                                   objectResourceVersion(item), /*stored=*/true};
}

bool VersionManager::loaded() const {
  MutexLock lock(mu_);
  return loaded_;
}

ClusterVersions VersionManager::versionsFor(const QualifiedName& federated,
                                            const std::string& template_version,
                                            const std::string& overrides_version) const {
  MutexLock lock(mu_);
  auto it = entries_.find(federated.key());
  return versionsForClusters(it == entries_.end() ? nullptr : &it->second.status, template_version,
                             overrides_version);
}

void VersionManager::forget(const QualifiedName& federated) {
  MutexLock lock(mu_);
  entries_.erase(federated.key());
}

Status VersionManager::update(const Json& federated_object, const std::string& template_version,
                              const std::string& overrides_version,
                              const std::set<std::string>& selected,
                              const ClusterVersions& new_versions) {
  const QualifiedName federated{objectNamespace(federated_object), objectName(federated_object)};
  core::PropagatedVersionStatus status;
  std::string resource_version;
  {
    MutexLock lock(mu_);
    auto it = entries_.find(federated.key());
    VersionsUpdate merged =
        mergeVersions(it == entries_.end() ? nullptr : &it->second.status, template_version,
                      overrides_version, selected, new_versions);
    if (it != entries_.end() && merged.unchanged && it->second.stored) {
      return boost::outcome_v2::success();
    }
    // Remembered before the write, as KubeFed does: a failed write is retried on the next
    // change, and the members were written either way.
    Entry& entry = entries_[federated.key()];
    entry.status = merged.status;
    entry.stored = false;
    status = std::move(merged.status);
    resource_version = entry.resource_version;
  }
  KF_TRY(stored, write(federated_object, federated, status, std::move(resource_version)));
  MutexLock lock(mu_);
  auto it = entries_.find(federated.key());
  if (it != entries_.end()) {
    it->second.resource_version = std::move(stored);
    // A newer outcome recorded meanwhile still has to be written.
    it->second.stored = it->second.status.toJson() == status.toJson();
  }
  return boost::outcome_v2::success();
}

Result<std::string> VersionManager::write(const Json& federated_object,
                                          const QualifiedName& federated,
                                          const core::PropagatedVersionStatus& status,
                                          std::string resource_version) const {
  const QualifiedName name = propagatedVersionName(options_.target_kind, federated);
  ResourceClient versions(host_, resource(), name.ns);
  Json object = newPropagatedVersionObject(
      name, options_.namespaced, propagatedVersionOwnerReference(federated_object), status);
  const std::string what = "writing " + resource().resource + " " + describeVersion(name);
  ApiError last = makeError(Reason::kUnknown, "no attempt made");
  for (int attempt = 0; attempt < options_.max_write_attempts; ++attempt) {
    if (resource_version.empty()) {
      Result<Json> created = versions.create(object);
      if (created) {
        resource_version = objectResourceVersion(created.value());
      } else if (isAlreadyExists(created.error())) {
        Result<Json> existing = versions.get(name.name);
        if (!existing) {
          last = existing.error();
          if (isNotFound(last)) continue;  // gone again: create once more
          return withContext(last, what);
        }
        resource_version = objectResourceVersion(existing.value());
      } else {
        return withContext(created.error(), what);
      }
    }
    object["metadata"]["resourceVersion"] = resource_version;
    Result<Json> updated = versions.updateStatus(object);
    if (updated) {
      return objectResourceVersion(updated.value());
    }
    last = updated.error();
    if (isNotFound(last)) {
      resource_version.clear();  // deleted meanwhile: create it again
      object["metadata"].erase("resourceVersion");
      continue;
    }
    if (!isConflict(last)) {
      return withContext(last, what);  // Forbidden and the rest: retrying will not help
    }
    Result<Json> current = versions.get(name.name);
    if (!current) {
      if (isNotFound(current.error())) {
        resource_version.clear();
        object["metadata"].erase("resourceVersion");
        continue;
      }
      return withContext(current.error(), what);
    }
    resource_version = objectResourceVersion(current.value());
  }
  return withContext(
      last, what + " (gave up after " + std::to_string(options_.max_write_attempts) + " attempts)");
}

}  // namespace kf::sync
