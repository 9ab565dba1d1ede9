#include "federation/controller/finalizers.h"

#include <algorithm>
#include <set>

namespace kf {
namespace {

std::set<std::string> asSet(const std::vector<std::string>& values) {
  return {values.begin(), values.end()};
}

std::vector<std::string> asSortedList(const std::set<std::string>& values) {
  return {values.begin(), values.end()};
}

}  // namespace

std::vector<std::string> finalizersOf(const Json& object) {
  return objectFinalizers(object).value_or(std::vector<std::string>{});
}

bool hasFinalizer(const Json& object, std::string_view finalizer) {
  const std::vector<std::string> finalizers = finalizersOf(object);
  return std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
}

FinalizerUpdate addFinalizers(const Json& object, const std::vector<std::string>& added) {
  std::vector<std::string> current = finalizersOf(object);
  std::set<std::string> all = asSet(current);
  const bool missing_any = std::any_of(added.begin(), added.end(),
                                       [&](const std::string& f) { return !all.contains(f); });
  if (!missing_any) return {false, std::move(current)};
  all.insert(added.begin(), added.end());
  return {true, asSortedList(all)};
}

FinalizerUpdate removeFinalizers(const Json& object, const std::vector<std::string>& removed) {
  std::vector<std::string> current = finalizersOf(object);
  std::set<std::string> remaining = asSet(current);
  std::size_t erased = 0;
  for (const std::string& finalizer : removed) erased += remaining.erase(finalizer);
  if (erased == 0) return {false, std::move(current)};
  return {true, asSortedList(remaining)};
}

std::string finalizersMergePatch(const std::vector<std::string>& finalizers) {
  return Json{{"metadata", {{"finalizers", finalizers.empty() ? Json(nullptr) : Json(finalizers)}}}}
      .dump();
}

}  // namespace kf
