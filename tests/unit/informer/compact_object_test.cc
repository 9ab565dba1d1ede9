#include "federation/informer/compact_object.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

// Verifies that an object round-trips unchanged, as one line of JSON.
TEST(CompactObjectTest, RoundTripsAnObject) {
  const Json object = Json::parse(R"({
    "apiVersion": "v1", "kind": "ConfigMap",
    "metadata": {"name": "a", "namespace": "ns", "labels": {"app": "ünïcode ✓"},
                 "annotations": {"note": "quote \" and \\ backslash"}},
    "data": {"empty": "", "nested": "{\"json\": [1, 2]}"}, "binaryData": null,
    "numbers": [0, -1, 2.5, 1e300, 18446744073709551615], "flag": true})");
  const std::string text = compactText(object);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text, object.dump());
  EXPECT_EQ(*fromCompactText(text), object);
}

// Verifies that metadata.managedFields is dropped, and nothing else, wherever it sits in the
// metadata; a managedFields outside metadata is data and kept.
TEST(CompactObjectTest, LeavesOutManagedFieldsOnly) {
  Json object = Json::parse(R"({
    "kind": "ConfigMap",
    "metadata": {"annotations": {"a": "b"}, "managedFields": [{"manager": "m", "fieldsV1": {}}],
                 "name": "a", "resourceVersion": "7"},
    "data": {"managedFields": "kept"}})");
  Json expected = object;
  expected["metadata"].erase("managedFields");
  EXPECT_EQ(*fromCompactText(compactText(object)), expected);

  object["metadata"] = {{"managedFields", Json::array()}};
  EXPECT_EQ(
      *fromCompactText(compactText(object)),
      Json::parse(R"({"kind": "ConfigMap", "metadata": {}, "data": {"managedFields": "kept"}})"));
}

// Verifies that values that are not objects, or objects without metadata, are kept as they are.
TEST(CompactObjectTest, KeepsAnythingElseAsItIs) {
  for (const char* text : {R"({})", R"({"metadata": "odd"})", R"({"metadata": null})", R"([1])",
                           R"("text")", R"(null)"}) {
    const Json value = Json::parse(text);
    EXPECT_EQ(*fromCompactText(compactText(value)), value) << text;
  }
}

}  // namespace
}  // namespace kf
