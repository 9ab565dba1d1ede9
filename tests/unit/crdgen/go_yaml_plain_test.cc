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

}  // namespace
}  // namespace kf::goyaml
