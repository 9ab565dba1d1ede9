#pragma once
// The local cache an informer keeps of one resource: objects keyed by objectKey(), plus secondary
// indexes (index value -> keys) maintained on every write. Objects are held as compact JSON text
// (compact_object.h: about a tenth of a parsed tree, without metadata.managedFields) and handed
// out as immutable ObjectPtrs parsed on each read; indexes hold keys only.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

// Maps an object to the values it is filed under in one index (none, one or several). Must be
// deterministic (the store recomputes it to unfile an object) and must not throw.
using IndexFunc = std::function<std::vector<std::string>(const Json&)>;
using Indexers = std::map<std::string, IndexFunc>;

// Present in every Store: files objects by metadata.namespace ("" for cluster-scoped ones).
inline constexpr char kNamespaceIndex[] = "namespace";
std::vector<std::string> namespaceIndexFunc(const Json& object);

// What replace() changed, so an informer can tell its handlers. Objects are given as compact text
// (compact_object.h), for the informer to parse when a handler needs a tree: a first list of N
// objects would otherwise be N trees at once.
struct ReplaceResult {
  std::vector<std::string> added;
  std::vector<std::pair<std::string, std::string>> updated;  // (old, new) for keys present before
  std::vector<std::string> removed;                          // last known state of vanished keys
};

// Thread-safe. Every read returns a tree of its own (parsed outside the lock), so an object a
// reader holds stays valid and unchanged after the store moves on to a newer version of it.
class Store {
  using Index = std::unordered_map<std::string, std::unordered_set<std::string>>;
  // Compact text by key.
  using Items = std::unordered_map<std::string, std::string>;
  using Indexes = std::unordered_map<std::string, Index>;

 public:
  Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Adds indexes; the objects already stored are filed under them. Fails (and adds nothing) if
  // a name is already taken.
  Status addIndexers(Indexers indexers) KF_EXCLUDES(mu_);

  // Inserts or overwrites the object under its key. Returns the object it replaced (as stored),
  // or null.
  ObjectPtr add(ObjectPtr object) KF_EXCLUDES(mu_);
  ObjectPtr update(ObjectPtr object) KF_EXCLUDES(mu_) { return add(std::move(object)); }
  // Returns the removed object, or null if the key was absent.
  ObjectPtr remove(const std::string& key) KF_EXCLUDES(mu_);
  // A whole new content, built outside the store one object at a time (a list's items as they
  // are decoded: only the object being added is a tree) and swapped in by replace().
  class Replacement {
   public:
    // Encodes `object` and computes its index values; a later object with the same key wins.
    void add(const Json& object);

   private:
    friend class Store;
    Replacement(Indexers indexers, std::uint64_t indexers_version);
    // The store's maps for the recorded objects, filed under the recorded index values.
    void materialize(Items& items, Indexes& indexes) const;

    Indexers indexers_;
    std::uint64_t indexers_version_;
    // Per object: its key, its compact text, and per indexer the number of values and the values;
    // each string as its length and bytes, in blocks of 256 KiB. The store's maps are built from
    // them only once the list is read: their many small allocations then sit together in memory,
    // rather than between the freed pieces of every item's tree, where the allocator could not
    // give the pieces back.
    std::vector<std::string> blocks_;
    std::size_t count_ = 0;
  };
  // An empty content filed under the store's current indexes.
  Replacement beginReplace() const KF_EXCLUDES(mu_);

  // Swaps the whole content for `content` in one step (readers see the old or the new set, never
  // a mix) and records the list's resourceVersion.
  ReplaceResult replace(Replacement content, std::string resource_version) KF_EXCLUDES(mu_);
  // The same for objects at hand; later duplicates of a key win.
  ReplaceResult replace(const std::vector<ObjectPtr>& objects, std::string resource_version)
      KF_EXCLUDES(mu_);

  // Null if absent.
  ObjectPtr get(const std::string& key) const KF_EXCLUDES(mu_);
  // Unordered.
  std::vector<ObjectPtr> list() const KF_EXCLUDES(mu_);
  // Every object as compact text (compact_object.h), unordered: for a caller that parses them one
  // at a time rather than holding every tree at once.
  std::vector<std::string> compactTexts() const KF_EXCLUDES(mu_);
  std::vector<std::string> listKeys() const KF_EXCLUDES(mu_);
  std::size_t size() const KF_EXCLUDES(mu_);
  // The resourceVersion passed to the last replace().
  std::string resourceVersion() const KF_EXCLUDES(mu_);

  // Objects filed under `value` in index `index_name` (unordered); NotFound for an unknown index.
  Result<std::vector<ObjectPtr>> byIndex(const std::string& index_name,
                                         const std::string& value) const KF_EXCLUDES(mu_);
  // Their keys, sorted.
  Result<std::vector<std::string>> indexKeys(const std::string& index_name,
                                             const std::string& value) const KF_EXCLUDES(mu_);
  // Every value that has at least one object in the index, sorted.
  Result<std::vector<std::string>> indexValues(const std::string& index_name) const
      KF_EXCLUDES(mu_);

 private:
  static void fileObject(const Indexers& indexers, Indexes& indexes, const std::string& key,
                         const Json& object);
  static void unfileObject(const Indexers& indexers, Indexes& indexes, const std::string& key,
                           const Json& object);
  static Indexes buildIndexes(const Indexers& indexers, const Items& items);
  const Index* findIndexLocked(const std::string& index_name) const KF_REQUIRES(mu_);

  mutable Mutex mu_;
  Items items_ KF_GUARDED_BY(mu_);
  Indexers indexers_ KF_GUARDED_BY(mu_);
  Indexes indexes_ KF_GUARDED_BY(mu_);
  // Bumped by addIndexers, so replace() can tell whether a Replacement's indexes are current.
  std::uint64_t indexers_version_ KF_GUARDED_BY(mu_) = 0;
  std::string resource_version_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
