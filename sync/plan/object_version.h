#pragma once
// Deciding whether a member object needs an update (spec §2.5.6 Update) without comparing whole
// objects: KubeFed records, per cluster, the version of the object it last wrote, and the member
// is current while that version still matches (and, for generation-based versions, while the
// metadata KubeFed controls still matches).

#include <string>

#include "apis/meta/object.h"

namespace kf::sync {

// "gen:<metadata.generation>" when the generation is not 0, else "rv:<resourceVersion>".
std::string objectVersion(const Json& object);

// Name, namespace, labels and annotations equal; absent, null and empty maps count as equal.
// UID, resourceVersion and everything else are ignored.
bool objectMetaEquivalent(const Json& a, const Json& b);
// objectMetaEquivalent and equal `spec` values.
bool objectMetaAndSpecEquivalent(const Json& a, const Json& b);

// True when `recorded_version` (from the PropagatedVersion; "" when none) differs from
// objectVersion(cluster_object), or when the version is generation-based and the metadata of
// `desired` and `cluster_object` are not equivalent (metadata changes do not bump generation).
bool objectNeedsUpdate(const Json& desired, const Json& cluster_object,
                       const std::string& recorded_version);

}  // namespace kf::sync
