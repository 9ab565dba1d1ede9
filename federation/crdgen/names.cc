#include "federation/crdgen/names.h"

namespace kf {

std::string groupQualifiedName(const std::string& plural, const std::string& group) {
  return group.empty() ? plural : plural + "." + group;
}

}  // namespace kf
