#include "federation/crdgen/names.h"

#include <algorithm>

namespace kf {

std::string toLower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string groupQualifiedName(const std::string& plural, const std::string& group) {
  return group.empty() ? plural : plural + "." + group;
}

}  // namespace kf
