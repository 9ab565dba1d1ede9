#include "federation/client/list_decoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kf {
namespace {

using ::testing::HasSubstr;

struct Decoded {
  Result<ObjectList> list;
  std::vector<Json> items;
};

Decoded decodeEach(const std::string& body) {
  Decoded decoded{ObjectList{}, {}};
  decoded.list =
      decodeListEach(body, [&decoded](Json item) { decoded.items.push_back(std::move(item)); });
  return decoded;
}

TEST(ListDecoderTest, BuiltInListItemsGetTheListsKindAndTheMetadataIsRead) {
  const Decoded decoded = decodeEach(R"({
    "kind": "ConfigMapList", "apiVersion": "v1",
    "metadata": {"resourceVersion": "42", "continue": "next", "remainingItemCount": 7},
    "items": [
      {"metadata": {"name": "a", "namespace": "ns"}, "data": {"k": "v"}},
      {"metadata": {"name": "b", "namespace": "ns"}}
    ]})");
  ASSERT_TRUE(decoded.list) << decoded.list.error().describe();
  EXPECT_EQ(decoded.list.value().resource_version, "42");
  EXPECT_EQ(decoded.list.value().continue_token, "next");
  EXPECT_EQ(decoded.list.value().remaining_item_count, 7);
  EXPECT_TRUE(decoded.list.value().items.empty());
  ASSERT_EQ(decoded.items.size(), 2U);
  EXPECT_EQ(decoded.items[0], Json::parse(R"({"kind": "ConfigMap", "apiVersion": "v1",
      "metadata": {"name": "a", "namespace": "ns"}, "data": {"k": "v"}})"));
  EXPECT_EQ(decoded.items[1]["metadata"]["name"], "b");
  EXPECT_EQ(decoded.items[1]["kind"], "ConfigMap");
}

// Lists of custom resources come with Go's sorted keys: the kind and metadata after the items.
TEST(ListDecoderTest, MetadataAndKindAfterTheItemsAreStillRead) {
  const Decoded decoded = decodeEach(R"({
    "apiVersion": "types.kubefed.io/v1beta1",
    "items": [{"apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedConfigMap",
               "metadata": {"name": "a"}}],
    "kind": "FederatedConfigMapList",
    "metadata": {"continue": "", "resourceVersion": "9"}})");
  ASSERT_TRUE(decoded.list) << decoded.list.error().describe();
  EXPECT_EQ(decoded.list.value().resource_version, "9");
  ASSERT_EQ(decoded.items.size(), 1U);
  EXPECT_EQ(decoded.items[0]["kind"], "FederatedConfigMap");
}

TEST(ListDecoderTest, ItemsWithoutKindBeforeTheListsKindGetItInTheirOrder) {
  const Decoded decoded = decodeEach(R"({
    "apiVersion": "v1",
    "items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}],
    "kind": "SecretList", "metadata": {"resourceVersion": "3"}})");
  ASSERT_TRUE(decoded.list) << decoded.list.error().describe();
  ASSERT_EQ(decoded.items.size(), 2U);
  EXPECT_EQ(decoded.items[0]["metadata"]["name"], "a");
  EXPECT_EQ(decoded.items[0]["kind"], "Secret");
  EXPECT_EQ(decoded.items[0]["apiVersion"], "v1");
  EXPECT_EQ(decoded.items[1]["metadata"]["name"], "b");
}

TEST(ListDecoderTest, ItemsWithoutKindWaitForTheListsApiVersionToo) {
  const Decoded decoded = decodeEach(R"({
    "kind": "ConfigMapList", "items": [{"metadata": {"name": "a"}}], "apiVersion": "v1"})");
  ASSERT_TRUE(decoded.list) << decoded.list.error().describe();
  ASSERT_EQ(decoded.items.size(), 1U);
  EXPECT_EQ(decoded.items[0]["kind"], "ConfigMap");
  EXPECT_EQ(decoded.items[0]["apiVersion"], "v1");
}

TEST(ListDecoderTest, ANonStringResourceVersionIsAClearError) {
  const Decoded decoded =
      decodeEach(R"({"kind": "ConfigMapList", "metadata": {"resourceVersion": 7}, "items": []})");
  ASSERT_FALSE(decoded.list);
  EXPECT_EQ(decoded.list.error().reason, Reason::kBadResponse);
  EXPECT_THAT(decoded.list.error().message,
              HasSubstr("metadata.resourceVersion is not a string: 7"));
}

TEST(ListDecoderTest, NestedValuesOfEveryTypeSurviveAndOtherTopLevelFieldsAreIgnored) {
  const Json item = Json::parse(R"({"kind": "X", "metadata": {"name": "a"},
      "spec": {"list": [1, -2, 3.5, true, null, "s", [[]], [{"items": [], "metadata": {}}]],
               "empty": {}, "big": 18446744073709551615}})");
  const Decoded decoded = decodeEach(R"({"kind": "XList", "extra": {"items": [1], "metadata":
      {"resourceVersion": "wrong"}}, "more": [{"a": 1}], "items": [)" +
                                     item.dump() + R"(], "metadata": {"resourceVersion": "1"}})");
  ASSERT_TRUE(decoded.list) << decoded.list.error().describe();
  EXPECT_EQ(decoded.list.value().resource_version, "1");
  ASSERT_EQ(decoded.items.size(), 1U);
  EXPECT_EQ(decoded.items[0], item);
}

TEST(ListDecoderTest, EmptyAndNullItemsAreAnEmptyList) {
  EXPECT_TRUE(decodeEach(R"({"kind": "ConfigMapList", "items": []})").list);
  const Decoded null_items = decodeEach(R"({"kind": "ConfigMapList", "items": null})");
  ASSERT_TRUE(null_items.list) << null_items.list.error().describe();
  EXPECT_TRUE(null_items.items.empty());
}

// The items before a bad one were handed over already: the decoder does not hold them back.
TEST(ListDecoderTest, AnItemThatIsNotAnObjectFailsAfterTheItemsBeforeIt) {
  for (const std::string bad : {"3", "[]", "\"text\"", "null"}) {
    const Decoded decoded = decodeEach(R"({"kind": "ConfigMapList", "apiVersion": "v1", "items": [
        {"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}, )" +
                                       bad + "]}");
    ASSERT_FALSE(decoded.list) << bad;
    EXPECT_EQ(decoded.list.error().reason, Reason::kBadResponse);
    EXPECT_THAT(decoded.list.error().message, HasSubstr("item 2 of the list response")) << bad;
    EXPECT_EQ(decoded.items.size(), 2U) << bad;
  }
}

TEST(ListDecoderTest, ABodyThatIsNotAListIsAClearError) {
  struct Case {
    std::string body;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"kind": "ConfigMapList", "items": [{"a": )", "not valid JSON"},
           {"", "not valid JSON"},
           {R"([{"kind": "ConfigMap"}])", "not an object"},
           {R"("items")", "not an object"},
           {R"({"kind": "Status", "status": "Failure"})", "has no items"},
           {R"({"items": {"a": {}}})", "has no items"},
       }) {
    const Decoded decoded = decodeEach(c.body);
    ASSERT_FALSE(decoded.list) << c.body;
    EXPECT_EQ(decoded.list.error().reason, Reason::kBadResponse) << c.body;
    EXPECT_THAT(decoded.list.error().message, HasSubstr(c.message)) << c.body;
  }
}

// Found by list_decoder_fuzz: the JSON parser takes a NUL byte for the end of its input, so a
// list followed by a NUL and garbage decoded as if the garbage were not there.
TEST(ListDecoderTest, ANulByteAnywhereIsNotJson) {
  const std::string list = R"({"kind": "ConfigMapList", "apiVersion": "v1", "items": []})";
  for (const std::string& body :
       {list + std::string("\0garbage", 8), std::string("\0", 1) + list}) {
    const Decoded decoded = decodeEach(body);
    ASSERT_FALSE(decoded.list);
    EXPECT_EQ(decoded.list.error().reason, Reason::kBadResponse);
    EXPECT_THAT(decoded.list.error().message, HasSubstr("NUL byte"))
        << decoded.list.error().message;
  }
}

TEST(ListDecoderTest, DecodeListCollectsTheItems) {
  auto list = decodeList(R"({"kind": "ConfigMapList", "apiVersion": "v1",
      "metadata": {"resourceVersion": "5"}, "items": [{"metadata": {"name": "a"}}]})");
  ASSERT_TRUE(list) << list.error().describe();
  EXPECT_EQ(list.value().resource_version, "5");
  ASSERT_EQ(list.value().items.size(), 1U);
  EXPECT_EQ(list.value().items[0]["kind"], "ConfigMap");
}

}  // namespace
}  // namespace kf
