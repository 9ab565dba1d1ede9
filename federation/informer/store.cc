#include "federation/informer/store.h"

#include <algorithm>
#include <cstring>
#include <string_view>

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

// A Replacement's records: lengths as 4 bytes in the machine's order, then the bytes.
void appendLength(std::string& out, std::size_t length) {
  const auto value = static_cast<std::uint32_t>(length);
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

void overwriteLength(std::string& out, std::size_t at, std::size_t length) {
  const auto value = static_cast<std::uint32_t>(length);
  std::memcpy(out.data() + at, &value, sizeof(value));
}

void appendRecord(std::string& out, std::string_view bytes) {
  appendLength(out, bytes.size());
  out.append(bytes);
}

class RecordReader {
 public:
  explicit RecordReader(std::string_view records) : rest_(records) {}
  bool done() const { return rest_.empty(); }
  std::size_t length() {
    std::uint32_t value = 0;
    std::memcpy(&value, rest_.data(), sizeof(value));
    rest_.remove_prefix(sizeof(value));
    return value;
  }
  std::string_view record() {
    const std::size_t size = length();
    const std::string_view bytes = rest_.substr(0, size);
    rest_.remove_prefix(size);
    return bytes;
  }

 private:
  std::string_view rest_;
};

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
  Indexes added = buildIndexes(indexers, items_);
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

Store::Replacement::Replacement(Indexers indexers, std::uint64_t indexers_version)
    : indexers_(std::move(indexers)), indexers_version_(indexers_version) {}

void Store::Replacement::add(const Json& object) {
  // The object's records are written to a buffer the thread keeps, then into the last block if
  // they fit, so that an object's records never span two blocks.
  thread_local std::string scratch;
  scratch.clear();
  appendRecord(scratch, objectKey(object));
  const std::size_t length_at = scratch.size();
  appendLength(scratch, 0);
  appendCompactText(scratch, object);
  overwriteLength(scratch, length_at, scratch.size() - length_at - sizeof(std::uint32_t));
  for (const auto& [name, fn] : indexers_) {
    const std::vector<std::string> values = fn(object);
    appendLength(scratch, values.size());
    for (const std::string& value : values) appendRecord(scratch, value);
  }
  constexpr std::size_t kBlockBytes = 256 * 1024;
  if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < scratch.size()) {
    blocks_.emplace_back().reserve(std::max(kBlockBytes, scratch.size()));
  }
  blocks_.back().append(scratch);
  ++count_;
  constexpr std::size_t kKeptScratchBytes = 1 << 20;
  if (scratch.capacity() > kKeptScratchBytes) {
    scratch = std::string();  // an exceptionally large object does not stay with the thread
  }
}

void Store::Replacement::materialize(Items& items, Indexes& indexes) const {
  for (const auto& [name, fn] : indexers_) {
    indexes[name];  // an index with no objects still exists
  }
  items.reserve(count_);
  for (const std::string& block : blocks_) {
    for (RecordReader reader(block); !reader.done();) {
      std::string key(reader.record());
      auto [it, inserted] = items.try_emplace(key);
      if (!inserted) {  // rare: a list naming a key twice
        unfileObject(indexers_, indexes, key, *fromCompactText(it->second));
      }
      it->second = std::string(reader.record());
      for (const auto& [name, fn] : indexers_) {
        Index& index = indexes[name];
        for (std::size_t values = reader.length(); values > 0; --values) {
          index[std::string(reader.record())].insert(key);
        }
      }
    }
  }
}

Store::Replacement Store::beginReplace() const {
  MutexLock lock(mu_);
  return Replacement(indexers_, indexers_version_);
}

ReplaceResult Store::replace(const std::vector<ObjectPtr>& objects, std::string resource_version) {
  Replacement content = beginReplace();
  for (const ObjectPtr& object : objects) content.add(*object);
  return replace(std::move(content), std::move(resource_version));
}

ReplaceResult Store::replace(Replacement content, std::string resource_version) {
  // The content was encoded and indexed, and its maps are built, without the lock: a full list
  // can be large and readers should not wait on it. Under the lock, the maps become the store's
  // and the result gets copies of the texts, which the handlers' notifications free once
  // delivered.
  Items fresh;
  Indexes fresh_indexes;
  content.materialize(fresh, fresh_indexes);
  content.blocks_.clear();
  ReplaceResult result;
  Items old;  // what the store held; consumed as the diff matches it
  {
    MutexLock lock(mu_);
    if (content.indexers_version_ != indexers_version_) {  // addIndexers ran meanwhile
      fresh_indexes = buildIndexes(indexers_, fresh);
    }
    indexes_ = std::move(fresh_indexes);
    resource_version_ = std::move(resource_version);
    old = std::exchange(items_, std::move(fresh));
    for (const auto& [key, text] : items_) {
      auto previous = old.find(key);
      if (previous == old.end()) {
        result.added.push_back(text);
      } else {
        result.updated.emplace_back(std::move(previous->second), text);
        old.erase(previous);
      }
    }
  }
  for (auto& [key, text] : old) {
    result.removed.push_back(std::move(text));
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

std::vector<std::string> Store::compactTexts() const {
  MutexLock lock(mu_);
  std::vector<std::string> texts;
  texts.reserve(items_.size());
  for (const auto& [key, text] : items_) texts.push_back(text);
  return texts;
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

Store::Indexes Store::buildIndexes(const Indexers& indexers, const Items& items) {
  Indexes indexes;
  for (const auto& [name, fn] : indexers) {
    indexes[name];  // an index with no objects still exists
  }
  for (const auto& [key, text] : items) {
    fileObject(indexers, indexes, key, *fromCompactText(text));
  }
  return indexes;
}

const Store::Index* Store::findIndexLocked(const std::string& index_name) const {
  auto it = indexes_.find(index_name);
  return it == indexes_.end() ? nullptr : &it->second;
}

}  // namespace kf
