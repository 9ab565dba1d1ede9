#pragma once
// Joining messages and names into one line of an error or a log.

#include <string>
#include <string_view>
#include <vector>

namespace kf {

// The parts with the separator between each two of them ("" for no parts).
std::string joinWith(const std::vector<std::string>& parts, std::string_view separator);

}  // namespace kf
