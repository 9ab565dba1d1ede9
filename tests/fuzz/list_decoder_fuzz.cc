// libFuzzer target for the item-by-item list decoder (federation/client/list_decoder.h), which
// reads what a member's API server answers to a list. The input's first byte chooses how the
// rest is used:
// - as a whole response body (any bytes), also cut short at a point the byte chooses: a
//   truncated body must fail, having handed over only items the whole body hands over first;
// - (high bit set) as one item, repeated up to 64 times inside a well-formed ConfigMapList: when
//   the item is a JSON object, exactly that many items must come out, each the object as a tree
//   parser reads it, with the list's kind and apiVersion when it has no kind of its own.
// Invariants in both: no crash, leak or undefined behaviour; decodeList and decodeListEach agree;
// a decoded body is a JSON object and every item handed over is an object.
// Build and run: tests/fuzz/CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "federation/client/list_decoder.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

struct Decoded {
  Result<ObjectList> list;
  std::vector<Json> items;  // in the order they were handed over, also before a failure
};

Decoded decodeEach(std::string_view body) {
  std::vector<Json> items;
  auto list = decodeListEach(body, [&items](Json item) { items.push_back(std::move(item)); });
  return {std::move(list), std::move(items)};
}

std::string_view trimmedRight(std::string_view text) {
  const auto end = text.find_last_not_of(" \t\r\n");
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

bool startsWith(const std::vector<Json>& all, const std::vector<Json>& prefix) {
  if (prefix.size() > all.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (all[i] != prefix[i]) return false;
  }
  return true;
}

void checkWholeBody(std::string_view body, std::uint8_t cut_seed) {
  const Decoded each = decodeEach(body);
  const auto collected = decodeList(body);
  check(static_cast<bool>(each.list) == static_cast<bool>(collected),
        "decodeList and decodeListEach agree on success");
  for (const Json& item : each.items)
    check(item.is_object(), "every item handed over is an object");
  if (!each.list) return;
  check(collected.value().items == each.items, "decodeList returns the items decodeListEach hands");
  check(collected.value().resource_version == each.list.value().resource_version &&
            collected.value().continue_token == each.list.value().continue_token,
        "decodeList and decodeListEach read the same metadata");
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  check(parsed.is_object(), "a decoded body is a JSON object");

  if (body.empty()) return;
  const std::size_t cut = (body.size() * cut_seed) / 256;
  const std::string_view prefix = body.substr(0, cut);
  const Decoded cut_short = decodeEach(prefix);
  check(startsWith(each.items, cut_short.items),
        "a truncated body hands over only items the whole body hands over first");
  if (trimmedRight(prefix).size() < trimmedRight(body).size()) {
    check(!cut_short.list, "a truncated body fails");
  }
}

// `item` n times in a list of ConfigMaps.
std::string listOf(std::string_view item, int n) {
  std::string body = R"({"kind":"ConfigMapList","apiVersion":"v1",)"
                     R"("metadata":{"resourceVersion":"7","continue":""},"items":[)";
  for (int i = 0; i < n; ++i) {
    if (i > 0) body += ',';
    body += item;
  }
  return body + "]}";
}

void checkRepeatedItem(std::string_view item, int n) {
  const std::string body = listOf(item, n);
  const Decoded decoded = decodeEach(body);
  // The tree parser stops at a NUL byte as at the end of its input: such an item is not JSON.
  if (item.find('\0') != std::string_view::npos) return;
  Json expected = Json::parse(item, nullptr, /*allow_exceptions=*/false);
  if (!expected.is_object()) return;  // the list may still decode (item "{},{}"): no oracle
  check(static_cast<bool>(decoded.list), "a list of valid objects decodes");
  check(decoded.list.value().resource_version == "7", "the list's resourceVersion is read");
  check(decoded.items.size() == static_cast<std::size_t>(n), "every item is handed over");
  if (!expected.contains("kind")) {
    expected["kind"] = "ConfigMap";
    expected["apiVersion"] = "v1";
  }
  for (const Json& got : decoded.items) {
    check(got == expected, "an item is the object a tree parser reads, with the list's kind");
  }
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 0x80) {
    kf::checkRepeatedItem(rest, 1 + (data[0] & 0x3f));
  } else {
    kf::checkWholeBody(rest, static_cast<std::uint8_t>(data[0] << 1));
  }
  return 0;
}
