#include "sync/plan/json_patch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::sync {
namespace {

using ::testing::HasSubstr;

JsonPatchOperation op(std::string kind, std::string path, std::optional<Json> value = std::nullopt,
                      std::optional<std::string> from = std::nullopt) {
  return JsonPatchOperation{std::move(kind), std::move(path), std::move(from), std::move(value)};
}

// The document after `operations`, or the error message prefixed with "error: ".
Json patched(const char* document, const std::vector<JsonPatchOperation>& operations) {
  Json doc = Json::parse(document);
  auto result = applyJsonPatch(doc, operations);
  if (!result) return "error: " + result.error().message;
  return doc;
}

using test::parsed;

// Verifies the json-patch v4 quirk the e2e suite relies on: replacing a missing key creates it.
TEST(JsonPatchTest, ReplaceOfMissingObjectKeyCreatesIt) {
  EXPECT_EQ(patched(R"({"metadata": {"name": "a"}})",
                    {op("replace", "/metadata/labels", parsed(R"({"x": "y"})"))}),
            parsed(R"({"metadata": {"name": "a", "labels": {"x": "y"}}})"));
  EXPECT_EQ(patched(R"({"a": 1})", {op("replace", "/a", 2)}), parsed(R"({"a": 2})"));
}

// Verifies that replace needs an existing array element (negative indices from the end).
TEST(JsonPatchTest, ReplaceInArrays) {
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("replace", "/a/1", 9)}),
            parsed(R"({"a": [1, 9, 3]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("replace", "/a/-1", 9)}),
            parsed(R"({"a": [1, 2, 9]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("replace", "/a/3", 9)}),
            "error: operation[0] (replace /a/3): replace operation does not apply: doc is missing "
            "key: /a/3: missing value");
  EXPECT_EQ(patched(R"({"a": [1]})", {op("replace", "/a/-2", 9)}),
            "error: operation[0] (replace /a/-2): replace operation does not apply: doc is missing "
            "key: /a/-2: missing value");
  EXPECT_EQ(patched(R"({"a": [1]})", {op("replace", "/a/-", 9)}),
            "error: operation[0] (replace /a/-): replace operation does not apply: doc is missing "
            "key: /a/-: missing value");
}

// Verifies that remove fails on a missing key or index and removes otherwise.
TEST(JsonPatchTest, Remove) {
  EXPECT_EQ(patched(R"({"a": 1, "b": 2})", {op("remove", "/a")}), parsed(R"({"b": 2})"));
  EXPECT_EQ(patched(R"({"a": null})", {op("remove", "/a")}), parsed(R"({})"));
  EXPECT_EQ(patched(R"({"a": 1})", {op("remove", "/b")}),
            "error: operation[0] (remove /b): error in remove for path: '/b': Unable to remove "
            "nonexistent key: b: missing value");
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("remove", "/a/0")}), parsed(R"({"a": [2, 3]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("remove", "/a/-1")}), parsed(R"({"a": [1, 2]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("remove", "/a/-3")}), parsed(R"({"a": [2, 3]})"));
  EXPECT_EQ(patched(R"({"a": [1]})", {op("remove", "/a/1")}),
            "error: operation[0] (remove /a/1): error in remove for path: '/a/1': Unable to "
            "access invalid index: 1: invalid index referenced");
  EXPECT_EQ(patched(R"({"a": [1]})", {op("remove", "/a/-2")}),
            "error: operation[0] (remove /a/-2): error in remove for path: '/a/-2': Unable to "
            "access invalid index: -2: invalid index referenced");
  EXPECT_EQ(patched(R"({"a": [1]})", {op("remove", "/a/x")}),
            "error: operation[0] (remove /a/x): error in remove for path: '/a/x': strconv.Atoi: "
            "parsing \"x\": invalid syntax");
}

// Verifies add on objects (create or overwrite) and arrays (append, insert, negative).
TEST(JsonPatchTest, Add) {
  EXPECT_EQ(patched(R"({"a": 1})", {op("add", "/a", 2), op("add", "/b", "x")}),
            parsed(R"({"a": 2, "b": "x"})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/-", 3)}), parsed(R"({"a": [1, 2, 3]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/0", 0)}), parsed(R"({"a": [0, 1, 2]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/2", 3)}), parsed(R"({"a": [1, 2, 3]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/-1", 3)}), parsed(R"({"a": [1, 2, 3]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/-3", 0)}), parsed(R"({"a": [0, 1, 2]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/3", 9)}),
            "error: operation[0] (add /a/3): error in add for path: '/a/3': Unable to access "
            "invalid index: 3: invalid index referenced");
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("add", "/a/-4", 9)}),
            "error: operation[0] (add /a/-4): error in add for path: '/a/-4': Unable to access "
            "invalid index: -4: invalid index referenced");
  EXPECT_EQ(patched(R"({"a": []})", {op("add", "/a/x", 9)}),
            "error: operation[0] (add /a/x): error in add for path: '/a/x': value was not a proper "
            "array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax");
}

// Verifies Go's strconv.Atoi index syntax: signs and leading zeros accepted, overflow rejected.
TEST(JsonPatchTest, IndicesParseLikeAtoi) {
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("replace", "/a/+1", 9)}), parsed(R"({"a": [1, 9]})"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("replace", "/a/01", 9)}), parsed(R"({"a": [1, 9]})"));
  EXPECT_EQ(patched(R"({"a": [1]})", {op("add", "/a/99999999999999999999", 9)}),
            "error: operation[0] (add /a/99999999999999999999): error in add for path: "
            "'/a/99999999999999999999': value was not a proper array index: "
            "'99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value out "
            "of range");
  EXPECT_THAT(patched(R"({"a": [1]})", {op("remove", "/a/99999999999999999999x")}).dump(),
              HasSubstr("value out of range"));
  EXPECT_EQ(patched(R"({"a": [1, 2]})", {op("remove", "/a/-9223372036854775808")}).dump(),
            "\"error: operation[0] (remove /a/-9223372036854775808): error in remove for path: "
            "'/a/-9223372036854775808': Unable to access invalid index: -9223372036854775808: "
            "invalid index referenced\"");
  EXPECT_THAT(patched(R"({"a": [1]})", {op("remove", "/a/")}).get<std::string>(),
              HasSubstr("strconv.Atoi: parsing \"\": invalid syntax"));
}

// Verifies that every segment before the last must exist and be an object or array.
TEST(JsonPatchTest, IntermediateSegmentsMustExist) {
  EXPECT_EQ(patched(R"({"spec": {}})", {op("add", "/spec/template/metadata", Json::object())}),
            "error: operation[0] (add /spec/template/metadata): add operation does not apply: doc "
            "is missing path: \"/spec/template/metadata\": missing value");
  EXPECT_EQ(patched(R"({"spec": null})", {op("replace", "/spec/x", 1)}),
            "error: operation[0] (replace /spec/x): replace operation does not apply: doc is "
            "missing path: /spec/x: missing value");
  EXPECT_EQ(patched(R"({"spec": "text"})", {op("remove", "/spec/x")}),
            "error: operation[0] (remove /spec/x): remove operation does not apply: doc is "
            "missing path: \"/spec/x\": missing value");
  EXPECT_EQ(patched(R"({"a": [{"b": 1}]})", {op("replace", "/a/0/b", 2)}),
            parsed(R"({"a": [{"b": 2}]})"));
  EXPECT_EQ(patched(R"({"a": [{"b": 1}]})", {op("replace", "/a/-1/b", 2)}),
            parsed(R"({"a": [{"b": 2}]})"));
  EXPECT_THAT(patched(R"({"a": [{"b": 1}]})", {op("replace", "/a/1/b", 2)}).get<std::string>(),
              HasSubstr("doc is missing path: /a/1/b"));
}

// Verifies the odd path forms: no slash (empty path included) is missing; text before the
// first slash is ignored.
TEST(JsonPatchTest, PathForms) {
  EXPECT_EQ(patched(R"({"a": 1})", {op("replace", "", Json::object())}),
            "error: operation[0] (replace ): replace operation does not apply: doc is missing "
            "path: : missing value");
  EXPECT_THAT(patched(R"({"a": 1})", {op("add", "a", 2)}).get<std::string>(),
              HasSubstr("doc is missing path: \"a\""));
  EXPECT_EQ(patched(R"({"a": 1})", {op("replace", "x/a", 2)}), parsed(R"({"a": 2})"));
  EXPECT_EQ(patched(R"({"a": 1})", {op("add", "/", 2)}), parsed(R"({"a": 1, "": 2})"));
}

// Verifies RFC 6901 escapes: ~1 is "/", ~0 is "~", and "~01" is "~1".
TEST(JsonPatchTest, EscapedSegments) {
  EXPECT_EQ(patched(R"({"metadata": {"labels": {}}})",
                    {op("add", "/metadata/labels/kubefed.io~1managed", "true")}),
            parsed(R"({"metadata": {"labels": {"kubefed.io/managed": "true"}}})"));
  EXPECT_EQ(patched(R"({"a~b": {"c": 1}})", {op("replace", "/a~0b/c", 2)}),
            parsed(R"({"a~b": {"c": 2}})"));
  EXPECT_EQ(patched(R"({})", {op("add", "/~01", 1)}), parsed(R"({"~1": 1})"));
}

// Verifies that add and replace without a value write null.
TEST(JsonPatchTest, MissingValueWritesNull) {
  EXPECT_EQ(patched(R"({"a": 1})", {op("replace", "/a")}), parsed(R"({"a": null})"));
  EXPECT_EQ(patched(R"({"a": [1]})", {op("add", "/a/-")}), parsed(R"({"a": [1, null]})"));
}

// Verifies move and copy, including copy of a missing key (null) and move of one (error).
TEST(JsonPatchTest, MoveAndCopy) {
  EXPECT_EQ(patched(R"({"a": {"x": 1}, "b": {}})", {op("move", "/b/y", std::nullopt, "/a/x")}),
            parsed(R"({"a": {}, "b": {"y": 1}})"));
  EXPECT_EQ(patched(R"({"a": [1, 2, 3]})", {op("move", "/a/0", std::nullopt, "/a/2")}),
            parsed(R"({"a": [3, 1, 2]})"));
  EXPECT_EQ(patched(R"({"a": {"x": [1]}})", {op("copy", "/b", std::nullopt, "/a/x")}),
            parsed(R"({"a": {"x": [1]}, "b": [1]})"));
  EXPECT_EQ(patched(R"({"a": {}})", {op("copy", "/b", std::nullopt, "/a/missing")}),
            parsed(R"({"a": {}, "b": null})"));
  EXPECT_EQ(patched(R"({"a": {}})", {op("move", "/b", std::nullopt, "/a/missing")}),
            "error: operation[0] (move /b): error in move for path: 'missing': Unable to remove "
            "nonexistent key: missing: missing value");
  EXPECT_EQ(patched(R"({"a": 1})", {op("move", "/b")}),
            "error: operation[0] (move /b): move operation failed to decode from: operation, "
            "missing from field: missing value");
  EXPECT_EQ(patched(R"({"a": {"b": 1}})", {op("move", "/a/b/c", std::nullopt, "/a")}),
            "error: operation[0] (move /a/b/c): move operation does not apply: doc is missing "
            "destination path: /a/b/c: missing value");
  EXPECT_EQ(patched(R"({"a": [1]})", {op("copy", "/b", std::nullopt, "/a/5")}),
            "error: operation[0] (copy /b): error in copy for from: '/a/5': Unable to access "
            "invalid index: 5: invalid index referenced");
}

// Verifies test: equal values pass, different ones fail, objects compare one-sidedly.
TEST(JsonPatchTest, Test) {
  EXPECT_EQ(patched(R"({"a": {"b": [1, "x"]}})", {op("test", "/a", parsed(R"({"b": [1, "x"]})"))}),
            parsed(R"({"a": {"b": [1, "x"]}})"));
  EXPECT_EQ(patched(R"({"a": 1})", {op("test", "/a", 2)}),
            "error: operation[0] (test /a): testing value /a failed: test failed");
  EXPECT_EQ(patched(R"({"a": 1})", {op("test", "/a", 1.0)}),
            "error: operation[0] (test /a): testing value /a failed: test failed");
  // The document's keys must be in the value; extra keys in the value are not checked.
  EXPECT_EQ(patched(R"({"a": {"b": 1}})", {op("test", "/a", parsed(R"({"b": 1, "c": 2})"))}),
            parsed(R"({"a": {"b": 1}})"));
  EXPECT_THAT(
      patched(R"({"a": {"b": 1, "c": 2}})", {op("test", "/a", parsed(R"({"b": 1})"))}).dump(),
      HasSubstr("test failed"));
  EXPECT_EQ(patched(R"({"a": null})", {op("test", "/missing")}), parsed(R"({"a": null})"));
  EXPECT_EQ(patched(R"({"a": null})", {op("test", "/a", nullptr)}), parsed(R"({"a": null})"));
  EXPECT_THAT(patched(R"({"a": 1})", {op("test", "/a")}).dump(), HasSubstr("test failed"));
  EXPECT_THAT(patched(R"({})", {op("test", "/a", 1)}).dump(), HasSubstr("test failed"));
}

// Verifies that an unknown op fails and a failing patch leaves the document unchanged.
TEST(JsonPatchTest, FailureLeavesDocumentUnchanged) {
  Json doc = parsed(R"({"a": 1})");
  auto result = applyJsonPatch(doc, {op("add", "/b", 2), op("frobnicate", "/a")});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "operation[1] (frobnicate /a): Unexpected kind: frobnicate");
  EXPECT_EQ(doc, parsed(R"({"a": 1})"));
}

// Verifies that operations apply in order and see each other's results.
TEST(JsonPatchTest, OperationsApplyInOrder) {
  EXPECT_EQ(patched(R"({})", {op("add", "/a", Json::object()), op("add", "/a/b", Json::array()),
                              op("add", "/a/b/-", 1), op("replace", "/a/b/0", 2)}),
            parsed(R"({"a": {"b": [2]}})"));
}

// Verifies reading a patch document.
TEST(JsonPatchTest, ParsesPatchDocument) {
  auto operations = parseJsonPatch(parsed(
      R"([{"op": "move", "path": "/b", "from": "/a"},
           {"op": "add", "path": "/c", "value": null}])"));
  ASSERT_TRUE(operations) << operations.error().message;
  ASSERT_EQ(operations.value().size(), 2u);
  EXPECT_EQ(operations.value()[0].from, "/a");
  EXPECT_FALSE(operations.value()[0].value.has_value());
  ASSERT_TRUE(operations.value()[1].value.has_value());
  EXPECT_TRUE(operations.value()[1].value->is_null());
  EXPECT_FALSE(parseJsonPatch(parsed(R"({"op": "add"})")));
  EXPECT_FALSE(parseJsonPatch(parsed(R"([{"op": 1, "path": "/a"}])")));
}

}  // namespace
}  // namespace kf::sync
