#pragma once
// YAML in and out for kubefedctl: `-o yaml` prints documents as KubeFed's kubefedctl does
// (go-yaml v2's block style: sequences not indented under their key, strings quoted only when
// go-yaml would misread them, long strings folded, numbers as go-yaml prints them; see
// go_yaml_scalar.h); `-f` reads YAML documents into JSON.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"

namespace kf {

// One YAML document (no leading "---"), keys in the order of `value` (sortedLikeGoYaml gives
// KubeFed's).
std::string toYaml(const nlohmann::ordered_json& value);

// Every non-empty document of a YAML stream, read as kubectl and KubeFed read YAML: plain scalars
// become null, booleans, integers or floats by go-yaml's YAML 1.1 rules (`yes` and `on` are true,
// `0644` is octal, go_yaml_plain.h), and so do plain mapping keys ("true", "420"); quoted
// scalars stay strings.
Result<std::vector<Json>> yamlDocumentsToJson(const std::string& text);

}  // namespace kf
