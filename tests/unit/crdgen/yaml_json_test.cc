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

// The expected texts in these ToYaml tests are what KubeFed v0.8.1's kubefedctl printed for the
// same strings and numbers (`federate -f` of a ConfigMap holding them, hack/kubefed-compare.sh).

// Verifies strings go-yaml would read as something else are double-quoted, strings that only
// look odd to a YAML reader are single-quoted, and the rest stay plain.
TEST(ToYamlTest, QuotesStringsAsKubefedDoes) {
  OJson value = OJson::object();
  value["a"] = "true";
  value["b"] = "123";
  value["c"] = "";
  value["d"] = "^(add|remove|replace)?$";
  value["e"] = "it's: here";
  value["g"] = "-";
  value["h"] = "x-kubernetes";
  value["i"] = "yes";
  value["j"] = "2001-12-14";
  value["k"] = "1:20";
  value["l"] = "0777";
  value["m"] = "*ref";
  value["hash"] = "a #b";
  value["o"] = " leading";
  value["p"] = "2001-02-30";           // no such day: not a timestamp
  value["q"] = "0x1FFFFFFFFFFFFFFFF";  // beyond 64 bits: not a number
  value["r"] = "\"double\"";
  value["2"] = "x";
  EXPECT_EQ(toYaml(value),
            "a: \"true\"\n"
            "b: \"123\"\n"
            "c: \"\"\n"
            "d: ^(add|remove|replace)?$\n"
            "e: 'it''s: here'\n"
            "g: '-'\n"
            "h: x-kubernetes\n"
            "i: \"yes\"\n"
            "j: \"2001-12-14\"\n"
            "k: \"1:20\"\n"
            "l: \"0777\"\n"
            "m: '*ref'\n"
            "hash: 'a #b'\n"
            "o: ' leading'\n"
            "p: 2001-02-30\n"
            "q: 0x1FFFFFFFFFFFFFFFF\n"
            "r: '\"double\"'\n"
            "\"2\": x\n");
}

// Verifies characters YAML cannot hold plain are escaped in double quotes as go-yaml escapes
// them (upper-case hex, \U beyond U+FFFF), and a string that starts with a byte order mark is
// escaped whole.
TEST(ToYamlTest, EscapesAsKubefedDoes) {
  OJson value = OJson::object();
  value["tab"] = "a\tb";
  value["emoji"] = "smile \xF0\x9F\x98\x80";
  value["bom"] = "\xEF\xBB\xBFx";
  value["cr"] = "a\rb";
  value["space"] = "a \nb";
  value["nbsp"] =
      "a\xC2\xA0"
      "b";
  EXPECT_EQ(toYaml(value),
            "tab: \"a\\tb\"\n"
            "emoji: \"smile \\U0001F600\"\n"
            "bom: \"\\uFEFF\\x78\"\n"
            "cr: \"a\\rb\"\n"
            "space: \"a \\nb\"\n"
            "nbsp: a\xC2\xA0"
            "b\n");
}

// Verifies U+2028 and U+2029 are escaped (beyond KubeFed, whose writer puts them in single
// quotes as they are and indents after them, so that no reader gets the same string back), and
// that the escaped form reads back.
TEST(ToYamlTest, EscapesLineAndParagraphSeparators) {
  OJson value = OJson::object();
  value["ls"] =
      "a\xE2\x80\xA8"
      "b";
  value["ps"] =
      "a\xE2\x80\xA9"
      "b";
  const std::string printed = toYaml(value);
  EXPECT_EQ(printed, "ls: \"a\\Lb\"\nps: \"a\\Pb\"\n");
  auto documents = yamlDocumentsToJson(printed);
  ASSERT_TRUE(documents) << documents.error().message;
  EXPECT_EQ(documents.value().at(0), Json::parse(value.dump()));
}

// Verifies multi-line strings print as literal blocks with go-yaml's chomping and indentation
// indicators.
TEST(ToYamlTest, PrintsMultiLineStringsAsLiteralBlocks) {
  OJson value = OJson::object();
  value["data"] =
      OJson{{"one", "line one\nline two\n"}, {"strip", "line one\nline two"}, {"keep", "a\n\n"},
            {"lead", "  indented\nline"},    {"blank", "a\n\nb\n"},           {"newline", "\n"}};
  value["list"] = OJson::array({"a\nb"});
  EXPECT_EQ(toYaml(value),
            "data:\n"
            "  one: |\n"
            "    line one\n"
            "    line two\n"
            "  strip: |-\n"
            "    line one\n"
            "    line two\n"
            "  keep: |+\n"
            "    a\n"
            "\n"
            "  lead: |2-\n"
            "      indented\n"
            "    line\n"
            "  blank: |\n"
            "    a\n"
            "\n"
            "    b\n"
            "  newline: |2+\n"
            "\n"
            "list:\n"
            "- |-\n"
            "  a\n"
            "  b\n");
}

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// Verifies long strings fold at the first single space past column 80 (columns count characters,
// not bytes), plain, single- or double-quoted, continuing two columns in; a run of spaces is
// never folded. The strings sit where `federate` put them in the recorded output.
TEST(ToYamlTest, FoldsLongStringsAsKubefedDoes) {
  OJson data = OJson::object();
  data["long"] =
      "this is a rather long sentence with many words in it that goes well past eighty columns of "
      "text for sure and then some more words to wrap twice over the limit of eighty";
  data["longdouble"] =
      "2 this is a rather\ttabbed sentence with many words in it that goes well past eighty  "
      "columns, two  spaces";
  data["longdoublespaces"] = std::string(78, 'x') + "  two spaces here and more words";
  data["longquoted"] =
      "1 this is a rather long sentence: with many words in it that goes well past eighty columns";
  data["longunicode"] = repeated("é", 65) + " word word word";
  OJson list =
      OJson::array({"this is a rather long sentence with many words in it that goes "
                    "well past eighty columns of text"});
  const OJson object = {{"spec", {{"template", {{"data", data}, {"spec", {{"list", list}}}}}}}};
  EXPECT_EQ(toYaml(object),
            "spec:\n"
            "  template:\n"
            "    data:\n"
            "      long: this is a rather long sentence with many words in it that goes well "
            "past\n"
            "        eighty columns of text for sure and then some more words to wrap twice "
            "over\n"
            "        the limit of eighty\n"
            "      longdouble: \"2 this is a rather\\ttabbed sentence with many words in it "
            "that\n"
            "        goes well past eighty  columns, two  spaces\"\n"
            "      longdoublespaces: " +
                std::string(78, 'x') +
                "  two\n"
                "        spaces here and more words\n"
                "      longquoted: '1 this is a rather long sentence: with many words in it "
                "that goes\n"
                "        well past eighty columns'\n"
                "      longunicode: " +
                repeated("é", 65) +
                "\n"
                "        word word word\n"
                "    spec:\n"
                "      list:\n"
                "      - this is a rather long sentence with many words in it that goes well "
                "past eighty\n"
                "        columns of text\n");
}

// Verifies a key longer than 128 bytes or spanning lines is written as "? key" / ": value".
TEST(ToYamlTest, WritesLongAndMultiLineKeysAsComplexKeys) {
  OJson value = OJson::object();
  value[std::string(130, 'k')] = "long key";
  value["multi\nkey"] = "value";
  EXPECT_EQ(toYaml(value), "? " + std::string(130, 'k') +
                               "\n"
                               ": long key\n"
                               "? |-\n"
                               "  multi\n"
                               "  key\n"
                               ": value\n");
}

// Verifies numbers print as go-yaml prints what it reads back from KubeFed's JSON: integral
// values as integers while they fit 64 bits, other values in Go's shortest %g form.
TEST(ToYamlTest, PrintsNumbersAsKubefedDoes) {
  const OJson numbers = OJson::array({1.0, 1.5, 1e3, 12345678901234567890ULL, 1e20, -1.5e19, 1e21,
                                      1.5e-7, 0.0001, 0.00001, 123456789.5, 1234567.0, -0.0, 0.1,
                                      100.25, 2.5e-300, 1.7976931348623157e308, -7});
  EXPECT_EQ(toYaml(OJson{{"numbers", numbers}}),
            "numbers:\n- 1\n- 1.5\n- 1000\n- 12345678901234567000\n- 1e+20\n- -1.5e+19\n- 1e+21\n"
            "- 1.5e-07\n- 0.0001\n- 1e-05\n- 1.234567895e+08\n- 1234567\n- 0\n- 0.1\n- 100.25\n"
            "- 2.5e-300\n- 1.7976931348623157e+308\n- -7\n");
}

// Verifies nested and empty collections: a sequence in a sequence item shares its line, empty
// ones print as [] and {}.
TEST(ToYamlTest, NestsCollectionsAsKubefedDoes) {
  const OJson list = OJson::parse(R"([["nested", ["deeper"]], [], {}, [{"x": 1}], null, true])");
  EXPECT_EQ(toYaml(OJson{{"list", list}}),
            "list:\n- - nested\n  - - deeper\n- []\n- {}\n- - x: 1\n- null\n- true\n");
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

// Verifies integers beyond int64 stay numbers, as kubectl and KubeFed read them (up to uint64 an
// integer, beyond that a float), instead of becoming strings.
TEST(YamlToJsonTest, ReadsIntegersBeyondInt64AsNumbers) {
  auto documents = yamlDocumentsToJson(
      "big: 12345678901234567890\nbigger: 99999999999999999999\nneg: -99999999999999999999\n");
  ASSERT_TRUE(documents) << documents.error().message;
  const Json& value = documents.value().at(0);
  EXPECT_TRUE(value["big"].is_number_unsigned());
  EXPECT_EQ(value["big"].get<std::uint64_t>(), 12345678901234567890ULL);
  EXPECT_TRUE(value["bigger"].is_number_float());
  EXPECT_EQ(value["bigger"].get<double>(), 1e20);
  EXPECT_EQ(value["neg"].get<double>(), -1e20);
}

// Verifies the escapes go-yaml writes for U+0085 and U+00A0 read back as those characters
// (yaml-cpp alone gives a Latin-1 byte, which was refused as not UTF-8).
TEST(YamlToJsonTest, ReadsGoYamlsNelAndNbspEscapes) {
  auto documents = yamlDocumentsToJson("a: \"x\\Ny\"\n\"\\_\": \"\\uFEFF\\_\"\n");
  ASSERT_TRUE(documents) << documents.error().message;
  EXPECT_EQ(documents.value().at(0),
            Json({{"a", "x\xC2\x85y"}, {"\xC2\xA0", "\xEF\xBB\xBF\xC2\xA0"}}));
  OJson printed = OJson::object();
  printed["nel"] = "x\xC2\x85y";
  EXPECT_EQ(toYaml(printed), "nel: \"x\\Ny\"\n");
}

// Verifies plain scalars and keys read as kubectl and KubeFed read them (go-yaml, YAML 1.1):
// `0644` is octal, `yes`/`on`/`y` are true, 0x/0b/underscores are integers, `.5` a float; dates,
// base-60 numbers and .inf stay text; keys become "true", "16", "1.5".
TEST(YamlToJsonTest, ReadsPlainScalarsAsKubectlDoes) {
  auto documents = yamlDocumentsToJson(
      "mode: 0644\nflags: [yes, on, y, N, off]\nnumbers: [0x1F, 1_000, 0b101, .5, +7, -0x10]\n"
      "text: [2001-12-14, 1:20, .inf, 0x1FFFFFFFFFFFFFFFF, \"0644\"]\n"
      "keys: {on: 1, 0x10: 2, 1.5: 3, 007: 4}\n");
  ASSERT_TRUE(documents) << documents.error().message;
  EXPECT_EQ(documents.value().at(0), Json::parse(R"({
      "mode": 420, "flags": [true, true, true, false, false],
      "numbers": [31, 1000, 5, 0.5, 7, -16],
      "text": ["2001-12-14", "1:20", ".inf", "0x1FFFFFFFFFFFFFFFF", "0644"],
      "keys": {"true": 1, "16": 2, "1.5": 3, "7": 4}})"));
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
