#include "apis/meta/object_header.h"

#include "apis/meta/object.h"

namespace kf::meta {

std::string ObjectHeader::name() const { return stringIn(metadata, "name"); }
std::string ObjectHeader::namespaceName() const { return stringIn(metadata, "namespace"); }
std::int64_t ObjectHeader::generation() const { return int64In(metadata, "generation"); }

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
