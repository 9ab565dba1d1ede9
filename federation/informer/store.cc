#include "federation/informer/store.h"

#include <algorithm>

#include "federation/informer/compact_object.h"

namespace kf {
namespace {

ApiError unknownIndex(const std::string& index_name) {
  return makeError(Reason::kNotFound, "index \"" + index_name + "\" does not exist");
}

std::vector<ObjectPtr> parsedAll(const std::vector<std::string>& texts) {
  std::vector<ObjectPtr> out;
  out.reserve(texts.size());
  for (const std::string& text : texts) out.push_back(fromCompactText(text));
  return out;
}

template <class Set>
std::vector<std::string> sorted(const Set& values) {
  std::vector<std::string> out(values.begin(), values.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> namespaceIndexFunc(const Json& object) {
  return {objectNamespace(object)};
}

Store::Store() {
  MutexLock lock(mu_);
  indexers_.emplace(kNamespaceIndex, namespaceIndexFunc);
  indexes_.emplace(kNamespaceIndex, Index{});
}

Status Store::addIndexers(Indexers indexers) {
  MutexLock lock(mu_);
  for (const auto& [name, fn] : indexers) {
    if (indexers_.contains(name)) {
      return makeError(Reason::kAlreadyExists, "index \"" + name + "\" already exists");
    }
  }
  Objects objects;
  objects.reserve(items_.size());
  for (const auto& [key, text] : items_) objects.emplace(key, fromCompactText(text));
  Indexes added = buildIndexes(indexers, objects);
  for (auto& [name, index] : added) {
    indexes_.emplace(name, std::move(index));
  }
  indexers_.merge(indexers);
  ++indexers_version_;
  return boost::outcome_v2::success();
}

ObjectPtr Store::add(ObjectPtr object) {
  std::string key = objectKey(*object);
  std::string text = compactText(*object);
  MutexLock lock(mu_);
  auto [it, inserted] = items_.try_emplace(key);
  ObjectPtr old;
  if (!inserted) {
    old = fromCompactText(it->second);
    unfileObject(indexers_, indexes_, key, *old);
  }
  it->second = std::move(text);
  fileObject(indexers_, indexes_, key, *object);
  return old;
}

ObjectPtr Store::remove(const std::string& key) {
  MutexLock lock(mu_);
  auto it = items_.find(key);
  if (it == items_.end()) {
    return nullptr;
  }
  ObjectPtr old = fromCompactText(it->second);
  items_.erase(it);
  unfileObject(indexers_, indexes_, key, *old);
  return old;
}

ReplaceResult Store::replace(std::vector<ObjectPtr> objects, std::string resource_version) {
  // Encode and index the new content without the lock: a full list can be large and readers
  // should not wait on it. Only the swap and a key-only diff happen under the lock; the old
  // objects the diff reports are parsed after it.
  Objects latest;
  latest.reserve(objects.size());
  for (ObjectPtr& object : objects) {
    std::string key = objectKey(*object);
    latest.insert_or_assign(std::move(key), std::move(object));
  }
  Items fresh;
  fresh.reserve(latest.size());
  for (const auto& [key, object] : latest) fresh.emplace(key, compactText(*object));
  Indexers indexers;
  std::uint64_t version = 0;
  {
    MutexLock lock(mu_);
    indexers = indexers_;
    version = indexers_version_;
  }
  Indexes fresh_indexes = buildIndexes(indexers, latest);

  Items old;  // what the store held; consumed as the diff matches it
  ReplaceResult result;
  {
    MutexLock lock(mu_);
    if (version != indexers_version_) {  // addIndexers ran meanwhile: rebuild with all of them
      fresh_indexes = buildIndexes(indexers_, latest);
    }
    old = std::exchange(items_, std::move(fresh));
    indexes_ = std::move(fresh_indexes);
    resource_version_ = std::move(resource_version);
  }
  for (auto& [key, object] : latest) {
    auto previous = old.find(key);
    if (previous == old.end()) {
      result.added.push_back(std::move(object));
    } else {
      result.updated.emplace_back(fromCompactText(previous->second), std::move(object));
      old.erase(previous);
    }
  }
  for (const auto& [key, text] : old) {
    result.removed.push_back(fromCompactText(text));
  }
  return result;
}

ObjectPtr Store::get(const std::string& key) const {
  std::string text;
  {
    MutexLock lock(mu_);
    auto it = items_.find(key);
    if (it == items_.end()) return nullptr;
    text = it->second;
  }
  return fromCompactText(text);
}

std::vector<ObjectPtr> Store::list() const {
  std::vector<std::string> texts;
  {
    MutexLock lock(mu_);
    texts.reserve(items_.size());
    for (const auto& [key, text] : items_) texts.push_back(text);
  }
  return parsedAll(texts);
}

std::vector<std::string> Store::listKeys() const {
  MutexLock lock(mu_);
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& [key, text] : items_) {
    out.push_back(key);
  }
  return out;
}

std::size_t Store::size() const {
  MutexLock lock(mu_);
  return items_.size();
}

std::string Store::resourceVersion() const {
  MutexLock lock(mu_);
  return resource_version_;
}

Result<std::vector<ObjectPtr>> Store::byIndex(const std::string& index_name,
                                              const std::string& value) const {
  std::vector<std::string> texts;
  {
    MutexLock lock(mu_);
    const Index* index = findIndexLocked(index_name);
    if (index == nullptr) {
      return unknownIndex(index_name);
    }
    auto keys = index->find(value);
    if (keys != index->end()) {
      texts.reserve(keys->second.size());
      for (const std::string& key : keys->second) texts.push_back(items_.at(key));
    }
  }
  return parsedAll(texts);
}

Result<std::vector<std::string>> Store::indexKeys(const std::string& index_name,
                                                  const std::string& value) const {
  MutexLock lock(mu_);
  const Index* index = findIndexLocked(index_name);
  if (index == nullptr) {
    return unknownIndex(index_name);
  }
  auto keys = index->find(value);
  return keys == index->end() ? std::vector<std::string>{} : sorted(keys->second);
}

Result<std::vector<std::string>> Store::indexValues(const std::string& index_name) const {
  MutexLock lock(mu_);
  const Index* index = findIndexLocked(index_name);
  if (index == nullptr) {
    return unknownIndex(index_name);
  }
  std::vector<std::string> out;
  out.reserve(index->size());
  for (const auto& [value, keys] : *index) {
    out.push_back(value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void Store::fileObject(const Indexers& indexers, Indexes& indexes, const std::string& key,
                       const Json& object) {
  for (const auto& [name, fn] : indexers) {
    Index& index = indexes[name];
    for (std::string& value : fn(object)) {
      index[std::move(value)].insert(key);
    }
  }
}

void Store::unfileObject(const Indexers& indexers, Indexes& indexes, const std::string& key,
                         const Json& object) {
  for (const auto& [name, fn] : indexers) {
    Index& index = indexes[name];
    for (const std::string& value : fn(object)) {
      auto keys = index.find(value);
      if (keys == index.end()) {
        continue;
      }
      keys->second.erase(key);
      if (keys->second.empty()) {  // drop empty buckets so indexValues() only lists live ones
        index.erase(keys);
      }
    }
  }
}

Store::Indexes Store::buildIndexes(const Indexers& indexers, const Objects& objects) {
  Indexes indexes;
  for (const auto& [name, fn] : indexers) {
    indexes[name];  // an index with no objects still exists
  }
  for (const auto& [key, object] : objects) {
    fileObject(indexers, indexes, key, *object);
  }
  return indexes;
}

const Store::Index* Store::findIndexLocked(const std::string& index_name) const {
  auto it = indexes_.find(index_name);
  return it == indexes_.end() ? nullptr : &it->second;
}

}  // namespace kf
