// libFuzzer target for the Go-compatible JSON encoder and the PropagatedVersion hashes: any
// bytes, parsed as JSON or taken raw as strings (the only way to reach invalid UTF-8), must be
// encoded without crashing, into valid JSON, and stably. Build and run: tests/fuzz/CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "apis/encoding/go_json.h"
#include "apis/encoding/version_hash.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

bool isHexDigest(const std::string& text) {
  if (text.size() != 32) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// A version is "" (nothing to hash), 32 hex digits, or an error without a value.
void checkVersion(const EncodeResult& version) {
  if (version.ok()) {
    check(version.value.empty() || isHexDigest(version.value), "version is empty or an MD5 hex");
  } else {
    check(version.value.empty(), "a failed version has no value");
  }
}

// Encoding parsed output again must give the same bytes. The exception is -0: Go writes a
// float64 -0 as "-0", which reads back as the integer 0.
bool mayHoldNegativeZero(std::string_view encoded) {
  for (std::size_t i = encoded.find("-0"); i != std::string_view::npos;
       i = encoded.find("-0", i + 1)) {
    const char next = i + 2 < encoded.size() ? encoded[i + 2] : '\0';
    if (next != '.' && next != 'e') return true;
  }
  return false;
}

// `stable`: whether encoding what the encoding parses back to must give the same bytes. Not for
// invalid UTF-8: it comes back as U+FFFD, which Go writes verbatim rather than as \ufffd.
void checkEncoding(const Json& value, bool stable) {
  const EncodeResult marshalled = goJsonMarshal(value);
  check(marshalled.ok(), "values without NaN/Inf always encode");
  const std::string encoded = goJsonEncode(value);
  check(encoded == marshalled.value, "goJsonEncode agrees with goJsonMarshal");
  check(goJsonEncodeLine(value) == encoded + "\n", "goJsonEncodeLine appends a newline");
  const Json reparsed = Json::parse(encoded, nullptr, /*allow_exceptions=*/false);
  check(!reparsed.is_discarded(), "the encoding is valid JSON");
  if (stable && !mayHoldNegativeZero(encoded)) {
    check(goJsonEncode(reparsed) == encoded, "encoding is stable across a round trip");
  }
}

void checkVersions(const Json& federated_object) {
  checkVersion(templateVersion(federated_object));
  checkVersion(overridesVersion(federated_object));
  const EncodeResult input = overridesHashInput(federated_object);
  if (input.ok() && !input.value.empty()) {
    check(input.value.back() == '\n', "the hashed overrides text ends with a newline");
    check(!Json::parse(input.value, nullptr, false).is_discarded(), "overrides text is JSON");
  }
}

// Raw bytes as keys and strings of a federated object: invalid UTF-8 everywhere it can go.
Json objectWithRawStrings(const std::string& raw) {
  const Json value = {{raw, raw}, {"n", Json::array({raw, 1.5})}};
  const Json patch = {{"op", raw}, {"path", raw}, {"value", value}};
  const Json item = {{"clusterName", raw}, {"clusterOverrides", Json::array({patch})}};
  return {{"spec", {{"template", value}, {"overrides", Json::array({item})}}}};
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string raw(reinterpret_cast<const char*>(data), size);

  const kf::Json parsed = kf::Json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) {
    kf::checkEncoding(parsed, /*stable=*/true);
    kf::checkVersions(parsed);
    kf::checkVersions(kf::Json{{"spec", parsed}});
    kf::checkVersions(kf::Json{{"spec", {{"template", parsed}, {"overrides", parsed}}}});
  }

  const kf::Json with_raw = kf::objectWithRawStrings(raw);
  kf::checkEncoding(with_raw, /*stable=*/kf::toValidUtf8(raw) == raw);
  kf::checkVersions(with_raw);
  return 0;
}
