// Which strings KubeFed's YAML writer prints unquoted. Every case is a string whose printed form
// was recorded from KubeFed v0.8.1's kubefedctl (`federate -f`, hack/kubefed-compare.sh):
// double-quoted there means go-yaml reads it unquoted as something else.

#include "federation/crdgen/go_yaml_plain.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kf::goyaml {
namespace {

TEST(GoYamlPlainTest, NullsBooleansNumbersAndTimestampsAreNotStrings) {
  for (const std::string& text : std::vector<std::string>{"",
                                                          "~",
                                                          "null",
                                                          "Null",
                                                          "y",
                                                          "N",
                                                          "yes",
                                                          "on",
                                                          "OFF",
                                                          "2",
                                                          "+1",
                                                          "0777",
                                                          "08",
                                                          "1_000",
                                                          "0b101",
                                                          "0x1F",
                                                          "-9223372036854775808",
                                                          "18446744073709551615",
                                                          "99999999999999999999",
                                                          "1e3",
                                                          "1.",
                                                          ".5",
                                                          ".inf",
                                                          "-.Inf",
                                                          ".NaN",
                                                          "1:20",
                                                          "-1:20:30.5",
                                                          "2001-12-14",
                                                          "2001-1-2",
                                                          "2001-12-14T21:59:43.10-05:00",
                                                          "2001-12-14t21:59:43Z",
                                                          "2001-12-14 21:59:43.10"}) {
    EXPECT_FALSE(plainReadsAsString(text)) << text;
  }
}

TEST(GoYamlPlainTest, TextThatParsesAsNothingElseIsAString) {
  for (const std::string& text : std::vector<std::string>{
           "plain", "<<", "=", ".", "-", "infinity", "0x1FFFFFFFFFFFFFFFF", "1:60", "2001-02-30",
           "2001-12-14T25:00:00Z", "a:b", "-x", "x-kubernetes", "v1beta1"}) {
    EXPECT_TRUE(plainReadsAsString(text)) << text;
  }
}

// Verifies the values and keys Kubernetes' YAML reading makes of unquoted text (the octal, hex
// and boolean cases are what KubeFed printed for federate-plain-input.yaml).
TEST(GoYamlPlainTest, ReadsValuesAndKeysAsKubernetesDoes) {
  EXPECT_EQ(readPlain("0644"), nlohmann::json(420));
  EXPECT_EQ(readPlain("-0x10"), nlohmann::json(-16));
  EXPECT_EQ(readPlain("-9223372036854775808"), nlohmann::json(INT64_MIN));
  EXPECT_EQ(readPlain("18446744073709551615"), nlohmann::json(UINT64_MAX));
  EXPECT_EQ(readPlain("99999999999999999999"), nlohmann::json(1e20));
  EXPECT_EQ(readPlain("yes"), nlohmann::json(true));
  EXPECT_EQ(readPlain("~"), nlohmann::json(nullptr));
  EXPECT_EQ(readPlain("2001-12-14"), nlohmann::json("2001-12-14"));
  EXPECT_EQ(readPlain(".inf"), nlohmann::json(".inf"));
  EXPECT_EQ(readPlainKey("on"), "true");
  EXPECT_EQ(readPlainKey("0x10"), "16");
  EXPECT_EQ(readPlainKey("007"), "7");
  EXPECT_EQ(readPlainKey("1.5"), "1.5");
  EXPECT_EQ(readPlainKey("0.1"), "0.1");  // float32's shortest digits
  EXPECT_EQ(readPlainKey("1234567.5"), "1.2345675e+06");
  EXPECT_EQ(readPlainKey("1e100"), ".inf");  // beyond float32
  EXPECT_EQ(readPlainKey("name"), "name");
}

}  // namespace
}  // namespace kf::goyaml
