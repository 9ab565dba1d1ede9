// The cap on how deeply a server's JSON may nest (json_depth.h), in the watch and list decoders.

#include "federation/client/json_depth.h"

#include <gtest/gtest.h>

#include <string>

#include "federation/client/json_watch.h"
#include "federation/client/list_decoder.h"

namespace kf {
namespace {

// `levels` arrays, one inside the other.
std::string nested(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

TEST(JsonDepthTest, CountsArraysAndObjectsButNotBracketsInStrings) {
  EXPECT_FALSE(nestsDeeperThan(R"({"a": [1, {"b": "[[[[{{{{"}]})", 3));
  EXPECT_TRUE(nestsDeeperThan(R"({"a": [1, {"b": [2]}]})", 3));
  EXPECT_FALSE(nestsDeeperThan(R"({"a": "\"[[[[", "b": []})", 2));
  EXPECT_FALSE(nestsDeeperThan("", 0));
  EXPECT_TRUE(nestsDeeperThan("[", 0));
  EXPECT_FALSE(nestsDeeperThan("]]]][", 1)) << "unbalanced closers count for nothing";
}

std::string eventWith(const std::string& object_field) {
  return R"({"type":"ADDED","object":{"metadata":{"name":"a"},"deep":)" + object_field + "}}";
}

// Verifies that an object nested as deeply as an API server stores decodes, and one level more
// is refused. (Printing it, recursively, takes a few MiB of stack in an optimised build; the
// frames of a sanitizer build are several times larger, so this test does not print it.)
TEST(JsonDepthTest, AWatchEventUpToTheCapDecodesAndOneLevelMoreIsRefused) {
  // The event's object and its "deep" field are two levels: the field holds the rest.
  auto deepest = decodeWatchEvent(eventWith(nested(kMaxJsonDepth - 2)));
  ASSERT_TRUE(deepest) << deepest.error().describe();
  EXPECT_TRUE(deepest.value().object["deep"].is_array());

  auto refused = decodeWatchEvent(eventWith(nested(kMaxJsonDepth - 1)));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().reason, Reason::kBadResponse);
  EXPECT_NE(refused.error().message.find("nests deeper than 10002 levels"), std::string::npos)
      << refused.error().message;
}

// Verifies the same for a list: its items array and an item are two levels, the item's "deep"
// field holds the rest. A million levels (two MiB) end the decoding without harm.
TEST(JsonDepthTest, AListUpToTheCapDecodesAndOneLevelMoreIsRefused) {
  const auto listWith = [](const std::string& deep) {
    return R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[{"deep":)" + deep +
           "}]}";
  };
  auto decoded = decodeList(listWith(nested(kMaxJsonDepth - 3)));
  ASSERT_TRUE(decoded) << decoded.error().describe();
  EXPECT_EQ(decoded.value().items.size(), 1U);

  for (const std::size_t levels : {kMaxJsonDepth - 2, std::size_t{1'000'000}}) {
    auto refused = decodeList(listWith(nested(levels)));
    ASSERT_FALSE(refused) << levels;
    EXPECT_EQ(refused.error().reason, Reason::kBadResponse);
    EXPECT_NE(refused.error().message.find("nests deeper than 10002 levels"), std::string::npos)
        << refused.error().message;
  }
  auto event = decodeWatchEvent(eventWith(nested(1'000'000)));
  EXPECT_FALSE(event);
}

}  // namespace
}  // namespace kf
