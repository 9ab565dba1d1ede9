#include "federation/scheduling/object_fields.h"

namespace kf::scheduling {

std::string metadataText(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  auto value = metadata->find(key);
  return value != metadata->end() && value->is_string() ? value->get<std::string>() : "";
}

std::string objectKey(const Json& object) {
  const std::string ns = metadataText(object, "namespace");
  const std::string name = metadataText(object, "name");
  return ns.empty() ? name : ns + "/" + name;
}

}  // namespace kf::scheduling
