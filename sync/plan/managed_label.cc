#include "sync/plan/managed_label.h"

namespace kf::sync {

bool hasManagedLabel(const Json& object) {
  return labelValue(object, kManagedLabel) == kManagedLabelValue;
}

bool isExplicitlyUnmanaged(const Json& object) {
  return labelValue(object, kManagedLabel) == kUnmanagedLabelValue;
}

void addManagedLabel(Json& object) {
  StringMap labels = objectLabels(object).value_or(StringMap());
  labels[std::string(kManagedLabel)] = kManagedLabelValue;
  setLabels(object, labels);
}

bool removeManagedLabel(Json& object) {
  auto labels = objectLabels(object);
  if (!labels) return false;
  auto it = labels->find(std::string(kManagedLabel));
  if (it == labels->end() || it->second != kManagedLabelValue) return false;
  labels->erase(it);
  setLabels(object, labels);
  return true;
}

std::string removeManagedLabelMergePatch() {
  Json patch;
  patch["metadata"]["labels"][std::string(kManagedLabel)] = nullptr;
  return patch.dump();
}

bool isOrphaningEnabled(const Json& federated_object) {
  return annotationValue(federated_object, kOrphanAnnotation) == "true";
}

}  // namespace kf::sync
