#pragma once
// The parts every top-level object shares: TypeMeta and ObjectMeta. Metadata is kept as raw
// JSON; the few accessors KubeFed needs read it in place.

#include <string>

#include "apis/meta/json_reader.h"

namespace kf::meta {

struct ObjectHeader {
  std::string api_version;  // omitempty
  std::string kind;         // omitempty
  Json metadata;            // null when absent

  std::string name() const;
  std::string namespaceName() const;
  std::int64_t generation() const;
};

Result<ObjectHeader> readObjectHeader(ObjectReader& reader);
void writeObjectHeader(const ObjectHeader& header, Json& out);

}  // namespace kf::meta
