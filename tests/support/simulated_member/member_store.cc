#include "tests/support/simulated_member/member_store.h"

#include <cstdio>

#include "apis/meta/time.h"
#include "tests/support/simulated_member/continue_token.h"
#include "tests/support/simulated_member/object_rules.h"
#include "tests/support/simulated_member/watch_events.h"

namespace kf::sim {
namespace {

std::string nowText() { return meta::formatTime(std::chrono::system_clock::now()); }

// "abc" as a resourceVersion a client sent: nullopt when it is not a number.
std::optional<std::uint64_t> parseResourceVersion(const std::string& text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

std::string stringField(const Json& object, const char* field) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  const auto value = metadata->find(field);
  return value != metadata->end() && value->is_string() ? value->get<std::string>() : "";
}

bool hasFinalizers(const Json& object) {
  const auto finalizers = objectFinalizers(object);
  return finalizers && !finalizers->empty();
}

// A list item as the API server writes it: built-in types' items carry no kind and apiVersion.
Json listItem(const Json& object) {
  Json item = object;
  item.erase("kind");
  item.erase("apiVersion");
  return item;
}

Reply createdReply(Json object, bool created) { return {created ? 201 : 200, std::move(object)}; }

}  // namespace

std::string storeKey(const ServedResource& resource, const std::string& ns,
                     const std::string& name) {
  return resource.namespaced ? ns + "/" + name : name;
}

MemberStore::MemberStore(std::string name, std::size_t history_limit, WriteObserver observer)
    : name_(std::move(name)),
      history_limit_(history_limit),
      observer_(std::move(observer)),
      random_(std::random_device{}()) {}

MemberStore::Objects& MemberStore::objectsOf(const ServedResource& resource) {
  return objects_[&resource];
}

MemberStore::ObjectRef MemberStore::find(const ServedResource& resource, const std::string& key) {
  Objects& objects = objectsOf(resource);
  const auto found = objects.find(key);
  return found == objects.end() ? nullptr : found->second;
}

Reply MemberStore::get(const ServedResource& resource, const std::string& ns,
                       const std::string& name) {
  MutexLock lock(mu_);
  const ObjectRef stored = find(resource, storeKey(resource, ns, name));
  if (!stored) return notFound(resource, name);
  return {200, *stored};
}

Reply MemberStore::list(const ServedResource& resource, const std::string& ns,
                        const ListQuery& query) {
  MutexLock lock(mu_);
  if (query.resource_version_match == "Exact") {
    return badRequest("resourceVersionMatch=Exact is not supported by the simulated member");
  }
  std::uint64_t list_version = resource_version_;
  std::string start_after;
  if (!query.continue_token.empty()) {
    const auto token = decodeContinueToken(query.continue_token);
    if (!token) return badRequest(token.error().message);
    if (token.value().resource_version < history_floor_) {
      return {410, expiredStatus("The provided continue parameter is too old to display a "
                                 "consistent list result. You can start a new list without "
                                 "the continue parameter.")};
    }
    list_version = token.value().resource_version;
    start_after = token.value().start_after;
  }
  // resourceVersion "0" is served from the watch cache, which ignores the limit.
  const std::int64_t limit = query.resource_version == "0" ? 0 : query.limit;
  const std::string prefix = resource.namespaced && !ns.empty() ? ns + "/" : "";
  Objects& objects = objectsOf(resource);
  auto it = start_after.empty() ? objects.lower_bound(prefix) : objects.upper_bound(start_after);
  Json items = Json::array();
  std::string last_key;
  for (; it != objects.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (!query.selectors.matches(*it->second)) continue;
    if (limit > 0 && static_cast<std::int64_t>(items.size()) == limit) break;
    items.push_back(listItem(*it->second));
    last_key = it->first;
  }
  Json metadata = {{"resourceVersion", std::to_string(list_version)}};
  std::int64_t remaining = 0;
  for (; it != objects.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (query.selectors.matches(*it->second)) ++remaining;
  }
  if (remaining > 0) {
    metadata["continue"] = encodeContinueToken({list_version, last_key});
    // Counted only without selectors, as the API server does.
    if (query.selectors.empty()) metadata["remainingItemCount"] = remaining;
  }
  return {200,
          {{"kind", resource.kind + "List"},
           {"apiVersion", resource.apiVersion()},
           {"metadata", std::move(metadata)},
           {"items", std::move(items)}}};
}

std::optional<Reply> MemberStore::admitNamespace(const ServedResource& resource,
                                                 const std::string& ns, const std::string& name) {
  if (!resource.namespaced) return std::nullopt;
  const ObjectRef found = find(namespaceResource(), ns);
  if (!found) return missingNamespace(ns);
  if (hasDeletionTimestamp(*found)) return namespaceTerminating(resource, name, ns);
  return std::nullopt;
}

Reply MemberStore::create(const ServedResource& resource, const std::string& ns, Json object,
                          bool dry_run) {
  if (!object.is_object()) return badRequest("the body of a create must be a JSON object");
  Json& metadata = metadataOf(object);
  const std::string body_namespace = stringField(object, "namespace");
  if (resource.namespaced && !body_namespace.empty() && body_namespace != ns) {
    return badRequest(
        "the namespace of the provided object does not match the namespace sent on the request");
  }
  MutexLock lock(mu_);
  std::string name = stringField(object, "name");
  const std::string generate_name = stringField(object, "generateName");
  if (name.empty() && !generate_name.empty()) {
    static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    name = generate_name;
    for (int i = 0; i < 5; ++i) name += kAlphabet[random_() % (sizeof(kAlphabet) - 1)];
  }
  if (auto refused = admitNamespace(resource, ns, name.empty() ? "Unknown" : name)) {
    return *refused;
  }
  if (auto refused = invalidName(resource, name)) return *refused;
  if (!stringField(object, "resourceVersion").empty()) {
    return failure(500, "", "resourceVersion should not be set on objects to be created");
  }
  const std::string key = storeKey(resource, ns, name);
  if (find(resource, key)) return alreadyExists(resource, name);
  metadata["name"] = name;
  if (resource.namespaced) {
    metadata["namespace"] = ns;
  } else {
    metadata.erase("namespace");
  }
  auto prepared = prepareCreate(resource, std::move(object), newUid(), nowText());
  if (!prepared) return badRequest(prepared.error().message);
  return store(resource, key, std::move(prepared).value(), nullptr, dry_run);
}

Reply MemberStore::store(const ServedResource& resource, const std::string& key, Json object,
                         const ObjectRef& previous, bool dry_run) {
  if (dry_run) return createdReply(std::move(object), previous == nullptr);
  const std::uint64_t version = nextResourceVersion();
  metadataOf(object)["resourceVersion"] = std::to_string(version);
  auto stored = std::make_shared<const Json>(std::move(object));
  objectsOf(resource)[key] = stored;
  publish(
      {version, &resource, previous ? EventType::kModified : EventType::kAdded, stored, previous});
  return createdReply(*stored, previous == nullptr);
}

Reply MemberStore::update(const ServedResource& resource, const std::string& ns,
                          const std::string& name, Json object, bool status, bool dry_run) {
  MutexLock lock(mu_);
  return replace(resource, ns, name, std::move(object), status, dry_run);
}

Reply MemberStore::patch(const ServedResource& resource, const std::string& ns,
                         const std::string& name, const Json& patch, bool status, bool dry_run) {
  if (!patch.is_object()) return badRequest("a merge patch must be a JSON object");
  MutexLock lock(mu_);
  const ObjectRef stored = find(resource, storeKey(resource, ns, name));
  if (!stored) return notFound(resource, name);
  Json patched = *stored;
  applyMergePatch(patched, patch);
  return replace(resource, ns, name, std::move(patched), status, dry_run);
}

Reply MemberStore::replace(const ServedResource& resource, const std::string& ns,
                           const std::string& name, Json object, bool status, bool dry_run) {
  if (!object.is_object()) return badRequest("the body of an update must be a JSON object");
  const std::string body_name = stringField(object, "name");
  if (body_name != name) {
    return badRequest("the name of the object (" + body_name +
                      ") does not match the name on the URL (" + name + ")");
  }
  const std::string body_namespace = stringField(object, "namespace");
  if (resource.namespaced && !body_namespace.empty() && body_namespace != ns) {
    return badRequest(
        "the namespace of the provided object does not match the namespace sent on the request");
  }
  const std::string key = storeKey(resource, ns, name);
  const ObjectRef stored = find(resource, key);
  if (!stored) return notFound(resource, name);
  const std::string version = stringField(object, "resourceVersion");
  if (!version.empty() && version != objectResourceVersion(*stored)) {
    return conflict(resource, name);
  }
  Json updated;
  if (status) {
    updated = prepareStatusUpdate(object, *stored);
  } else {
    auto prepared = prepareUpdate(resource, std::move(object), *stored);
    if (!prepared) return badRequest(prepared.error().message);
    updated = std::move(prepared).value();
  }
  if (resource.namespaced) metadataOf(updated)["namespace"] = ns;
  metadataOf(updated)["resourceVersion"] = objectResourceVersion(*stored);
  if (sameContent(updated, *stored)) return {200, *stored};
  if (hasDeletionTimestamp(*stored) && !hasFinalizers(updated)) {
    // The last finalizer is gone: the deletion completes.
    if (dry_run) return {200, std::move(updated)};
    return {200, erase(resource, key, std::move(updated))};
  }
  return store(resource, key, std::move(updated), stored, dry_run);
}

Reply MemberStore::remove(const ServedResource& resource, const std::string& ns,
                          const std::string& name, const Json& options, bool dry_run) {
  MutexLock lock(mu_);
  const std::string key = storeKey(resource, ns, name);
  const ObjectRef stored = find(resource, key);
  if (!stored) return notFound(resource, name);
  if (options.is_object()) {
    const Json preconditions = options.value("preconditions", Json::object());
    const std::string uid = preconditions.value("uid", "");
    if (!uid.empty() && uid != objectUid(*stored)) {
      return preconditionFailed(resource, name, "UID", uid, objectUid(*stored));
    }
    const std::string version = preconditions.value("resourceVersion", "");
    if (!version.empty() && version != objectResourceVersion(*stored)) {
      return preconditionFailed(resource, name, "ResourceVersion", version,
                                objectResourceVersion(*stored));
    }
  }
  if (dry_run) return deleted(resource, name, objectUid(*stored));
  if (&resource == &namespaceResource()) {
    Json terminating = markDeleted(resource, key, stored);
    finalizeNamespace(name);
    return {200, std::move(terminating)};
  }
  if (hasFinalizers(*stored)) return {200, markDeleted(resource, key, stored)};
  erase(resource, key, *stored);
  return deleted(resource, name, objectUid(*stored));
}

Json MemberStore::markDeleted(const ServedResource& resource, const std::string& key,
                              const ObjectRef& stored) {
  if (hasDeletionTimestamp(*stored)) return *stored;
  Json marked = *stored;
  Json& metadata = metadataOf(marked);
  metadata["deletionTimestamp"] = nowText();
  metadata["deletionGracePeriodSeconds"] = 0;
  if (&resource == &namespaceResource()) marked["status"] = {{"phase", "Terminating"}};
  return store(resource, key, std::move(marked), stored, false).body;
}

Json MemberStore::erase(const ServedResource& resource, const std::string& key, Json last_state) {
  const std::uint64_t version = nextResourceVersion();
  metadataOf(last_state)["resourceVersion"] = std::to_string(version);
  auto final_state = std::make_shared<const Json>(std::move(last_state));
  objectsOf(resource).erase(key);
  publish({version, &resource, EventType::kDeleted, final_state, nullptr});
  if (resource.namespaced) removeNamespaceIfEmpty(objectNamespace(*final_state));
  return *final_state;
}

void MemberStore::finalizeNamespace(const std::string& ns) {
  const std::string prefix = ns + "/";
  for (const ServedResource& resource : servedResources()) {
    if (!resource.namespaced) continue;
    Objects& objects = objectsOf(resource);
    std::vector<std::pair<std::string, ObjectRef>> inside;
    for (auto it = objects.lower_bound(prefix);
         it != objects.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      inside.emplace_back(it->first, it->second);
    }
    for (const auto& [key, object] : inside) {
      if (hasFinalizers(*object)) {
        markDeleted(resource, key, object);
      } else {
        erase(resource, key, *object);
      }
    }
  }
  removeNamespaceIfEmpty(ns);
}

void MemberStore::removeNamespaceIfEmpty(const std::string& ns) {
  const ObjectRef found = find(namespaceResource(), ns);
  if (!found || !hasDeletionTimestamp(*found)) return;
  const std::string prefix = ns + "/";
  for (const ServedResource& resource : servedResources()) {
    if (!resource.namespaced) continue;
    const Objects& objects = objectsOf(resource);
    const auto it = objects.lower_bound(prefix);
    if (it != objects.end() && it->first.compare(0, prefix.size(), prefix) == 0) return;
  }
  erase(namespaceResource(), ns, *found);
}

std::variant<WatchId, Reply> MemberStore::watch(const ServedResource& resource,
                                                const std::string& ns, Selectors selectors,
                                                const std::string& resource_version,
                                                std::shared_ptr<WatchSink> sink) {
  MutexLock lock(mu_);
  const bool from_now = resource_version.empty() || resource_version == "0";
  std::uint64_t start = resource_version_;
  if (!from_now) {
    const auto parsed = parseResourceVersion(resource_version);
    if (!parsed) return badRequest("invalid resource version \"" + resource_version + "\"");
    if (*parsed < history_floor_) {
      return Reply{410, expiredStatus("too old resource version: " + resource_version + " (" +
                                      std::to_string(history_floor_) + ")")};
    }
    // A resourceVersion from the future: watched from now (the API server would wait for it).
    start = std::min(*parsed, resource_version_);
  }
  const WatchId id = next_watch_++;
  Watcher& watcher =
      watchers_.emplace(id, Watcher{&resource, ns, std::move(selectors), start, std::move(sink)})
          .first->second;
  if (from_now) {
    const std::string prefix = resource.namespaced && !ns.empty() ? ns + "/" : "";
    Objects& objects = objectsOf(resource);
    for (auto it = objects.lower_bound(prefix);
         it != objects.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      if (watcher.selectors.matches(*it->second)) {
        watcher.sink->deliver(eventLine(EventType::kAdded, *it->second));
      }
    }
    return id;
  }
  for (const Change& change : history_) {
    EventLines lines;
    if (change.resource_version > start) deliver(change, watcher, lines);
  }
  return id;
}

void MemberStore::stopWatch(WatchId id) {
  MutexLock lock(mu_);
  watchers_.erase(id);
}

void MemberStore::bookmark(WatchId id) {
  MutexLock lock(mu_);
  const auto found = watchers_.find(id);
  if (found == watchers_.end()) return;
  const Watcher& watcher = found->second;
  const auto last = last_change_.find(watcher.resource);
  if (last == last_change_.end() || last->second <= watcher.started_at) return;
  watcher.sink->deliver(bookmarkLine(*watcher.resource, last->second));
}

void MemberStore::publish(Change change) {
  last_change_[change.resource] = change.resource_version;
  EventLines lines;  // each event's text is built once, for every watch that sees it
  for (auto& [id, watcher] : watchers_) {
    if (watcher.resource == change.resource) deliver(change, watcher, lines);
  }
  if (observer_) observer_({name_, *change.resource, change.type, *change.object});
  history_.push_back(std::move(change));
  while (history_.size() > history_limit_) {
    history_floor_ = history_.front().resource_version;
    history_.pop_front();
  }
}

void MemberStore::deliver(const Change& change, Watcher& watcher, EventLines& lines) {
  if (watcher.resource != change.resource) return;
  if (change.resource->namespaced && !watcher.ns.empty() &&
      objectNamespace(*change.object) != watcher.ns) {
    return;
  }
  const bool matches = watcher.selectors.matches(*change.object);
  const bool matched = change.previous ? watcher.selectors.matches(*change.previous) : false;
  // What this watch sees of the change: its selector may have started or stopped matching.
  std::optional<EventType> seen;
  switch (change.type) {
    case EventType::kAdded:
    case EventType::kDeleted:
      if (matches) seen = change.type;
      break;
    case EventType::kModified:
      if (matches && matched) seen = EventType::kModified;
      if (matches && !matched) seen = EventType::kAdded;
      if (!matches && matched) seen = EventType::kDeleted;
      break;
  }
  if (!seen) return;
  EventLine& line = lines[static_cast<std::size_t>(*seen)];
  if (!line) {
    // An object that leaves the selection is told as it was before the change, with the
    // change's resourceVersion (as the watch cache tells it).
    const bool left = change.type == EventType::kModified && *seen == EventType::kDeleted;
    if (left) {
      Json before = *change.previous;
      metadataOf(before)["resourceVersion"] = std::to_string(change.resource_version);
      line = eventLine(*seen, before);
    } else {
      line = eventLine(*seen, *change.object);
    }
  }
  watcher.sink->deliver(line);
}

void MemberStore::compact() {
  MutexLock lock(mu_);
  history_.clear();
  history_floor_ = resource_version_;
}

std::uint64_t MemberStore::resourceVersion() const {
  MutexLock lock(mu_);
  return resource_version_;
}

std::size_t MemberStore::openWatches() const {
  MutexLock lock(mu_);
  return watchers_.size();
}

std::size_t MemberStore::objectCount() const {
  MutexLock lock(mu_);
  std::size_t count = 0;
  for (const auto& [resource, objects] : objects_) count += objects.size();
  return count;
}

std::uint64_t MemberStore::nextResourceVersion() { return ++resource_version_; }

std::string MemberStore::newUid() {
  const std::uint64_t high = random_();
  const std::uint64_t low = random_();
  char text[37];
  // Version 4, variant 1, as the API server's UUIDs.
  std::snprintf(text, sizeof(text), "%08x-%04x-4%03x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xffff),
                static_cast<unsigned>(high & 0x0fff),
                static_cast<unsigned>(0x8000 | ((low >> 48) & 0x3fff)),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return text;
}

}  // namespace kf::sim
