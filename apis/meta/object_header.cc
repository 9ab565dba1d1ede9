#include "apis/meta/object_header.h"

namespace kf::meta {
namespace {

std::string metadataString(const Json& metadata, const char* key) {
  if (!metadata.is_object()) return "";
  auto it = metadata.find(key);
  return it != metadata.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string ObjectHeader::name() const { return metadataString(metadata, "name"); }
std::string ObjectHeader::namespaceName() const { return metadataString(metadata, "namespace"); }

std::int64_t ObjectHeader::generation() const {
  if (!metadata.is_object()) return 0;
  auto it = metadata.find("generation");
  return it != metadata.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

Result<ObjectHeader> readObjectHeader(ObjectReader& reader) {
  ObjectHeader header;
  KF_TRY(api_version, reader.string("apiVersion"));
  KF_TRY(kind, reader.string("kind"));
  header.api_version = std::move(api_version);
  header.kind = std::move(kind);
  if (const Json* metadata = reader.optValue("metadata")) {
    if (!metadata->is_object()) return decodeError(reader.path("metadata"), "expected object");
    header.metadata = *metadata;
  }
  return header;
}

void writeObjectHeader(const ObjectHeader& header, Json& out) {
  putIfNotEmpty(out, "apiVersion", header.api_version);
  putIfNotEmpty(out, "kind", header.kind);
  if (!header.metadata.is_null()) out["metadata"] = header.metadata;
}

}  // namespace kf::meta
