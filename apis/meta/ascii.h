#pragma once
// ASCII case folding: Kubernetes names, kinds and HTTP header names are ASCII, and their
// comparisons must not depend on the process locale.

#include <string>
#include <string_view>

namespace kf {

std::string toLower(std::string_view text);

}  // namespace kf
