#pragma once
// Go encoding/json output, byte for byte, for unstructured values. KubeFed hashes this output
// (spec §2.5.7: PropagatedVersion template and override versions), so any difference in key
// order, number formatting or string escaping breaks compatibility with KubeFed and its e2e suite.
//
// The rules are those of the Go release KubeFed v0.8.1 was built with (before Go 1.22): a value
// is encoded as Go encodes the map[string]interface{} that Kubernetes' JSON decoder produces:
//   * object keys sorted bytewise, no whitespace;
//   * integers that fit int64 in decimal; every other number as a float64: shortest round-trip
//     digits, plain notation unless |x| < 1e-6 or |x| >= 1e21 ("1e-7", "1e+21"), -0 as "-0";
//   * strings HTML-safe: `"` `\` `\n` `\r` `\t` as short escapes, other bytes below 0x20 (also
//     \b and \f, which only Go >= 1.22 shortens) and `<` `>` `&` as \u00xx, U+2028/U+2029 as
//     \u2028/\u2029, each byte of invalid UTF-8 as \ufffd, everything else verbatim.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kf {

using Json = nlohmann::json;

// What Go returns as (string, error): `error` is empty on success.
struct EncodeResult {
  std::string value;
  std::string error;

  bool ok() const { return error.empty(); }
};

// json.Marshal. Fails where Go fails: NaN and ±Inf ("json: unsupported value: NaN"). Parsing
// JSON text never produces those; only values built in C++ can hold them (or binary values).
EncodeResult goJsonMarshal(const Json& value);

// json.Marshal for values known to be encodable (anything parsed from JSON text). A value Go
// would refuse is written as null; use goJsonMarshal to get Go's error instead.
std::string goJsonEncode(const Json& value);

// json.Encoder.Encode: the encoding plus "\n". This is what client-go's
// Unstructured.MarshalJSON returns, hence what KubeFed hashes.
std::string goJsonEncodeLine(const Json& value);

// A Go-encoded JSON string literal, quotes included.
std::string goJsonQuote(std::string_view text);

// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD, as Go's encoder and
// decoder leave strings after a round trip through JSON text.
std::string toValidUtf8(std::string_view text);

}  // namespace kf
