#include <gtest/gtest.h>

#include <chrono>
#include <ostream>

#include "apis/meta/duration.h"
#include "apis/meta/field_errors.h"
#include "apis/meta/join.h"
#include "apis/meta/json_reader.h"
#include "apis/meta/name_validation.h"

namespace kf::meta {
namespace {

using namespace std::chrono_literals;

TEST(FieldPathTest, JoinsChildrenIndicesAndKeys) {
  EXPECT_EQ(FieldPath("spec").child("placement").child("clusters").index(1).child("name").str(),
            "spec.placement.clusters[1].name");
  EXPECT_EQ(FieldPath().child("spec").str(), "spec");
  EXPECT_EQ(FieldPath("spec.clusters").key("a").str(), "spec.clusters[a]");
}

TEST(JoinWithTest, PutsTheSeparatorBetweenEachTwoPartsOnly) {
  EXPECT_EQ(joinWith({}, ", "), "");
  EXPECT_EQ(joinWith({"a"}, ", "), "a");
  EXPECT_EQ(joinWith({"a", "b", "c"}, "; "), "a; b; c");
  EXPECT_EQ(joinWith({"", "b"}, ","), ",b");
}

TEST(FieldErrorTest, MessagesAreEachErrorsMessageInOrder) {
  const ErrorList errors = {required(FieldPath("spec.a")), forbidden(FieldPath("spec.b"), "no")};
  EXPECT_EQ(messages(errors),
            (std::vector<std::string>{"spec.a: Required value", "spec.b: Forbidden: no"}));
  EXPECT_TRUE(messages({}).empty());
}

TEST(FieldErrorTest, FormatsLikeApimachinery) {
  const FieldPath path("spec.propagation");
  EXPECT_EQ(required(path).message(), "spec.propagation: Required value");
  EXPECT_EQ(notSupported(path, "x", {"Enabled", "Disabled"}).message(),
            "spec.propagation: Unsupported value: \"x\": supported values: \"Enabled\", "
            "\"Disabled\"");
  EXPECT_EQ(invalid(FieldPath("spec.scope"), BadValue::quoted("Namespaced"), "field is immutable")
                .message(),
            "spec.scope: Invalid value: \"Namespaced\": field is immutable");
  EXPECT_EQ(invalid(path, BadValue::number(-80), "bad").message(),
            "spec.propagation: Invalid value: -80: bad");
  EXPECT_EQ(duplicate(FieldPath("spec.featureGates.name"), "PushReconciler").message(),
            "spec.featureGates.name: Duplicate value: \"PushReconciler\"");
  EXPECT_EQ(goQuote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
}

TEST(FieldErrorTest, AggregateJoinsDistinctMessages) {
  EXPECT_EQ(aggregate({}), "");
  const FieldError a = required(FieldPath("a"));
  const FieldError b = required(FieldPath("b"));
  EXPECT_EQ(aggregate({a}), "a: Required value");
  EXPECT_EQ(aggregate({a, a}), "a: Required value");
  EXPECT_EQ(aggregate({a, b, a}), "[a: Required value, b: Required value]");
}

TEST(NameValidationTest, Dns1123SubdomainMessageIsKubernetes) {
  EXPECT_TRUE(dns1123SubdomainErrors("my.example-1.com").empty());
  const auto errors = dns1123SubdomainErrors("example_com");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
            "'-' or '.', and must start and end with an alphanumeric character (e.g. "
            "'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  EXPECT_EQ(dns1123SubdomainErrors(std::string(254, 'a')).front(),
            "must be no more than 253 characters");
}

TEST(NameValidationTest, Dns1035LabelMessageIsKubernetes) {
  EXPECT_TRUE(dns1035LabelErrors("v1beta1").empty());
  const auto errors = dns1035LabelErrors("2invalid");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
            "with an alphabetic character, and end with an alphanumeric character (e.g. "
            "'my-name',  or 'abc-123', regex used for validation is "
            "'[a-z]([-a-z0-9]*[a-z0-9])?')");
  EXPECT_EQ(dns1035LabelErrors(std::string(64, 'a')).size(), 1u);
}

// KubeFed joins the messages of a name that breaks both rules into one error with ",".
TEST(NameValidationTest, ANameBreakingBothRulesIsOneErrorWithTheMessagesJoined) {
  const std::string name = std::string(254, 'a') + "_";
  const auto errors = validateDns1123Subdomain(name, FieldPath("spec.secretRef.name"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(
      errors[0].message(),
      "spec.secretRef.name: Invalid value: \"" + name +
          "\": must be no more than 253 characters,a lowercase RFC 1123 subdomain must "
          "consist of lower case alphanumeric characters, '-' or '.', and must start and "
          "end with an alphanumeric character (e.g. 'example.com', regex used for "
          "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  EXPECT_TRUE(validateDns1123Subdomain("member1-token", FieldPath("name")).empty());
}

struct DurationCase {
  std::string text;
  std::int64_t nanos;
  std::string formatted;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const DurationCase& c, std::ostream* os) { *os << c.text; }

class DurationParseTest : public testing::TestWithParam<DurationCase> {};

TEST_P(DurationParseTest, ParsesAndFormatsLikeGo) {
  const auto& c = GetParam();
  const auto parsed = parseGoDuration(c.text);
  ASSERT_TRUE(parsed.has_value()) << c.text;
  EXPECT_EQ(parsed->count(), c.nanos) << c.text;
  EXPECT_EQ(formatGoDuration(*parsed), c.formatted) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    GoVectors, DurationParseTest,
    testing::Values(DurationCase{"20s", 20'000'000'000, "20s"},
                    DurationCase{"1m30s", 90'000'000'000, "1m30s"},
                    DurationCase{"1500ms", 1'500'000'000, "1.5s"},
                    DurationCase{"1h", 3'600'000'000'000, "1h0m0s"}, DurationCase{"0", 0, "0s"},
                    DurationCase{"+0s", 0, "0s"}, DurationCase{"-2s", -2'000'000'000, "-2s"},
                    DurationCase{"1.5h", 5'400'000'000'000, "1h30m0s"},
                    DurationCase{".5s", 500'000'000, "500ms"},
                    DurationCase{"1.s", 1'000'000'000, "1s"}, DurationCase{"100ns", 100, "100ns"},
                    DurationCase{"1us", 1000, "1µs"}, DurationCase{"1µs", 1000, "1µs"},
                    DurationCase{"1μs", 1000, "1µs"}, DurationCase{"1.5ms", 1'500'000, "1.5ms"},
                    DurationCase{"2h45m3.25s", 9'903'250'000'000, "2h45m3.25s"},
                    DurationCase{"9223372036854775807ns", 9223372036854775807,
                                 "2562047h47m16.854775807s"}));

TEST(DurationTest, RejectsWhatGoRejects) {
  for (const char* bad : {"", "s", "10", "1x", "1.2.3s", "-", ".s", "1h1", "9223372036854775808ns",
                          "3000000h", " 1s"}) {
    EXPECT_FALSE(parseGoDuration(bad).has_value()) << bad;
  }
}

TEST(DurationTest, KeepsOriginalTextUntilChanged) {
  auto duration = Duration::parse("1500ms");
  ASSERT_TRUE(duration.has_value());
  EXPECT_EQ(duration->text(), "1500ms");
  EXPECT_EQ(duration->value(), 1500ms);
  duration->setValue(2s);
  EXPECT_EQ(duration->text(), "2s");
  EXPECT_EQ(Duration(90s).text(), "1m30s");
}

TEST(ObjectReaderTest, WrongTypesNameTheField) {
  const Json json = {{"a", 1}, {"b", "x"}, {"c", "y"}};
  auto reader = ObjectReader::open(json, FieldPath("spec"));
  ASSERT_TRUE(reader);
  auto a = reader.value().string("a");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "spec.a: expected string");
  EXPECT_EQ(a.error().reason, Reason::kBadRequest);
  auto b = reader.value().int64("b");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message, "spec.b: expected integer");
  auto c = reader.value().boolean("c");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "spec.c: expected boolean");
  EXPECT_FALSE(ObjectReader::open(Json::array(), FieldPath("x")));
}

TEST(ObjectReaderTest, RestKeepsUnreadNullAndZeroPlainValues) {
  const Json json = {{"known", "v"}, {"zero", ""}, {"nil", nullptr}, {"other", 3}, {"ptr", ""}};
  auto reader = ObjectReader::open(json, FieldPath()).value();
  ASSERT_TRUE(reader.string("known"));
  ASSERT_TRUE(reader.string("zero"));
  ASSERT_TRUE(reader.optString("nil"));
  ASSERT_TRUE(reader.optString("ptr"));
  EXPECT_EQ(reader.rest(), (Json{{"zero", ""}, {"nil", nullptr}, {"other", 3}}));
}

}  // namespace
}  // namespace kf::meta
