#include "apis/encoding/version_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "apis/encoding/md5.h"

namespace kf {
namespace {

// Every expectation below was printed by a Go program that runs KubeFed's hashing path on the
// same object: k8s.io/apimachinery JSON decoding, unstructured.NestedMap + Unstructured.MarshalJSON
// for the template, and for overrides json.Unmarshal into KubeFed's GenericOverride structs
// (with metav1.TypeMeta/ObjectMeta) then MarshalJSON of {"overrides": spec.overrides}. The one
// adjusted value is the template hash of "escaping": KubeFed's Go (< 1.22) wrote \b and \f as
// \u0008 and \u000c, so it hashes that text instead of Go 1.26's.
struct VersionCase {
  const char* name;
  const char* object;             // the federated object, JSON text
  const char* template_version;   // nullptr: Go returns an error
  const char* overrides_version;  // nullptr: Go returns an error
  const char* overrides_input;    // the hashed text without its "\n"; nullptr on error
};

const VersionCase kVersionCases[] = {
    {"unit_vector", R"json({"spec":{"template":{"spec":{"foo":null}}}})json",
     "a5b8d4352d5aed51c51b93900258ccf3", "2979b7538b527abe06492021841caf47",
     R"({"overrides":null})"},
    {"no_overrides", R"json({"spec":{}})json", "", "2979b7538b527abe06492021841caf47",
     R"({"overrides":null})"},
    {"empty_overrides", R"json({"spec":{"overrides":[]}})json", "",
     "fd97e6d9a670c7dcdc2477764f78b459", R"({"overrides":[]})"},
    {"no_spec", R"json({"metadata":{"name":"x"}})json", "", "", ""},
    {"null_spec", R"json({"spec":null})json", "", "", ""},
    {"appendix_a",
     R"json({"apiVersion":"types.kubefed.io/v1beta1","kind":"FederatedConfigMap","metadata":{"name":"cm1","namespace":"ns1","generation":1,"finalizers":["kubefed.io/sync-controller"]},"spec":{"template":{"data":{"k":"v"}},"placement":{"clusters":[{"name":"c1"},{"name":"c2"}]},"overrides":[{"clusterName":"c2","clusterOverrides":[{"path":"/data","value":{"k":"w"}}]}]}})json",
     "86d7340b476552a96d857c5b58aace45", "d864e5c9de36abe205130b7fce2044a1",
     R"({"overrides":[{"clusterName":"c2","clusterOverrides":[{"path":"/data","value":{"k":"w"}}]}]})"},
    {"escaping",
     R"json({"spec":{"template":{"s":"<a href=\"x\">&amp;</a>","t":"line\nbreak\ttab\rcr\\back/slash","c":"\u0000\u0001\u001f\u007f","u":"x\u2028y\u2029z","n":"h\u00e9llo \u65e5\u672c \ud83d\ude00","bf":"\b\f\u000b"}}})json",
     "898d888e299b935186d24ec8c9839636", "2979b7538b527abe06492021841caf47",
     R"({"overrides":null})"},
    {"numbers",
     R"json({"spec":{"template":{"a":0,"b":-0.0,"c":1e-7,"d":123456789012,"e":1.5,"f":1e21,"g":5e-324,"h":-1.25e-10,"i":1e20,"j":0.000001,"k":9223372036854775807,"l":-9223372036854775808,"m":18446744073709551615,"n":1.0,"o":100e-2,"p":1.7976931348623157e308,"q":123456789.123456789,"r":0.1,"s":-0,"t":9223372036854775808,"u":-9223372036854775809,"v":1e2,"w":0.00000123,"x":123456789012345678901234567890,"y":2.2250738585072014e-308,"z":999999999999999999999.0,"z2":1e-6,"z3":9.999999999999999e-7,"z4":-1e21,"z5":1E+2,"z6":12345678.9}}})json",
     "c95b7e87d79d1cb24d615a700ae07005", "2979b7538b527abe06492021841caf47",
     R"({"overrides":null})"},
    {"nesting",
     R"json({"spec":{"template":{"z":{},"y":[],"x":[{},[],null,true,false,"",[1,[2,[3]]]],"w":{"b":{"a":1,"A":2},"a":null}}}})json",
     "d0136adb5d6a9b71037557ff6bd45b76", "2979b7538b527abe06492021841caf47",
     R"({"overrides":null})"},
    {"key_order",
     R"json({"spec":{"template":{"\u00e9":1,"e":2,"E":3,"\u65e5":4,"\ud83d\ude00":5,"\uffff":6,"\u007f":7,"":8,"a b":9,"ab":10,"a":11,"_":12,"Z":13,"\u0001":14,"<":15}}})json",
     "48de05ac8e987711bb73baa3ac6d813f", "2979b7538b527abe06492021841caf47",
     R"({"overrides":null})"},
    {"template_null", R"json({"spec":{"template":null}})json", nullptr,
     "2979b7538b527abe06492021841caf47", R"({"overrides":null})"},
    {"template_array", R"json({"spec":{"template":[1]}})json", nullptr,
     "2979b7538b527abe06492021841caf47", R"({"overrides":null})"},
    {"template_empty", R"json({"spec":{"template":{}}})json", "8a80554c91d9fca8acb82f023de02f11",
     "2979b7538b527abe06492021841caf47", R"({"overrides":null})"},
    {"spec_string", R"json({"spec":"x"})json", nullptr, nullptr, nullptr},
    {"spec_array", R"json({"spec":[]})json", nullptr, nullptr, nullptr},
    {"override_numbers",
     R"json({"spec":{"overrides":[{"clusterName":"c1","clusterOverrides":[{"path":"/a","value":5},{"path":"/b","value":1e21},{"path":"/c","value":1.0},{"path":"/d","value":9007199254740993},{"path":"/e","value":123456789012345678},{"path":"/f","value":-0.0},{"path":"/g","value":0.1},{"path":"/h","value":1e-7},{"path":"/i","value":[1,2.5,{"n":3}]},{"path":"/j","value":-9223372036854775808},{"path":"/k","value":18446744073709551615}]}]}})json",
     "", "49fc9589bd145f97ea8543e21beb7a08",
     R"({"overrides":[{"clusterName":"c1","clusterOverrides":[{"path":"/a","value":5},{"path":"/b","value":1e+21},{"path":"/c","value":1},{"path":"/d","value":9007199254740992},{"path":"/e","value":123456789012345680},{"path":"/f","value":-0},{"path":"/g","value":0.1},{"path":"/h","value":1e-7},{"path":"/i","value":[1,2.5,{"n":3}]},{"path":"/j","value":-9223372036854776000},{"path":"/k","value":18446744073709552000}]}]})"},
    {"override_fields",
     R"json({"spec":{"overrides":[{"clusterOverrides":[{"value":"v","path":"/p","op":"add","extra":1},{"op":"","path":"/q"},{"path":"/r","value":null},{"path":"/s","value":false},{"path":"/t","value":0},{"path":"/u","value":""},{"path":"/v","value":{}},{"path":"/w","value":[]},{"op":"remove","path":"/x"},{"path":null,"op":null}],"clusterName":"b","unknown":{"x":1}},{"clusterName":"a","clusterOverrides":[]},{"clusterName":"c"},{"clusterName":"d","clusterOverrides":null},{}],"other":5}})json",
     "", "6276480b7ad83fc061800e066f71f341",
     R"({"overrides":[{"clusterName":"b","clusterOverrides":[{"op":"add","path":"/p","value":"v"},{"path":"/q"},{"path":"/r"},{"path":"/s","value":false},{"path":"/t","value":0},{"path":"/u","value":""},{"path":"/v","value":{}},{"path":"/w","value":[]},{"op":"remove","path":"/x"},{"path":""}]},{"clusterName":"a"},{"clusterName":"c"},{"clusterName":"d"},{"clusterName":""}]})"},
    {"override_value_maps",
     R"json({"spec":{"overrides":[{"clusterName":"<c&>","clusterOverrides":[{"path":"/m","value":{"zeta":{"b":1,"a":[{"y":1,"x":2}]},"Alpha":"<&>","\u00e9":"\u2028","":null}}]}]}})json",
     "", "2108e70ccba179a1cb02931f0e194df5",
     "{\"overrides\":[{\"clusterName\":\"\\u003cc\\u0026\\u003e\",\"clusterOverrides\":[{\"path\":"
     "\"/"
     "m\",\"value\":{\"\":null,\"Alpha\":\"\\u003c\\u0026\\u003e\",\"zeta\":{\"a\":[{\"x\":2,\"y\":"
     "1}],\"b\":1},\"\xc3\xa9\":\"\\u2028\"}}]}]}"},
    {"override_nulls",
     R"json({"spec":{"overrides":[null,{"clusterName":null,"clusterOverrides":[null]}]}})json", "",
     "e4e89ceb65e78ff292c19fe1a11f97ef",
     R"({"overrides":[{"clusterName":""},{"clusterName":"","clusterOverrides":[{"path":""}]}]})"},
    {"override_null_list", R"json({"spec":{"overrides":null}})json", "",
     "2979b7538b527abe06492021841caf47", R"({"overrides":null})"},
    {"override_fold",
     R"json({"spec":{"overrides":[{"CLUSTERNAME":"a","ClusterOverrides":[{"PATH":"/x","Value":1,"OP":"add"}]},{"clu\u017fterName":"b","clusterOverrides":[{"pAth":"/y"}]},{"clusterName":"K","clusterOverrides":[{"path":"/\u212a","value":{"K":1}}]}]}})json",
     "", "a2dd50e7df6b0dd1208a598c8f9b25f4",
     "{\"overrides\":[{\"clusterName\":\"a\",\"clusterOverrides\":[{\"op\":\"add\",\"path\":\"/"
     "x\",\"value\":1}]},{\"clusterName\":\"b\",\"clusterOverrides\":[{\"path\":\"/"
     "y\"}]},{\"clusterName\":\"K\",\"clusterOverrides\":[{\"path\":\"/"
     "\xe2\x84\xaa\",\"value\":{\"K\":1}}]}]}"},
    {"override_dup_fold",
     R"json({"spec":{"overrides":[{"clusterName":"a","clustername":"b","clusterOverrides":[{"path":"/a","op":"add"},{"path":"/a2"}],"clusteroverrides":[{"path":"/b"}]}]}})json",
     "", "5d3ff50e317abce0d3d19bf0efb784be",
     R"({"overrides":[{"clusterName":"b","clusterOverrides":[{"op":"add","path":"/b"}]}]})"},
    {"override_dup_fold_null",
     R"json({"spec":{"overrides":[{"clusterName":"a","clustername":null,"clusterOverrides":[{"path":"/a","value":1}],"clusteroverrides":null}]}})json",
     "", "3419f0f7d6c98e6c2340d40266359f22", R"({"overrides":[{"clusterName":"a"}]})"},
    {"spec_dup_fold_merge",
     R"json({"Spec":{"overrides":[{"clusterName":"x"}]},"spec":{"template":{}}})json",
     "8a80554c91d9fca8acb82f023de02f11", "b525a3b511dd73f975d845c8ab762d8f",
     R"({"overrides":[{"clusterName":"x"}]})"},
    {"spec_dup_fold_null", R"json({"Spec":{"overrides":[{"clusterName":"x"}]},"spec":null})json",
     "", "", ""},
    {"overrides_dup_fold",
     R"json({"spec":{"Overrides":[{"clusterName":"x","clusterOverrides":[{"path":"/p","op":"add"}]},{"clusterName":"y"}],"overrides":[{"clusterOverrides":[{"path":"/q"}]}]}})json",
     "", "5addc9a07d54aacf30b605ce09482308",
     R"({"overrides":[{"clusterName":"x","clusterOverrides":[{"op":"add","path":"/q"}]}]})"},
    // Several spellings of one list field: Go's slice reuse resurrects elements a shorter
    // list cut off (the second override), unless an empty list replaced the backing array.
    {"slice_ghosts",
     R"json({"spec":{"overrides":[{"clusterName":"a","CLUSTEROVERRIDES":[{"path":"/1","op":"add"},{"path":"/2","op":"remove"}],"clusterOverrides":[{"path":"/x"}],"clusteroverrides":[{"path":"/y"},null,{}]}]}})json",
     "", "ff28531a0d85dcd9d79a241d46fd2588",
     R"({"overrides":[{"clusterName":"a","clusterOverrides":[{"op":"add","path":"/y"},{"op":"remove","path":"/2"},{"path":""}]}]})"},
    {"empty_array_drops_ghosts",
     R"json({"spec":{"overrides":[{"clusterName":"a","CLUSTEROVERRIDES":[{"path":"/1","op":"add"},{"path":"/2","op":"remove"}],"clusterOverrides":[],"clusteroverrides":[null,null]}]}})json",
     "", "6ebbacd4eb4d3af37c9966662e0bcec7",
     R"({"overrides":[{"clusterName":"a","clusterOverrides":[{"path":""},{"path":""}]}]})"},
    {"overrides_object", R"json({"spec":{"overrides":{"clusterName":"a"}}})json", "", nullptr,
     nullptr},
    {"cluster_name_number", R"json({"spec":{"overrides":[{"clusterName":5}]}})json", "", nullptr,
     nullptr},
    {"path_bool",
     R"json({"spec":{"overrides":[{"clusterName":"a","clusterOverrides":[{"path":true}]}]}})json",
     "", nullptr, nullptr},
    {"op_object",
     R"json({"spec":{"overrides":[{"clusterName":"a","clusterOverrides":[{"path":"/a","op":{}}]}]}})json",
     "", nullptr, nullptr},
    {"item_string", R"json({"spec":{"overrides":["a"]}})json", "", nullptr, nullptr},
    {"cluster_overrides_string",
     R"json({"spec":{"overrides":[{"clusterName":"a","clusterOverrides":"x"}]}})json", "", nullptr,
     nullptr},
    {"cluster_override_number",
     R"json({"spec":{"overrides":[{"clusterName":"a","clusterOverrides":[7]}]}})json", "", nullptr,
     nullptr},
    {"kind_number", R"json({"kind":5,"spec":{"overrides":[]}})json", "", nullptr, nullptr},
    {"metadata_string", R"json({"metadata":"x","spec":{"overrides":[]}})json", "", nullptr,
     nullptr},
    {"api_version_null",
     R"json({"apiVersion":null,"kind":null,"metadata":null,"spec":{"overrides":[]}})json", "",
     "fd97e6d9a670c7dcdc2477764f78b459", R"({"overrides":[]})"},
    {"template_and_overrides",
     R"json({"spec":{"template":{"metadata":{"labels":{"app":"web"}},"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.21","ports":[{"containerPort":80}]}]}}}},"overrides":[{"clusterName":"cluster2","clusterOverrides":[{"path":"/spec/replicas","value":5},{"path":"/metadata/labels","op":"replace","value":{"env":"prod"}}]}]}})json",
     "bc3dcbbdfbf5e0bd5e88ab585de3f0dc", "a9e97096636358800f48bcd44e0056b7",
     R"({"overrides":[{"clusterName":"cluster2","clusterOverrides":[{"path":"/spec/replicas","value":5},{"op":"replace","path":"/metadata/labels","value":{"env":"prod"}}]}]})"},
};

class VersionHashVectorTest : public ::testing::TestWithParam<VersionCase> {};

void expectVersion(const EncodeResult& actual, const char* expected) {
  if (expected == nullptr) {
    EXPECT_FALSE(actual.ok()) << "expected an error, got \"" << actual.value << '"';
    EXPECT_EQ(actual.value, "");
  } else {
    EXPECT_TRUE(actual.ok()) << actual.error;
    EXPECT_EQ(actual.value, expected);
  }
}

TEST_P(VersionHashVectorTest, TemplateVersionMatchesGo) {
  expectVersion(templateVersion(Json::parse(GetParam().object)), GetParam().template_version);
}

TEST_P(VersionHashVectorTest, OverridesVersionMatchesGo) {
  const Json object = Json::parse(GetParam().object);
  expectVersion(overridesVersion(object), GetParam().overrides_version);
  const EncodeResult input = overridesHashInput(object);
  if (GetParam().overrides_input == nullptr) {
    EXPECT_FALSE(input.ok());
  } else if (*GetParam().overrides_input == '\0') {
    EXPECT_EQ(input.value, "");
  } else {
    EXPECT_EQ(input.value, std::string(GetParam().overrides_input) + "\n");
    EXPECT_EQ(md5Hex(input.value), GetParam().overrides_version);
  }
}

INSTANTIATE_TEST_SUITE_P(GoVectors, VersionHashVectorTest, ::testing::ValuesIn(kVersionCases),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

TEST(VersionHashTest, SpecVectorsOfSection257) {
  EXPECT_EQ(templateVersion(Json::parse(R"({"spec":{"template":{"spec":{"foo":null}}}})")).value,
            "a5b8d4352d5aed51c51b93900258ccf3");
  EXPECT_EQ(overridesVersion(Json::parse(R"({"spec":{}})")).value,
            "2979b7538b527abe06492021841caf47");
  EXPECT_EQ(md5Hex("{\"overrides\":null}\n"), "2979b7538b527abe06492021841caf47");
  EXPECT_EQ(overridesVersion(Json::parse(R"({"spec":{"overrides":[]}})")).value,
            "fd97e6d9a670c7dcdc2477764f78b459");
}

TEST(VersionHashTest, AppendixAHashesTheDocumentedText) {
  const Json object = Json::parse(R"({"spec":{"template":{"data":{"k":"v"}},
      "overrides":[{"clusterName":"c2","clusterOverrides":[{"path":"/data","value":{"k":"w"}}]}]}})");
  EXPECT_EQ(templateVersion(object).value, md5Hex("{\"data\":{\"k\":\"v\"}}\n"));
  EXPECT_EQ(overridesVersion(object).value,
            md5Hex(R"({"overrides":[{"clusterName":"c2","clusterOverrides":[{"path":"/data",)"
                   R"("value":{"k":"w"}}]}]})"
                   "\n"));
}

TEST(VersionHashTest, OverridesRoundTripStringsThroughValidUtf8) {
  // Go writes invalid bytes as \ufffd, decodes that to U+FFFD and then writes U+FFFD verbatim;
  // value keys that became equal collapse, the last in byte order winning. Expected from Go.
  const Json object = {
      {"spec",
       {{"overrides",
         Json::array({{{"clusterName",
                        "c\xff"
                        "1"},
                       {"clusterOverrides",
                        Json::array({{{"op", "add\xfe"},
                                      {"path", "/a\xc0"},
                                      {"value",
                                       {{"k\xff", "v\xff"},
                                        {"k\xfe", "w"},
                                        {"k\xef\xbf\xbd", 3},
                                        {"z", Json::array({"\xe2\x80\xa8\xff"})}}}}})}}})}}}};
  const EncodeResult input = overridesHashInput(object);
  ASSERT_TRUE(input.ok()) << input.error;
  EXPECT_EQ(input.value,
            "{\"overrides\":[{\"clusterName\":\"c\xef\xbf\xbd"
            "1\",\"clusterOverrides\":[{\"op\":"
            "\"add\xef\xbf\xbd\",\"path\":\"/a\xef\xbf\xbd\",\"value\":{\"k\xef\xbf\xbd\":\"v\xef"
            "\xbf\xbd\",\"z\":[\"\\u2028\xef\xbf\xbd\"]}}]}]}\n");
  EXPECT_EQ(overridesVersion(object).value, "eda3ffc346637835fa98195e01b4f4c7");
}

TEST(VersionHashTest, TemplateKeepsInvalidUtf8Escaped) {
  const Json object = {{"spec",
                        {{"template",
                          {{"k0",
                            "a\xff"
                            "b"},
                           {"k6", "\xef\xbf\xbd"}}}}}};
  EXPECT_EQ(templateVersion(object).value,
            md5Hex("{\"k0\":\"a\\ufffdb\",\"k6\":\"\xef\xbf\xbd\"}\n"));
}

TEST(VersionHashTest, NumbersGoCannotEncodeAreErrors) {
  const double nan = std::nan("");
  const Json in_template = {{"spec", {{"template", {{"x", nan}}}}}};
  EXPECT_FALSE(templateVersion(in_template).ok());
  // KubeFed encodes the whole object before decoding overrides, so a NaN anywhere fails them.
  EXPECT_FALSE(overridesVersion(in_template).ok());
  const Json in_status = {{"spec", Json::object()},
                          {"status", {{"x", std::numeric_limits<double>::infinity()}}}};
  EXPECT_TRUE(templateVersion(in_status).ok());
  EXPECT_EQ(overridesVersion(in_status).error, "json: unsupported value: +Inf");
}

TEST(VersionHashTest, NonObjectsAreErrors) {
  EXPECT_FALSE(templateVersion(Json::array()).ok());
  EXPECT_FALSE(overridesVersion(Json("x")).ok());
  EXPECT_FALSE(overridesVersion(Json()).ok());
}

TEST(VersionHashTest, TypeErrorsNameTheField) {
  const EncodeResult result =
      overridesVersion(Json::parse(R"({"spec":{"overrides":[{"clusterName":5}]}})"));
  EXPECT_EQ(result.error,
            "json: cannot unmarshal number into Go struct field spec.overrides[].clusterName of "
            "type string");
}

}  // namespace
}  // namespace kf
