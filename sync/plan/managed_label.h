#pragma once
// The label that marks member-cluster objects as KubeFed's, and the orphaning annotation on
// federated objects (spec §0.2). Member informers only see objects labeled managed=true, so
// adding and removing this label is how KubeFed adopts and releases objects.

#include <string>
#include <string_view>

#include "apis/meta/object.h"

namespace kf::sync {

inline constexpr std::string_view kManagedLabel = "kubefed.io/managed";
inline constexpr std::string_view kManagedLabelValue = "true";
// Set by users to keep KubeFed away from an object (status ManagedLabelFalse).
inline constexpr std::string_view kUnmanagedLabelValue = "false";
inline constexpr std::string_view kOrphanAnnotation = "kubefed.io/orphan";

// kubefed.io/managed == "true".
bool hasManagedLabel(const Json& object);
// kubefed.io/managed == "false".
bool isExplicitlyUnmanaged(const Json& object);

// Sets kubefed.io/managed=true, keeping the other labels. Labels that are not an object of
// strings are replaced by the managed label alone (client-go reads them as absent).
void addManagedLabel(Json& object);
// Removes the label when it is "true"; returns whether it did.
bool removeManagedLabel(Json& object);
// The JSON merge patch that removes the label from a member object.
std::string removeManagedLabelMergePatch();

// kubefed.io/orphan == "true" on a federated object: on deletion, leave the member objects in
// place and only unlabel them.
bool isOrphaningEnabled(const Json& federated_object);

}  // namespace kf::sync
