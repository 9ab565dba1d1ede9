#pragma once
// Finalizers on federated objects (finalizers_test): the sync controller's finalizer keeps a
// federated object until its member objects are gone (spec §2.5.3 step 3, §2.5.9). Changing the
// list rewrites it sorted and without duplicates; a list left empty is removed.

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sync/object_meta.h"

namespace kf::sync {

inline constexpr std::string_view kSyncControllerFinalizer = "kubefed.io/sync-controller";

bool hasFinalizer(const Json& object, std::string_view finalizer);

// Adds the missing ones; returns whether the object changed (false when all were present).
bool addFinalizers(Json& object, const std::set<std::string>& finalizers);
// Removes the present ones; returns whether the object changed (false when none was present).
bool removeFinalizers(Json& object, const std::set<std::string>& finalizers);

// A JSON merge patch that sets metadata.finalizers to the object's current list (null when it
// has none), guarded by its resourceVersion so that a concurrent change makes it Conflict.
std::string finalizersMergePatch(const Json& object);

}  // namespace kf::sync
