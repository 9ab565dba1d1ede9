#pragma once
// JSON literals in unit tests.

#include <nlohmann/json.hpp>

namespace kf::test {

// The JSON value of a literal in a test; malformed text throws, failing the test.
inline nlohmann::json parsed(const char* text) { return nlohmann::json::parse(text); }

}  // namespace kf::test
