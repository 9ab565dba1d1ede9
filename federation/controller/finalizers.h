#pragma once
// Finalizers of an unstructured object, with set semantics: the lists these functions produce
// are sorted and free of duplicates, and `changed` says whether a write is needed at all.

#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/object.h"

namespace kf {

// metadata.finalizers as stored (order and duplicates kept); empty when absent.
std::vector<std::string> finalizersOf(const Json& object);
bool hasFinalizer(const Json& object, std::string_view finalizer);

struct FinalizerUpdate {
  bool changed = false;
  // The list to write when changed; the current list otherwise.
  std::vector<std::string> finalizers;
};

// Unchanged when every one of `added` is present already; else the sorted union.
FinalizerUpdate addFinalizers(const Json& object, const std::vector<std::string>& added);
// Unchanged when none of `removed` is present; else the sorted remainder.
FinalizerUpdate removeFinalizers(const Json& object, const std::vector<std::string>& removed);

// A JSON merge patch that sets metadata.finalizers to `finalizers` (an empty list removes the
// field). Without a resourceVersion, as KubeFed's patches are: no Conflict when the object
// changed since it was read.
std::string finalizersMergePatch(const std::vector<std::string>& finalizers);

}  // namespace kf
