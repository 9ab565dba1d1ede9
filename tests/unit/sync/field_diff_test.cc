#include "sync/plan/field_diff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::sync {
namespace {

using test::parsed;

std::vector<std::string> paths(const std::vector<FieldDifference>& differences) {
  std::vector<std::string> out;
  for (const auto& difference : differences) out.push_back(difference.path);
  return out;
}

struct DiffCase {
  std::string name;
  std::string desired;
  std::string live;
  std::vector<std::string> ignored;
  std::vector<std::string> expected;
};

class DifferingFieldsTest : public ::testing::TestWithParam<DiffCase> {};

// Verifies which paths are reported for each case of the table.
TEST_P(DifferingFieldsTest, ReportsThePathsTheTemplateSetsAndTheMemberChanged) {
  const DiffCase& c = GetParam();
  EXPECT_EQ(paths(differingFields(parsed(c.desired.c_str()), parsed(c.live.c_str()), c.ignored)),
            c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, DifferingFieldsTest,
    ::testing::Values(
        DiffCase{"Equal", R"({"data": {"a": "1"}})", R"({"data": {"a": "1"}})", {}, {}},
        DiffCase{"ChangedValue",
                 R"({"data": {"a": "1", "b": "2"}})",
                 R"({"data": {"a": "x", "b": "2"}})",
                 {},
                 {"/data/a"}},
        DiffCase{"RemovedKey", R"({"data": {"a": "1"}})", R"({"data": {}})", {}, {"/data/a"}},
        // A field the template leaves out is the member's (a default, another controller's).
        DiffCase{"AddedKeyIsNotDrift",
                 R"({"data": {"a": "1"}})",
                 R"({"data": {"a": "1", "added": "by hand"}})",
                 {},
                 {}},
        DiffCase{
            "DefaultedFieldIsNotDrift",
            R"({"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "a"}]}}}})",
            R"({"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "a",
                     "imagePullPolicy": "IfNotPresent"}]}}}})",
            {},
            {}},
        DiffCase{
            "ArrayElementByIndex",
            R"({"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "2"}]}})",
            R"({"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "3"}]}})",
            {},
            {"/spec/containers/1/image"}},
        DiffCase{"ArrayOfAnotherLengthIsOneDifference",
                 R"({"spec": {"args": ["a", "b"]}})",
                 R"({"spec": {"args": ["a"]}})",
                 {},
                 {"/spec/args"}},
        DiffCase{"StatusIsNeverDrift",
                 R"({"status": {"phase": "A"}})",
                 R"({"status": {"phase": "B"}})",
                 {},
                 {}},
        DiffCase{"ServerSetMetadataIsNeverDrift",
                 R"({"metadata": {"name": "x", "resourceVersion": "1", "labels": {"app": "a"}}})",
                 R"({"metadata": {"name": "x", "resourceVersion": "9", "labels": {"app": "a"}}})",
                 {},
                 {}},
        DiffCase{"LabelsAreCompared",
                 R"({"metadata": {"labels": {"app": "a", "tier": "web"}}})",
                 R"({"metadata": {"labels": {"app": "b"}}})",
                 {},
                 {"/metadata/labels/app", "/metadata/labels/tier"}},
        DiffCase{"NumbersCompareAsNumbers",
                 R"({"spec": {"replicas": 3}})",
                 R"({"spec": {"replicas": 3.0}})",
                 {},
                 {}},
        DiffCase{"IgnoredPathAndBelow",
                 R"({"spec": {"replicas": 3, "template": {"x": 1, "y": 2}}})",
                 R"({"spec": {"replicas": 5, "template": {"x": 9, "y": 8}}})",
                 {"/spec/replicas", "/spec/template/x"},
                 {"/spec/template/y"}},
        DiffCase{"IgnoredPrefixIsASegmentNotAString",
                 R"({"spec": {"rep": 1, "replicas": 3}})",
                 R"({"spec": {"rep": 2, "replicas": 4}})",
                 {"/spec/rep"},
                 {"/spec/replicas"}},
        DiffCase{"AbsentObjectReportsEachLeaf",
                 R"({"data": {"a": "1", "b": "2"}})",
                 R"({})",
                 {},
                 {"/data/a", "/data/b"}},
        DiffCase{"KeysAreEscaped",
                 R"({"data": {"a/b~c": "1"}})",
                 R"({"data": {"a/b~c": "2"}})",
                 {},
                 {"/data/a~1b~0c"}}),
    [](const auto& caseInfo) { return caseInfo.param.name; });

// Verifies that a difference carries both values, and an absent member value as nullopt.
TEST(FieldDiffTest, ADifferenceCarriesBothValues) {
  auto differences = differingFields(parsed(R"({"data": {"a": "1", "b": "2"}})"),
                                     parsed(R"({"data": {"a": "x"}})"));
  ASSERT_EQ(differences.size(), 2u);
  EXPECT_EQ(differences[0].desired, Json("1"));
  EXPECT_EQ(differences[0].live, Json("x"));
  EXPECT_EQ(differences[1].live, std::nullopt);
}

const char* kLiveDeployment = R"({
  "metadata": {"name": "web", "managedFields": [
    {"manager": "kubefed", "operation": "Apply", "time": "2026-11-27T10:00:00Z",
     "fieldsV1": {"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
       "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
    {"manager": "kubectl", "operation": "Update", "time": "2026-11-27T10:05:00Z",
     "fieldsV1": {"f:spec": {"f:replicas": {}}}},
    {"manager": "kubectl-edit", "operation": "Update", "time": "2026-11-27T10:07:00Z",
     "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
       "k:{\"name\":\"web\"}": {"f:image": {}}}}}}}},
    {"manager": "kube-controller-manager", "operation": "Update", "subresource": "scale",
     "time": "2026-11-27T10:01:00Z", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]},
  "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "web", "image": "b"}]}}}
})";

// Verifies that the last writer of a path other than ourselves is found, through keyed lists.
TEST(FieldDiffTest, TheLastWriterIsTheNewestManagerOwningThePath) {
  const Json live = parsed(kLiveDeployment);
  EXPECT_EQ(lastWriterOf(live, "/spec/replicas", "kubefed"), "kubectl");
  EXPECT_EQ(lastWriterOf(live, "/spec/template/spec/containers/0/image", "kubefed"),
            "kubectl-edit");
  EXPECT_EQ(lastWriterOf(live, "/spec/template/spec/containers/0/name", "kubefed"), "");
  EXPECT_EQ(lastWriterOf(live, "/spec/paused", "kubefed"), "");
  EXPECT_EQ(lastWriterOf(parsed(R"({"metadata": {}})"), "/spec/replicas", "kubefed"), "");
}

// Verifies the drift-ignore annotation's list, and the error for an entry that is no pointer.
TEST(FieldDiffTest, PointerListsAreTrimmedAndChecked) {
  auto list = parsePointerList(" /spec/replicas, /data/a ,,");
  ASSERT_TRUE(list);
  EXPECT_EQ(list.value(), (std::vector<std::string>{"/spec/replicas", "/data/a"}));
  auto bad = parsePointerList("/spec/replicas,spec.template");
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, testing::HasSubstr("\"spec.template\" is not a JSON pointer"));
}

}  // namespace
}  // namespace kf::sync
