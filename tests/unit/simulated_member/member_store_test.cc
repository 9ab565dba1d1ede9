// The simulated member's store where its behaviour is its own (what the conformance tests
// against a real API server cannot force): the bounded history, bookmarks, a namespace's
// deletion, the observer; and its selector and continue-token parsing.

#include "tests/support/simulated_member/member_store.h"

#include <gtest/gtest.h>

#include "tests/support/simulated_member/continue_token.h"

namespace kf::sim {
namespace {

class CollectingSink final : public WatchSink {
 public:
  void deliver(std::shared_ptr<const std::string> line) override {
    events.push_back(Json::parse(*line));
  }
  std::vector<std::string> types() const {
    std::vector<std::string> out;
    for (const Json& event : events) out.push_back(event["type"]);
    return out;
  }
  std::vector<Json> events;
};

const ServedResource& configMaps() { return *findResource("", "v1", "configmaps"); }

Json configMap(const std::string& name, StringMap labels = {}) {
  Json object = {{"metadata", {{"name", name}}}, {"data", {{"k", "v"}}}};
  if (!labels.empty()) object["metadata"]["labels"] = labels;
  return object;
}

class MemberStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(store_.create(namespaceResource(), "", {{"metadata", {{"name", "ns"}}}}, false).code,
              201);
  }
  MemberStore store_{"member1", /*history_limit=*/3};
};

TEST_F(MemberStoreTest, AWatchFromBeforeTheKeptHistoryIsGone) {
  const std::string from = std::to_string(store_.resourceVersion());
  for (const char* name : {"a", "b", "c", "d"}) {
    ASSERT_EQ(store_.create(configMaps(), "ns", configMap(name), false).code, 201);
  }
  auto sink = std::make_shared<CollectingSink>();
  auto started = store_.watch(configMaps(), "ns", {}, from, sink);
  ASSERT_TRUE(std::holds_alternative<Reply>(started));
  const Reply& gone = std::get<Reply>(started);
  EXPECT_EQ(gone.code, 410);
  EXPECT_EQ(gone.body["reason"], "Expired");

  // From within the history: the kept changes after it.
  const std::string recent = std::to_string(store_.resourceVersion() - 2);
  auto replayed = store_.watch(configMaps(), "ns", {}, recent, sink);
  ASSERT_TRUE(std::holds_alternative<WatchId>(replayed));
  EXPECT_EQ(sink->types(), (std::vector<std::string>{"ADDED", "ADDED"}));
  EXPECT_EQ(objectName(sink->events[1]["object"]), "d");
}

TEST_F(MemberStoreTest, ABookmarkIsSentOnlyWhenTheResourceChangedSinceTheWatchStarted) {
  auto sink = std::make_shared<CollectingSink>();
  const std::string from = std::to_string(store_.resourceVersion());
  const WatchId id = std::get<WatchId>(store_.watch(configMaps(), "ns", {}, from, sink));
  store_.bookmark(id);
  EXPECT_TRUE(sink->events.empty());
  ASSERT_EQ(store_.create(configMaps(), "ns", configMap("a"), false).code, 201);
  store_.bookmark(id);
  ASSERT_EQ(sink->types(), (std::vector<std::string>{"ADDED", "BOOKMARK"}));
  EXPECT_EQ(sink->events[1]["object"]["metadata"]["resourceVersion"],
            sink->events[0]["object"]["metadata"]["resourceVersion"]);
  store_.stopWatch(id);
  ASSERT_EQ(store_.create(configMaps(), "ns", configMap("b"), false).code, 201);
  EXPECT_EQ(sink->events.size(), 2u) << "a stopped watch hears nothing";
}

TEST_F(MemberStoreTest, DeletingANamespaceRemovesWhatItHoldsThenItself) {
  Json held = configMap("held");
  held["metadata"]["finalizers"] = {"example.com/hold"};
  ASSERT_EQ(store_.create(configMaps(), "ns", configMap("plain"), false).code, 201);
  ASSERT_EQ(store_.create(configMaps(), "ns", held, false).code, 201);

  const Reply terminating = store_.remove(namespaceResource(), "", "ns", nullptr, false);
  EXPECT_EQ(terminating.code, 200);
  EXPECT_EQ(terminating.body["status"]["phase"], "Terminating");
  EXPECT_EQ(store_.get(configMaps(), "ns", "plain").code, 404);
  EXPECT_TRUE(hasDeletionTimestamp(store_.get(configMaps(), "ns", "held").body));
  EXPECT_EQ(store_.get(namespaceResource(), "", "ns").code, 200) << "held by the finalizer";

  ASSERT_EQ(store_
                .patch(configMaps(), "ns", "held", {{"metadata", {{"finalizers", nullptr}}}}, false,
                       false)
                .code,
            200);
  EXPECT_EQ(store_.get(configMaps(), "ns", "held").code, 404);
  EXPECT_EQ(store_.get(namespaceResource(), "", "ns").code, 404);
}

TEST(MemberStoreObserverTest, SeesEveryStoredChangeOnceInOrderAndNothingElse) {
  std::vector<std::string> seen;
  MemberStore store("member7", 100, [&](const WriteRecord& write) {
    seen.push_back(write.member + " " + write.resource.plural + " " + objectName(write.object) +
                   " " + std::to_string(static_cast<int>(write.type)));
  });
  ASSERT_EQ(store.create(namespaceResource(), "", {{"metadata", {{"name", "ns"}}}}, false).code,
            201);
  const Reply created = store.create(configMaps(), "ns", configMap("a"), false);
  ASSERT_EQ(created.code, 201);
  EXPECT_EQ(store.update(configMaps(), "ns", "a", created.body, false, false).code, 200);
  EXPECT_EQ(store.create(configMaps(), "ns", configMap("a"), false).code, 409);
  EXPECT_EQ(store.create(configMaps(), "ns", configMap("b"), /*dry_run=*/true).code, 201);
  EXPECT_EQ(store.remove(configMaps(), "ns", "a", nullptr, false).code, 200);
  EXPECT_EQ(seen, (std::vector<std::string>{"member7 namespaces ns 0", "member7 configmaps a 0",
                                            "member7 configmaps a 2"}));
}

TEST(SelectorsTest, ParsesTheLabelSelectorGrammar) {
  auto parsed = parseLabelSelector("a=b, c!=d,e,!f, g in (x, y),h notin (z),i==j");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed.value().requirements.size(), 7u);
  EXPECT_TRUE(parsed.value().matches({{"a", "b"}, {"e", ""}, {"g", "y"}, {"i", "j"}}));
  EXPECT_FALSE(parsed.value().matches({{"a", "b"}, {"e", ""}, {"g", "y"}, {"i", "j"}, {"f", "1"}}));
  EXPECT_FALSE(parsed.value().matches({{"a", "b"}, {"e", ""}, {"g", "q"}, {"i", "j"}}));
  for (const char* bad : {"a===b", "a in x", "a in (x", "!", "a b", "a>1", "bad key=x"}) {
    auto refused = parseLabelSelector(bad);
    EXPECT_FALSE(refused) << bad;
    if (!refused) continue;
    EXPECT_EQ(refused.error().reason, Reason::kBadRequest) << bad;
    EXPECT_TRUE(refused.error().message.starts_with("unable to parse requirement: ")) << bad;
  }
  EXPECT_TRUE(parseLabelSelector("")) << "an empty selector selects everything";
}

TEST(ContinueTokenTest, RoundTripsAndRefusesWhatItDidNotWrite) {
  const std::string token = encodeContinueToken({42, "ns/name"});
  EXPECT_EQ(token.find_first_of("+/="), std::string::npos) << "base64url without padding";
  auto decoded = decodeContinueToken(token);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded.value().resource_version, 42u);
  EXPECT_EQ(decoded.value().start_after, "ns/name");
  auto garbage = decodeContinueToken("garbage");
  ASSERT_FALSE(garbage);
  EXPECT_EQ(garbage.error().reason, Reason::kBadRequest);
}

}  // namespace
}  // namespace kf::sim
