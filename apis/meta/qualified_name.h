#pragma once
// The name of an object with its namespace, and the one parser of "namespace/name" keys (the
// keys of caches and work queues; "name" for cluster-scoped objects).

#include <string>
#include <string_view>

namespace kf {

struct QualifiedName {
  std::string ns;  // empty for cluster-scoped objects
  std::string name;

  // "ns/name", or "name" without namespace.
  std::string key() const;
  // Splits at the first "/".
  static QualifiedName fromKey(std::string_view key);

  bool operator==(const QualifiedName&) const = default;
};

}  // namespace kf
