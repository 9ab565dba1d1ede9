#include "federation/crdgen/yaml_json.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

using OJson = nlohmann::ordered_json;

TEST(ToYamlTest, PrintsBlockStyleWithSequencesAtTheKeysIndentation) {
  OJson value = OJson::object();
  value["metadata"] = OJson{{"name", "x"}};
  value["list"] = OJson::array({"a", "b"});
  value["objects"] = OJson::array({OJson{{"name", "one"}, {"size", 2}}, OJson{{"name", "two"}}});
  value["empty"] = OJson::object();
  value["none"] = OJson::array();
  value["flag"] = true;
  EXPECT_EQ(toYaml(value),
            "metadata:\n"
            "  name: x\n"
            "list:\n"
            "- a\n"
            "- b\n"
            "objects:\n"
            "- name: one\n"
            "  size: 2\n"
            "- name: two\n"
            "empty: {}\n"
            "none: []\n"
            "flag: true\n");
}

TEST(ToYamlTest, QuotesStringsYamlWouldMisread) {
  OJson value = OJson::object();
  value["a"] = "true";
  value["b"] = "123";
  value["c"] = "";
  value["d"] = "^(add|remove|replace)?$";
  value["e"] = "it's: here";
  value["f"] = "line\nbreak";
  value["g"] = "-";
  value["h"] = "x-kubernetes";
  EXPECT_EQ(toYaml(value),
            "a: 'true'\n"
            "b: '123'\n"
            "c: ''\n"
            "d: ^(add|remove|replace)?$\n"
            "e: 'it''s: here'\n"
            "f: \"line\\nbreak\"\n"
            "g: '-'\n"
            "h: x-kubernetes\n");
}

TEST(YamlToJsonTest, RoundTripsWhatToYamlPrints) {
  OJson value = OJson::object();
  value["s"] = "true";
  value["n"] = 3;
  value["f"] = 1.5;
  value["b"] = false;
  value["z"] = nullptr;
  value["l"] = OJson::array({OJson{{"k", "v"}}, "x", OJson::array({1, 2})});
  value["m"] = OJson{{"nested", OJson{{"deep", "-x"}}}, {"empty", OJson::object()}};
  auto documents = yamlDocumentsToJson(toYaml(value));
  ASSERT_TRUE(documents) << documents.error().message;
  ASSERT_EQ(documents.value().size(), 1u);
  EXPECT_EQ(documents.value()[0], Json::parse(value.dump()));
}

// Found by the resource_yaml_fuzz target: a key or value starting with a document marker was
// printed plain, and the printed YAML then read as two documents.
TEST(YamlToJsonTest, QuotesTextThatStartsWithADocumentMarker) {
  OJson value = OJson::object();
  value["--- key"] = "--- value";
  value["..."] = "...end";
  auto documents = yamlDocumentsToJson(toYaml(value));
  ASSERT_TRUE(documents) << documents.error().message << "\n" << toYaml(value);
  ASSERT_EQ(documents.value().size(), 1u) << toYaml(value);
  EXPECT_EQ(documents.value()[0], Json::parse(value.dump()));
}

TEST(YamlToJsonTest, ReadsSeveralDocumentsAndRejectsBrokenYaml) {
  auto documents = yamlDocumentsToJson("---\na: 1\n---\n---\nb: [x, 'y']\n");
  ASSERT_TRUE(documents);
  ASSERT_EQ(documents.value().size(), 2u);
  EXPECT_EQ(documents.value()[1], Json({{"b", {"x", "y"}}}));
  EXPECT_FALSE(yamlDocumentsToJson("a: [1, 2\n"));
}

}  // namespace
TEST(YamlJsonTest, ResolvesScalarsLikeKubernetes) {
  auto parsed = yamlDocumentsToJson(R"(
plain: text
quoted: "true"
single: '42'
number: 42
negative: -7
real: 1.5
yes_bool: true
no_bool: False
empty:
tilde: ~
str_tag: !!str 12
list: [a, "1", 2]
)");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed.value().size(), 1u);
  EXPECT_EQ(parsed.value()[0],
            Json::parse(R"({"plain":"text","quoted":"true","single":"42","number":42,
      "negative":-7,"real":1.5,"yes_bool":true,"no_bool":false,"empty":null,"tilde":null,
      "str_tag":"12","list":["a","1",2]})"));
}

}  // namespace kf
