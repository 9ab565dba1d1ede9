#include "federation/client/object.h"

namespace kf {
namespace {

std::string metadataString(const Json& object, const char* field) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) {
    return {};
  }
  const auto value = metadata->find(field);
  return value != metadata->end() && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace

std::string objectName(const Json& object) { return metadataString(object, "name"); }
std::string objectNamespace(const Json& object) { return metadataString(object, "namespace"); }
std::string objectResourceVersion(const Json& object) {
  return metadataString(object, "resourceVersion");
}
std::string objectUid(const Json& object) { return metadataString(object, "uid"); }

std::string objectKey(const Json& object) {
  std::string ns = objectNamespace(object);
  return ns.empty() ? objectName(object) : ns + "/" + objectName(object);
}

}  // namespace kf
