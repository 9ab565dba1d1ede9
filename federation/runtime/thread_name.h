#pragma once
// Names the calling thread, so that top -H, perf and a debugger tell the process's threads apart.

#include <string_view>

namespace kf {

// Linux keeps the first 15 characters.
void nameThisThread(std::string_view name);

}  // namespace kf
