// libFuzzer target for JSON Patch and KubeFed's overrides: the input is JSON
// {"object": <a member object>, "patch": <a JSON Patch>, "overrides": <spec.overrides>}; the
// patch is applied to the object, and each cluster's overrides are read and applied as the sync
// controller applies them. Invariants: no crash, leak or undefined behaviour, and both are all
// or nothing: a failed patch or override leaves the object exactly as it was, and says why.
// Build and run: tests/fuzz/CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "apis/meta/field_errors.h"
#include "sync/plan/json_patch.h"
#include "sync/plan/overrides.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

void exercisePatch(const Json& object, const Json& patch) {
  auto operations = sync::parseJsonPatch(patch);
  if (!operations) return;
  Json document = object;
  const auto applied = sync::applyJsonPatch(document, operations.value());
  if (!applied) {
    check(document == object, "a failed patch changes nothing");
    check(!applied.error().message.empty(), "a failed patch says why");
  }
}

void exerciseOverrides(const Json& object, const Json& overrides) {
  const Json federated = {{"spec", {{"overrides", overrides}}}};
  auto by_cluster = sync::readOverridesMap(federated);
  if (!by_cluster) {
    check(!by_cluster.error().message.empty(), "unreadable overrides say why");
    return;
  }
  for (const auto& [cluster, list] : by_cluster.value()) {
    Json member = object;
    const auto applied = sync::applyClusterOverrides(member, cluster, list);
    if (!applied) {
      check(member == object, "failed overrides change nothing");
      check(applied.error().message.find(meta::goQuote(cluster)) != std::string::npos,
            "an override error names the cluster");
    }
  }
}

void exercise(const std::string& input) {
  const Json decoded = Json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (!decoded.is_object()) return;
  const Json object = decoded.value("object", Json::object());
  if (decoded.contains("patch")) exercisePatch(object, decoded["patch"]);
  if (decoded.contains("overrides")) exerciseOverrides(object, decoded["overrides"]);
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kf::exercise(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
