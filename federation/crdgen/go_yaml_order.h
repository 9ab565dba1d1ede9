#pragma once
// The order in which KubeFed's YAML writer prints object keys. It marshals an object to JSON
// and converts that with sigs.k8s.io/yaml (ghodss), which decodes into Go maps and lets go-yaml
// v2 (v2.4.0) print them, sorting keys its own way: byte order between letters, a non-letter
// before a letter ("v1_" before "v1a"), and runs of digits compared as numbers ("port9" before
// "port10"). Struct field order plays no part. The comparison is not transitive for some keys
// that mix digit runs with leading zeros and letters ("a1b" < "a01" < "a10b" < "a1b"): KubeFed's
// own order of such keys changes with Go's map and sort order, and ours may differ from it there
// (a stable sort: never out of bounds when the comparison is inconsistent).

#include <nlohmann/json.hpp>
#include <string_view>

namespace kf {

// go-yaml v2's key comparison. Non-ASCII characters count as letters.
bool goYamlKeyLess(std::string_view a, std::string_view b);

// `value` with every object's keys in go-yaml v2's order; arrays keep theirs.
nlohmann::ordered_json sortedLikeGoYaml(const nlohmann::ordered_json& value);

}  // namespace kf
