#pragma once
// How KubeFed's YAML library (go-yaml v2.4.0) reads an unquoted scalar. Its writer prints a string
// unquoted only when reading it back unquoted would give the same string, so this decides which
// strings `-o yaml` quotes. go-yaml follows YAML 1.1 here, not 1.2: `yes`, `on`, `y`, `0777`,
// `1_000`, `0b101`, `.5` and dates such as `2001-12-14` are not strings.

#include <string_view>

namespace kf::goyaml {

// Whether go-yaml reads `text`, unquoted, as the string `text`: not null (`""`, `~`, `null`), a
// boolean (`y`, `yes`, `on`, `true`, `n`, `no`, `off`, `false` and their capitalised forms), an
// integer (Go's syntax: signs, 0x/0o/0b prefixes, a leading 0 for octal, underscores anywhere, up
// to 64 bits), a float (`1.5`, `1e3`, `.5`, `.inf`, `.nan`), a timestamp (`2006-1-2` with an
// optional time) or a YAML 1.1 base-60 number (`1:20`), which go-yaml still quotes.
bool plainReadsAsString(std::string_view text);

}  // namespace kf::goyaml
