#include "apis/meta/qualified_name.h"

namespace kf {

std::string QualifiedName::key() const { return ns.empty() ? name : ns + "/" + name; }

QualifiedName QualifiedName::fromKey(std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return QualifiedName{"", std::string(key)};
  return QualifiedName{std::string(key.substr(0, slash)), std::string(key.substr(slash + 1))};
}

}  // namespace kf
