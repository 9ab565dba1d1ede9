#include "apis/encoding/go_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace kf {
namespace {

// Expected encodings were printed by Go (encoding/json through client-go's
// Unstructured.MarshalJSON, values decoded by k8s.io/apimachinery's JSON decoder, which keeps
// integers as int64). One deliberate difference: Go >= 1.22 writes \b and \f as short escapes;
// KubeFed v0.8.1 was built with an older Go that wrote \u0008 and \u000c, so "escaping" expects
// those.
struct EncodingCase {
  const char* name;
  const char* input;     // JSON text
  const char* expected;  // Go's encoding, without the trailing newline of Encoder.Encode
};

const EncodingCase kEncodingCases[] = {
    {"appendix_a", R"json({"data":{"k":"v"}})json", R"({"data":{"k":"v"}})"},
    {"escaping",
     R"json({"s":"<a href=\"x\">&amp;</a>","t":"line\nbreak\ttab\rcr\\back/slash","c":"\u0000\u0001\u001f\u007f","u":"x\u2028y\u2029z","n":"h\u00e9llo \u65e5\u672c \ud83d\ude00","bf":"\b\f\u000b"})json",
     "{\"bf\":\"\\u0008\\u000c\\u000b\",\"c\":\"\\u0000\\u0001\\u001f\x7f\",\"n\":\"h\xc3\xa9llo "
     "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\",\"s\":\"\\u003ca "
     "href=\\\"x\\\"\\u003e\\u0026amp;\\u003c/a\\u003e\",\"t\":\"line\\nbreak\\ttab\\rcr\\\\back/"
     "slash\",\"u\":\"x\\u2028y\\u2029z\"}"},
    {"numbers",
     R"json({"a":0,"b":-0.0,"c":1e-7,"d":123456789012,"e":1.5,"f":1e21,"g":5e-324,"h":-1.25e-10,"i":1e20,"j":0.000001,"k":9223372036854775807,"l":-9223372036854775808,"m":18446744073709551615,"n":1.0,"o":100e-2,"p":1.7976931348623157e308,"q":123456789.123456789,"r":0.1,"s":-0,"t":9223372036854775808,"u":-9223372036854775809,"v":1e2,"w":0.00000123,"x":123456789012345678901234567890,"y":2.2250738585072014e-308,"z":999999999999999999999.0,"z2":1e-6,"z3":9.999999999999999e-7,"z4":-1e21,"z5":1E+2,"z6":12345678.9})json",
     R"({"a":0,"b":-0,"c":1e-7,"d":123456789012,"e":1.5,"f":1e+21,"g":5e-324,"h":-1.25e-10,"i":100000000000000000000,"j":0.000001,"k":9223372036854775807,"l":-9223372036854775808,"m":18446744073709552000,"n":1,"o":1,"p":1.7976931348623157e+308,"q":123456789.12345679,"r":0.1,"s":0,"t":9223372036854776000,"u":-9223372036854776000,"v":100,"w":0.00000123,"x":1.2345678901234568e+29,"y":2.2250738585072014e-308,"z":1e+21,"z2":0.000001,"z3":0.000001,"z4":-1e+21,"z5":100,"z6":12345678.9})"},
    {"nesting",
     R"json({"z":{},"y":[],"x":[{},[],null,true,false,"",[1,[2,[3]]]],"w":{"b":{"a":1,"A":2},"a":null}})json",
     R"({"w":{"a":null,"b":{"A":2,"a":1}},"x":[{},[],null,true,false,"",[1,[2,[3]]]],"y":[],"z":{}})"},
    {"key_order",
     R"json({"\u00e9":1,"e":2,"E":3,"\u65e5":4,"\ud83d\ude00":5,"\uffff":6,"\u007f":7,"":8,"a b":9,"ab":10,"a":11,"_":12,"Z":13,"\u0001":14,"<":15})json",
     "{\"\":8,\"\\u0001\":14,\"\\u003c\":15,\"E\":3,\"Z\":13,\"_\":12,\"a\":11,\"a "
     "b\":9,\"ab\":10,\"e\":2,\"\x7f\":7,\"\xc3\xa9\":1,\"\xe6\x97\xa5\":4,\"\xef\xbf\xbf\":6,"
     "\"\xf0\x9f\x98\x80\":5}"},
    {"template_and_overrides",
     R"json({"metadata":{"labels":{"app":"web"}},"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.21","ports":[{"containerPort":80}]}]}}}})json",
     R"({"metadata":{"labels":{"app":"web"}},"spec":{"replicas":3,"template":{"spec":{"containers":[{"image":"nginx:1.21","name":"nginx","ports":[{"containerPort":80}]}]}}}})"},
};

class GoJsonEncodeVectorTest : public ::testing::TestWithParam<EncodingCase> {};

TEST_P(GoJsonEncodeVectorTest, MatchesGo) {
  const Json value = Json::parse(GetParam().input);
  EXPECT_EQ(goJsonEncode(value), GetParam().expected);
  EXPECT_EQ(goJsonEncodeLine(value), std::string(GetParam().expected) + "\n");
  const EncodeResult marshalled = goJsonMarshal(value);
  ASSERT_TRUE(marshalled.ok()) << marshalled.error;
  EXPECT_EQ(marshalled.value, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(GoVectors, GoJsonEncodeVectorTest, ::testing::ValuesIn(kEncodingCases),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

TEST(GoJsonEncodeTest, EncodesScalarsAndEmptyContainers) {
  EXPECT_EQ(goJsonEncode(Json()), "null");
  EXPECT_EQ(goJsonEncode(Json(true)), "true");
  EXPECT_EQ(goJsonEncode(Json(false)), "false");
  EXPECT_EQ(goJsonEncode(Json("x")), R"("x")");
  EXPECT_EQ(goJsonEncode(Json::object()), "{}");
  EXPECT_EQ(goJsonEncode(Json::array()), "[]");
  EXPECT_EQ(goJsonEncode(Json::parse(R"([1,"a",null,{"b":[]}])")), R"([1,"a",null,{"b":[]}])");
  EXPECT_EQ(goJsonEncodeLine(Json::object()), "{}\n");
}

TEST(GoJsonEncodeTest, EncodesIntegersOfEveryWidth) {
  EXPECT_EQ(goJsonEncode(Json(std::int64_t{0})), "0");
  EXPECT_EQ(goJsonEncode(Json(std::numeric_limits<std::int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(goJsonEncode(Json(std::uint64_t{42})), "42");
  EXPECT_EQ(goJsonEncode(Json(std::uint64_t{9223372036854775807u})), "9223372036854775807");
  // Beyond int64 Kubernetes' decoder yields a float64 (printed by Go as below).
  EXPECT_EQ(goJsonEncode(Json(std::uint64_t{9223372036854775808u})), "9223372036854776000");
  EXPECT_EQ(goJsonEncode(Json(std::numeric_limits<std::uint64_t>::max())), "18446744073709552000");
}

TEST(GoJsonEncodeTest, EncodesFloatsLikeGo) {
  EXPECT_EQ(goJsonEncode(Json(0.0)), "0");
  EXPECT_EQ(goJsonEncode(Json(-0.0)), "-0");
  EXPECT_EQ(goJsonEncode(Json(5.0)), "5");
  EXPECT_EQ(goJsonEncode(Json(1e-7)), "1e-7");
  EXPECT_EQ(goJsonEncode(Json(1.5e-7)), "1.5e-7");
  EXPECT_EQ(goJsonEncode(Json(1e-10)), "1e-10");
  EXPECT_EQ(goJsonEncode(Json(1e-6)), "0.000001");
  EXPECT_EQ(goJsonEncode(Json(1e20)), "100000000000000000000");
  EXPECT_EQ(goJsonEncode(Json(1e21)), "1e+21");
  EXPECT_EQ(goJsonEncode(Json(-1e21)), "-1e+21");
  EXPECT_EQ(goJsonEncode(Json(5e-324)), "5e-324");
  EXPECT_EQ(goJsonEncode(Json(std::numeric_limits<double>::max())), "1.7976931348623157e+308");
  EXPECT_EQ(goJsonEncode(Json(0.1 + 0.2)), "0.30000000000000004");
  EXPECT_EQ(goJsonEncode(Json(123456789012.0)), "123456789012");
}

TEST(GoJsonMarshalTest, RefusesNaNAndInfinityLikeGo) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(goJsonMarshal(Json(std::nan(""))).error, "json: unsupported value: NaN");
  EXPECT_EQ(goJsonMarshal(Json(inf)).error, "json: unsupported value: +Inf");
  const EncodeResult nested = goJsonMarshal(Json{{"a", Json::array({1, -inf})}});
  EXPECT_FALSE(nested.ok());
  EXPECT_EQ(nested.error, "json: unsupported value: -Inf");
  EXPECT_EQ(nested.value, "");
  // The infallible form writes null in their place.
  EXPECT_EQ(goJsonEncode(Json{{"a", Json::array({1, -inf})}}), R"({"a":[1,null]})");
}

TEST(GoJsonEncodeTest, ReplacesEachInvalidUtf8ByteAndSortsRawKeys) {
  // Built in C++ because JSON text cannot carry invalid UTF-8. Expected output from Go.
  const Json value = {
      {"k0",
       "a\xff"
       "b"},
      {"k1", "\xe2\x82"},  // truncated sequence: one U+FFFD per byte
      {"k2",
       "\xe2\x82"
       "A"},
      {"k3", "\xed\xa0\x80"},      // surrogate
      {"k4", "\xc0\xaf"},          // overlong
      {"k5", "\xf4\x90\x80\x80"},  // above U+10FFFF
      {"k6", "\xef\xbf\xbd"},      // a real U+FFFD is written verbatim
      {"k7", "\xf0\x9f\x98"},
      {"k8", "\x80"},
      {"k9", "ok\xf5z"},
      {"key\xff"
       "x",
       1},
      {"key\xfe"
       "x",
       2},
  };
  EXPECT_EQ(goJsonEncodeLine(value),
            R"({"k0":"a\ufffdb","k1":"\ufffd\ufffd","k2":"\ufffd\ufffdA",)"
            R"("k3":"\ufffd\ufffd\ufffd","k4":"\ufffd\ufffd","k5":"\ufffd\ufffd\ufffd\ufffd",)"
            "\"k6\":\"\xef\xbf\xbd\","
            R"("k7":"\ufffd\ufffd\ufffd","k8":"\ufffd","k9":"ok\ufffdz",)"
            R"("key\ufffdx":2,"key\ufffdx":1})"
            "\n");
}

TEST(GoJsonQuoteTest, EscapesLikeGoBefore122) {
  EXPECT_EQ(goJsonQuote(""), R"("")");
  EXPECT_EQ(goJsonQuote("a\"b\\c/d"), R"("a\"b\\c/d")");
  EXPECT_EQ(goJsonQuote("\n\r\t\b\f"), R"("\n\r\t\u0008\u000c")");
  EXPECT_EQ(goJsonQuote(std::string("\0\x1f\x7f", 3)), "\"\\u0000\\u001f\x7f\"");
  EXPECT_EQ(goJsonQuote("<&>"), R"("\u003c\u0026\u003e")");
  EXPECT_EQ(goJsonQuote("\xe2\x80\xa8\xe2\x80\xa9"), R"("\u2028\u2029")");
  EXPECT_EQ(goJsonQuote("\xe2\x80\xaa"), "\"\xe2\x80\xaa\"");  // U+202A is not special
  EXPECT_EQ(goJsonQuote("h\xc3\xa9 \xf0\x9f\x98\x80"), "\"h\xc3\xa9 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(goJsonQuote("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");  // U+10FFFF
}

TEST(ToValidUtf8Test, ReplacesEachBadByteWithOneReplacementChar) {
  EXPECT_EQ(toValidUtf8("plain h\xc3\xa9"), "plain h\xc3\xa9");
  EXPECT_EQ(toValidUtf8("a\xff"
                        "b"),
            "a\xef\xbf\xbd"
            "b");
  EXPECT_EQ(toValidUtf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(toValidUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(toValidUtf8(""), "");
}

}  // namespace
}  // namespace kf
