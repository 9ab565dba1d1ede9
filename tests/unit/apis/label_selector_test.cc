#include "apis/meta/label_selector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apis/meta/name_validation.h"

namespace kf::meta {
namespace {

using testing::HasSubstr;

const FieldPath kPath("selector");

LabelSelector expression(std::string key, std::string op, std::vector<std::string> values = {}) {
  LabelSelector selector;
  selector.match_expressions.push_back({std::move(key), std::move(op), std::move(values)});
  return selector;
}

bool matches(const LabelSelector& selector, const StringMap& labels) {
  auto compiled = compileLabelSelector(selector, kPath);
  EXPECT_TRUE(compiled) << compiled.error().message;
  return compiled && compiled.value().matches(labels);
}

std::string compileError(const LabelSelector& selector) {
  auto compiled = compileLabelSelector(selector, kPath);
  return compiled ? std::string("<no error>") : compiled.error().message;
}

// Verifies that an empty selector matches any labels, none included.
TEST(LabelSelectorTest, EmptySelectorMatchesEverything) {
  EXPECT_TRUE(matches({}, {}));
  EXPECT_TRUE(matches({}, {{"a", "b"}}));
}

// Verifies that every matchLabels entry must be present with its value.
TEST(LabelSelectorTest, MatchLabelsRequireEveryPair) {
  LabelSelector selector;
  selector.match_labels = {{"a", "1"}, {"b", "2"}};
  EXPECT_TRUE(matches(selector, {{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_FALSE(matches(selector, {{"a", "1"}}));
  EXPECT_FALSE(matches(selector, {{"a", "1"}, {"b", "3"}}));
}

// Verifies In, NotIn, Exists and DoesNotExist, including absent labels.
TEST(LabelSelectorTest, ExpressionOperators) {
  EXPECT_TRUE(matches(expression("env", "In", {"dev", "qa"}), {{"env", "qa"}}));
  EXPECT_FALSE(matches(expression("env", "In", {"dev", "qa"}), {{"env", "prod"}}));
  EXPECT_FALSE(matches(expression("env", "In", {"dev"}), {}));
  EXPECT_TRUE(matches(expression("env", "NotIn", {"dev"}), {{"env", "prod"}}));
  EXPECT_TRUE(matches(expression("env", "NotIn", {"dev"}), {}));
  EXPECT_FALSE(matches(expression("env", "NotIn", {"dev"}), {{"env", "dev"}}));
  EXPECT_TRUE(matches(expression("env", "Exists"), {{"env", ""}}));
  EXPECT_FALSE(matches(expression("env", "Exists"), {{"other", "x"}}));
  EXPECT_TRUE(matches(expression("env", "DoesNotExist"), {{"other", "x"}}));
  EXPECT_FALSE(matches(expression("env", "DoesNotExist"), {{"env", "x"}}));
}

// Verifies that labels and expressions must all hold.
TEST(LabelSelectorTest, RequirementsAreAnded) {
  auto selector = expression("env", "In", {"prod"});
  selector.match_labels = {{"tier", "web"}};
  EXPECT_TRUE(matches(selector, {{"env", "prod"}, {"tier", "web"}}));
  EXPECT_FALSE(matches(selector, {{"env", "prod"}}));
}

// Verifies the operator and value-count errors.
TEST(LabelSelectorTest, InvalidOperatorsAndValueCountsFail) {
  EXPECT_EQ(compileError(expression("env", "Equals", {"a"})),
            "selector.matchExpressions[0]: \"Equals\" is not a valid pod selector operator");
  EXPECT_EQ(compileError(expression("env", "in", {"a"})),
            "selector.matchExpressions[0]: \"in\" is not a valid pod selector operator");
  EXPECT_EQ(compileError(expression("env", "In")),
            "selector.matchExpressions[0]: for 'in', 'notin' operators, values set can't be empty");
  EXPECT_EQ(compileError(expression("env", "NotIn")),
            "selector.matchExpressions[0]: for 'in', 'notin' operators, values set can't be empty");
  EXPECT_EQ(compileError(expression("env", "Exists", {"a"})),
            "selector.matchExpressions[0]: values set must be empty for exists and does not exist");
  EXPECT_EQ(compileError(expression("env", "DoesNotExist", {"a"})),
            "selector.matchExpressions[0]: values set must be empty for exists and does not exist");
}

// Verifies key and value syntax checks with apimachinery's messages.
TEST(LabelSelectorTest, InvalidKeysAndValuesFail) {
  EXPECT_EQ(compileError(expression("-env", "Exists")),
            "selector.matchExpressions[0]: invalid label key \"-env\": name part must consist of "
            "alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
            "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  EXPECT_THAT(compileError(expression("env", "In", {"a b"})),
              HasSubstr("invalid label value: \"a b\": at key: \"env\": a valid label must be an "
                        "empty string or consist of"));
  LabelSelector selector;
  selector.match_labels = {{"env", std::string(64, 'a')}};
  EXPECT_THAT(compileError(selector), HasSubstr("selector.matchLabels: invalid label value: "));
  EXPECT_THAT(compileError(selector), HasSubstr("must be no more than 63 characters"));
}

// Verifies the qualified-name rules: optional DNS prefix, 63-character name part.
TEST(LabelSelectorTest, QualifiedNameRules) {
  EXPECT_TRUE(qualifiedNameErrors("kubefed.io/managed").empty());
  EXPECT_TRUE(qualifiedNameErrors("A_b.c-9").empty());
  EXPECT_TRUE(qualifiedNameErrors(std::string(63, 'x')).empty());
  EXPECT_THAT(qualifiedNameErrors(std::string(64, 'x')),
              testing::Contains("name part must be no more than 63 characters"));
  EXPECT_THAT(qualifiedNameErrors("/name"), testing::Contains("prefix part must be non-empty"));
  EXPECT_THAT(qualifiedNameErrors("Example.com/name").front(), HasSubstr("prefix part "));
  EXPECT_THAT(
      qualifiedNameErrors("a/b/c").front(),
      HasSubstr("with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"));
  EXPECT_THAT(qualifiedNameErrors(""), testing::Contains("name part must be non-empty"));
  EXPECT_TRUE(labelValueErrors("").empty());
  EXPECT_TRUE(labelValueErrors("v1.2_3-x").empty());
  EXPECT_EQ(labelValueErrors("-x").size(), 1u);
}

}  // namespace
}  // namespace kf::meta
