// The simulated member against a real kube-apiserver: lists and watches, as the controller
// manager's informers use them (see member_conformance_objects_test.cc).

#include <gtest/gtest.h>

#include "tests/integration/member_conformance.h"

namespace kf::integration::conformance {
namespace {

class MemberWatchConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  Member& member_ = memberNamed(GetParam() == "simulated" ? "simulated" : "kube-apiserver");
  Http http_{member_};

  // The resourceVersion of a list of `path`: where a watch of what follows starts.
  std::string listVersion(const std::string& path) {
    const Answer list = http_.get(path);
    EXPECT_EQ(list.code, 200) << list.text;
    return list.body["metadata"].value("resourceVersion", "");
  }
};

INSTANTIATE_TEST_SUITE_P(, MemberWatchConformanceTest,
                         ::testing::Values("kube_apiserver", "simulated"),
                         [](const auto& instance) { return instance.param; });

std::string eventType(const Json& event) { return event.value("type", ""); }

// "TYPE name" of each event, for comparing sequences.
std::vector<std::string> summary(const std::vector<Json>& events) {
  std::vector<std::string> out;
  for (const Json& event : events) {
    out.push_back(eventType(event) + " " + objectName(event.value("object", Json::object())));
  }
  return out;
}

TEST_P(MemberWatchConformanceTest, AListSelectsByLabelAndOmitsItemKinds) {
  ScratchNamespace ns(http_, "select");
  for (const auto& [name, app] : {std::pair{"a", "x"}, {"b", "y"}, {"c", "x"}}) {
    ASSERT_EQ(http_.post(ns.path("secrets"), secret(name, {{"app", app}})).code, 201);
  }
  const Answer selected = http_.get(ns.path("secrets") + "?labelSelector=app%3Dx");
  ASSERT_EQ(selected.code, 200) << selected.text;
  EXPECT_EQ(selected.body["kind"], "SecretList");
  EXPECT_EQ(selected.body["apiVersion"], "v1");
  EXPECT_FALSE(selected.body["metadata"].value("resourceVersion", "").empty());
  EXPECT_EQ(itemNames(selected.body), (std::vector<std::string>{"a", "c"}));
  EXPECT_FALSE(selected.body["items"][0].contains("kind"));

  EXPECT_EQ(itemNames(http_.get(ns.path("secrets") + "?labelSelector=app+notin+(x)").body),
            std::vector<std::string>{"b"});
  EXPECT_EQ(itemNames(http_.get(ns.path("secrets") + "?labelSelector=!app").body),
            std::vector<std::string>{});
  EXPECT_EQ(itemNames(http_.get(ns.path("secrets") + "?fieldSelector=metadata.name%3Db").body),
            std::vector<std::string>{"b"});
  const Answer bad = http_.get(ns.path("secrets") + "?labelSelector=app%3D%3D%3Dx");
  EXPECT_EQ(bad.code, 400);
  EXPECT_EQ(bad.body["reason"], "BadRequest");
}

TEST_P(MemberWatchConformanceTest, AListIsPagedByLimitAndContinue) {
  ScratchNamespace ns(http_, "pages");
  for (const char* name : {"p1", "p2", "p3", "p4", "p5"}) {
    ASSERT_EQ(http_.post(ns.path("secrets"), secret(name, {{"page", "yes"}})).code, 201);
  }
  const Answer first = http_.get(ns.path("secrets") + "?limit=2");
  ASSERT_EQ(first.code, 200) << first.text;
  EXPECT_EQ(itemNames(first.body), (std::vector<std::string>{"p1", "p2"}));
  EXPECT_EQ(first.body["metadata"].value("remainingItemCount", -1), 3);
  std::vector<std::string> names = itemNames(first.body);
  std::string token = first.body["metadata"].value("continue", "");
  int pages = 1;
  while (!token.empty() && pages < 10) {
    const Answer page = http_.get(ns.path("secrets") + "?limit=2&continue=" + token);
    ASSERT_EQ(page.code, 200) << page.text;
    EXPECT_EQ(page.body["metadata"]["resourceVersion"], first.body["metadata"]["resourceVersion"]);
    for (const std::string& name : itemNames(page.body)) names.push_back(name);
    token = page.body["metadata"].value("continue", "");
    ++pages;
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"p1", "p2", "p3", "p4", "p5"}));

  // With a selector the server does not count what remains.
  const Answer selected = http_.get(ns.path("secrets") + "?limit=2&labelSelector=page%3Dyes");
  EXPECT_FALSE(selected.body["metadata"]["continue"].get<std::string>().empty());
  EXPECT_FALSE(selected.body["metadata"].contains("remainingItemCount"));
  // resourceVersion=0 is served from the watch cache, which ignores the limit.
  EXPECT_EQ(itemNames(http_.get(ns.path("secrets") + "?resourceVersion=0&limit=2").body).size(),
            5u);
  const Answer garbage = http_.get(ns.path("secrets") + "?limit=2&continue=garbage");
  EXPECT_EQ(garbage.code, 400);
  EXPECT_EQ(garbage.body["reason"], "BadRequest");
}

TEST_P(MemberWatchConformanceTest, AWatchFromAResourceVersionSeesEveryChangeAfterIt) {
  ScratchNamespace ns(http_, "watch");
  ASSERT_EQ(http_.post(ns.path("secrets"), secret("before")).code, 201);
  const std::string from = listVersion(ns.path("secrets"));
  const Answer created = http_.post(ns.path("secrets"), secret("w"));
  ASSERT_EQ(created.code, 201);
  Json changed = created.body;
  changed["data"]["key"] = "Y2hhbmdlZA==";
  ASSERT_EQ(http_.put(ns.path("secrets", "w"), changed).code, 200);
  ASSERT_EQ(http_.remove(ns.path("secrets", "w")).code, 200);

  auto watch = http_.watch(ns.path("secrets") + "?watch=true&resourceVersion=" + from);
  ASSERT_TRUE(watch);
  std::vector<Json> events;
  for (int i = 0; i < 3; ++i) {
    auto event = watch->next();
    ASSERT_TRUE(event) << "event " << i;
    events.push_back(*event);
  }
  EXPECT_EQ(summary(events), (std::vector<std::string>{"ADDED w", "MODIFIED w", "DELETED w"}));
  EXPECT_EQ(events[0]["object"]["kind"], "Secret");
  EXPECT_EQ(events[0]["object"]["apiVersion"], "v1");
  EXPECT_EQ(events[1]["object"]["data"]["key"], "Y2hhbmdlZA==");
  // The deletion's event carries the last state with the deletion's own resourceVersion.
  EXPECT_EQ(events[2]["object"]["data"]["key"], "Y2hhbmdlZA==");
  EXPECT_GT(std::stoull(objectResourceVersion(events[2]["object"])),
            std::stoull(objectResourceVersion(events[1]["object"])));
}

TEST_P(MemberWatchConformanceTest, AWatchWithoutAResourceVersionStartsWithEveryObject) {
  ScratchNamespace ns(http_, "initial");
  ASSERT_EQ(http_.post(ns.path("secrets"), secret("one")).code, 201);
  ASSERT_EQ(http_.post(ns.path("secrets"), secret("two")).code, 201);
  for (const std::string version : {"", "0"}) {
    auto watch = http_.watch(ns.path("secrets") + "?watch=true&resourceVersion=" + version);
    ASSERT_TRUE(watch);
    std::vector<Json> events;
    for (int i = 0; i < 2; ++i) {
      auto event = watch->next();
      ASSERT_TRUE(event) << "resourceVersion \"" << version << "\", event " << i;
      events.push_back(*event);
    }
    EXPECT_EQ(summary(events), (std::vector<std::string>{"ADDED one", "ADDED two"}));
  }
}

TEST_P(MemberWatchConformanceTest, ALabelSelectedWatchSeesObjectsEnterAndLeaveTheSelection) {
  ScratchNamespace ns(http_, "enter");
  const std::string from = listVersion(ns.path("configmaps"));
  auto watch =
      http_.watch(ns.path("configmaps") +
                  "?watch=true&labelSelector=kubefed.io%2Fmanaged%3Dtrue&resourceVersion=" + from);
  ASSERT_TRUE(watch);
  ASSERT_EQ(http_.post(ns.path("configmaps"), configMap("outside")).code, 201);
  ASSERT_EQ(http_
                .mergePatch(ns.path("configmaps", "outside"),
                            {{"metadata", {{"labels", {{"kubefed.io/managed", "true"}}}}}})
                .code,
            200);
  ASSERT_EQ(http_.mergePatch(ns.path("configmaps", "outside"), {{"data", {{"more", "1"}}}}).code,
            200);
  const Answer left = http_.mergePatch(
      ns.path("configmaps", "outside"),
      {{"metadata", {{"labels", {{"kubefed.io/managed", nullptr}}}}}, {"data", {{"more", "2"}}}});
  ASSERT_EQ(left.code, 200);
  EXPECT_FALSE(left.body["metadata"].contains("labels")) << "an empty map is left out";
  std::vector<Json> events;
  for (int i = 0; i < 3; ++i) {
    auto event = watch->next();
    ASSERT_TRUE(event) << "event " << i;
    events.push_back(*event);
  }
  EXPECT_EQ(summary(events),
            (std::vector<std::string>{"ADDED outside", "MODIFIED outside", "DELETED outside"}));
  // Leaving the selection is told with the object as it was before the change (still
  // selected), with the change's resourceVersion.
  const Json& gone = events[2]["object"];
  EXPECT_EQ(gone["metadata"]["labels"], Json({{"kubefed.io/managed", "true"}}));
  EXPECT_EQ(gone["data"]["more"], "1");
  EXPECT_EQ(objectResourceVersion(gone), objectResourceVersion(left.body));
}

TEST_P(MemberWatchConformanceTest, BookmarksCarryTheNewestResourceVersionWhenAsked) {
  ScratchNamespace ns(http_, "bookmarks");
  const std::string from = listVersion(ns.path("configmaps"));
  // timeoutSeconds=3: the API server sends its bookmark 2 s before the watch times out. The
  // selector leaves out kube-controller-manager's ConfigMap in the namespace.
  const std::string query =
      "?watch=true&timeoutSeconds=3&labelSelector=case%3Dbookmarks&resourceVersion=" + from;
  auto with = http_.watch(ns.path("configmaps") + query + "&allowWatchBookmarks=true");
  auto without = http_.watch(ns.path("configmaps") + query);
  ASSERT_TRUE(with && without);
  const Answer created = http_.post(ns.path("configmaps"), configMap("b", {{"case", "bookmarks"}}));
  ASSERT_EQ(created.code, 201);

  const std::vector<Json> marked = with->rest();
  const std::vector<Json> plain = without->rest();
  EXPECT_TRUE(with->ended());
  EXPECT_TRUE(without->ended());
  // The ADDED, then one bookmark or more (the API server's bookmark timer may fire twice).
  ASSERT_GE(marked.size(), 2u) << Json(marked).dump();
  EXPECT_EQ(eventType(marked[0]), "ADDED");
  for (std::size_t i = 1; i < marked.size(); ++i) {
    EXPECT_EQ(eventType(marked[i]), "BOOKMARK") << Json(marked).dump();
    const Json& bookmark = marked[i]["object"];
    EXPECT_EQ(bookmark["kind"], "ConfigMap");
    EXPECT_EQ(bookmark["apiVersion"], "v1");
    // The newest change of any ConfigMap the server has seen: ours, or a later one elsewhere.
    EXPECT_GE(std::stoull(bookmark["metadata"].value("resourceVersion", "0")),
              std::stoull(objectResourceVersion(created.body)));
  }
  EXPECT_EQ(summary(plain), std::vector<std::string>{"ADDED b"});
}

TEST_P(MemberWatchConformanceTest, AWatchFromACompactedResourceVersionIsGone) {
  ScratchNamespace ns(http_, "gone");
  const Json pod_template = {{"apiVersion", "v1"},
                             {"kind", "PodTemplate"},
                             {"template",
                              {{"metadata", {{"labels", {{"app", "t"}}}}},
                               {"spec", {{"containers", {{{"name", "c"}, {"image", "i"}}}}}}}}};
  const std::string path = ns.path("podtemplates");
  Json first = pod_template;
  first["metadata"] = {{"name", "t1"}};
  const Answer created = http_.post(path, first);
  ASSERT_EQ(created.code, 201) << created.text;
  EXPECT_EQ(objectGeneration(created.body), 1);
  for (const char* name : {"t2", "t3"}) {
    Json later = pod_template;
    later["metadata"] = {{"name", name}};
    ASSERT_EQ(http_.post(path, later).code, 201);
  }
  member_.compact();
  auto watch =
      http_.watch(path + "?watch=true&resourceVersion=" + objectResourceVersion(created.body));
  ASSERT_TRUE(watch);
  auto event = watch->next();
  ASSERT_TRUE(event);
  EXPECT_EQ(eventType(*event), "ERROR");
  EXPECT_EQ((*event)["object"]["code"], 410);
  EXPECT_EQ((*event)["object"]["reason"], "Expired");
  EXPECT_FALSE(watch->next(std::chrono::seconds(5))) << "the stream ends after the error";
}

}  // namespace
}  // namespace kf::integration::conformance
