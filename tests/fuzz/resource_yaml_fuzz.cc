// libFuzzer target for kubefedctl's YAML input (`federate -f`, `enable -f`): any bytes are read
// as a stream of YAML or JSON documents. Invariants: no crash, leak or undefined behaviour; every
// object read is a JSON object (a List's items included) named by where it came from; and what
// kubefedctl prints with `-o yaml` reads back as the same object.
// Build and run: tests/fuzz/CMakeLists.txt.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cmd/kubefedctl/resource_files.h"
#include "federation/crdgen/yaml_json.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

// Whether the -o yaml round trip is expected to hold. NaN never equals itself after one, and an
// integer beyond int64 is printed as KubeFed prints it, as the nearest float64. (Keys longer
// than 128 bytes are written as "? key", so none passes YAML's 1024-character limit on
// implicit keys.)
bool comparable(const Json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>());
  if (value.is_number_unsigned()) return value.get<std::uint64_t>() <= INT64_MAX;
  if (!value.is_object() && !value.is_array()) return true;
  // An object iterates over its values, an array over its items.
  for (const auto& item : value) {
    if (!comparable(item)) return false;
  }
  return true;
}

void exercise(const std::string& input) {
  auto objects = kubefedctl::parseResourceText(input, "fuzz.yaml");
  if (!objects) {
    check(objects.error().message.rfind("fuzz.yaml", 0) == 0, "an error names the input");
    return;
  }
  for (const auto& [object, source] : objects.value()) {
    check(object.is_object(), "every object read is a mapping");
    check(source.rfind("fuzz.yaml", 0) == 0, "every object says where it came from");
    if (!comparable(object)) continue;
    const std::string printed = toYaml(nlohmann::ordered_json(object));
    auto reread = yamlDocumentsToJson(printed);
    check(static_cast<bool>(reread), "printed YAML reads back");
    check(reread.value().size() == 1 && reread.value()[0] == object,
          "printed YAML reads back as the same object");
  }
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kf::exercise(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
