#pragma once
// How KubeFed's YAML library (go-yaml v2.4.0, which kubectl's YAML reading also uses) reads an
// unquoted scalar. It follows YAML 1.1, not 1.2: `yes`, `on`, `y` are booleans, `0777` is octal,
// `1_000`, `0x1F` and `0b101` are integers, `.5` is a float. Its writer prints a string unquoted
// only when reading it back unquoted gives the same string, so this also decides which strings
// `-o yaml` quotes.

#include <nlohmann/json.hpp>
#include <string_view>

namespace kf::goyaml {

// Whether go-yaml reads `text`, unquoted, as the string `text`: not null (`""`, `~`, `null`), a
// boolean (`y`, `yes`, `on`, `true`, `n`, `no`, `off`, `false` and their capitalised forms), an
// integer (Go's syntax: signs, 0x/0o/0b prefixes, a leading 0 for octal, underscores anywhere, up
// to 64 bits), a float (`1.5`, `1e3`, `.5`, `.inf`, `.nan`), a timestamp (`2006-1-2` with an
// optional time) or a YAML 1.1 base-60 number (`1:20`), which go-yaml still quotes.
bool plainReadsAsString(std::string_view text);

// What an unquoted scalar becomes in JSON when Kubernetes reads YAML (sigs.k8s.io/yaml over
// go-yaml): null, true/false, an integer (int64, else uint64), a float, or the text itself
// (timestamps and base-60 numbers stay strings; so do .inf and .nan, which JSON cannot hold).
nlohmann::json readPlain(std::string_view text);

// A mapping key read unquoted, as Kubernetes turns it into a JSON key: booleans as "true" or
// "false", integers in decimal, floats as Go prints a float32 ("1.5"; ".inf" beyond float32),
// the text otherwise.
std::string readPlainKey(std::string_view text);

}  // namespace kf::goyaml
