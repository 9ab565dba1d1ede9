#include "sync/finalizers.h"

#include <algorithm>

namespace kf::sync {

namespace {

std::set<std::string> currentFinalizers(const Json& object) {
  auto list = objectFinalizers(object).value_or(std::vector<std::string>());
  return std::set<std::string>(list.begin(), list.end());
}

}  // namespace

bool hasFinalizer(const Json& object, std::string_view finalizer) {
  return currentFinalizers(object).count(std::string(finalizer)) != 0;
}

bool addFinalizers(Json& object, const std::set<std::string>& finalizers) {
  std::set<std::string> all = currentFinalizers(object);
  if (std::includes(all.begin(), all.end(), finalizers.begin(), finalizers.end())) return false;
  all.insert(finalizers.begin(), finalizers.end());
  setFinalizers(object, std::vector<std::string>(all.begin(), all.end()));
  return true;
}

bool removeFinalizers(Json& object, const std::set<std::string>& finalizers) {
  std::set<std::string> remaining = currentFinalizers(object);
  std::size_t removed = 0;
  for (const auto& finalizer : finalizers) removed += remaining.erase(finalizer);
  if (removed == 0) return false;
  if (remaining.empty()) {
    setFinalizers(object, std::nullopt);
  } else {
    setFinalizers(object, std::vector<std::string>(remaining.begin(), remaining.end()));
  }
  return true;
}

std::string finalizersMergePatch(const Json& object) {
  Json metadata = Json::object();
  auto finalizers = objectFinalizers(object);
  metadata["finalizers"] = finalizers ? Json(*finalizers) : Json(nullptr);
  const std::string resource_version = objectResourceVersion(object);
  if (!resource_version.empty()) metadata["resourceVersion"] = resource_version;
  return Json{{"metadata", std::move(metadata)}}.dump();
}

}  // namespace kf::sync
