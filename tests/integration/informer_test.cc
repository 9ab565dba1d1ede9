// Informers against real kube-apiservers: kubectl changes, server restarts, etcd compaction.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "federation/client/resource_client.h"
#include "federation/informer/informer_manager.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/thread_annotations.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using namespace std::chrono_literals;

struct Recorded {
  std::string type;  // add, update, delete, delete-unknown
  std::string name;
  std::string value;
};

// Records what the informer delivers, for assertions from the test thread.
class RecordingHandler final : public EventHandler {
 public:
  void onAdd(const ObjectPtr& object, bool) override { record("add", *object); }
  void onUpdate(const ObjectPtr&, const ObjectPtr& object) override { record("update", *object); }
  void onDelete(const DeletedObject& deleted) override {
    record(deleted.final_state_unknown ? "delete-unknown" : "delete", *deleted.last_known);
  }

  bool saw(const std::string& type, const std::string& name, const std::string& value = "") {
    MutexLock lock(mu_);
    return std::any_of(events_.begin(), events_.end(), [&](const Recorded& e) {
      return e.type == type && e.name == name && (value.empty() || e.value == value);
    });
  }
  std::vector<Recorded> events() {
    MutexLock lock(mu_);
    return events_;
  }

 private:
  void record(const std::string& type, const Json& object) {
    std::string value;
    if (object.contains("data") && object["data"].contains("key")) {
      value = object["data"]["key"].get<std::string>();
    }
    MutexLock lock(mu_);
    events_.push_back({type, objectName(object), value});
  }

  Mutex mu_;
  std::vector<Recorded> events_ KF_GUARDED_BY(mu_);
};

// Forwards to the real list/watch, but lets the test hold the watch down: pause() ends the
// current watch and blocks new ones until resume(), like a long network partition.
class PausableListerWatcher final : public ListerWatcher {
 public:
  explicit PausableListerWatcher(ListerWatcherPtr inner) : inner_(std::move(inner)) {}

  Result<ObjectList> list(const ListOptions& options) override {
    lists_.fetch_add(1);
    return inner_->list(options);
  }
  Result<WatchPtr> watch(const ListOptions& options) override {
    {
      MutexLock lock(mu_);
      while (paused_) resumed_.wait(lock.native());
    }
    KF_TRY(watch, inner_->watch(options));
    auto shared = std::shared_ptr<Watch>(std::move(watch));
    MutexLock lock(mu_);
    current_ = shared;
    if (paused_) shared->stop();  // pause() came while this watch was being opened
    return WatchPtr(std::make_unique<Forwarding>(shared));
  }

  void pause() {
    std::shared_ptr<Watch> current;
    {
      MutexLock lock(mu_);
      paused_ = true;
      current = current_.lock();
    }
    if (current) current->stop();
  }
  void resume() {
    {
      MutexLock lock(mu_);
      paused_ = false;
    }
    resumed_.notify_all();
  }
  int lists() const { return lists_.load(); }

 private:
  class Forwarding final : public Watch {
   public:
    explicit Forwarding(std::shared_ptr<Watch> inner) : inner_(std::move(inner)) {}
    Result<std::optional<WatchEvent>> next() override { return inner_->next(); }
    void consume(WatchConsumer consumer) override { inner_->consume(std::move(consumer)); }
    void stop() override { inner_->stop(); }

   private:
    std::shared_ptr<Watch> inner_;
  };

  ListerWatcherPtr inner_;
  std::atomic<int> lists_{0};
  Mutex mu_;
  std::condition_variable resumed_;
  bool paused_ KF_GUARDED_BY(mu_) = false;
  std::weak_ptr<Watch> current_ KF_GUARDED_BY(mu_);
};

Json namedObject(const std::string& kind, const std::string& name, const std::string& value) {
  Json object = {{"apiVersion", "v1"}, {"kind", kind}, {"metadata", {{"name", name}}}};
  if (kind == "ConfigMap") {
    object["data"] = {{"key", value}};
  } else {
    object["metadata"]["labels"] = {{"value", value}};
    object["template"] = {{"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  }
  return object;
}

// name -> resourceVersion, of the informer's cache and of the server.
std::map<std::string, std::string> versionsOf(const std::vector<ObjectPtr>& objects) {
  std::map<std::string, std::string> versions;
  for (const auto& object : objects) versions[objectName(*object)] = objectResourceVersion(*object);
  return versions;
}
std::map<std::string, std::string> versionsOf(const std::vector<Json>& objects) {
  std::map<std::string, std::string> versions;
  for (const auto& object : objects) versions[objectName(object)] = objectResourceVersion(object);
  return versions;
}

TEST(InformerTest, SeesCreateUpdateAndDeleteMadeWithKubectl) {
  auto& clusters = LocalClusters::get();
  auto client = clusters.client("member1");
  TestNamespace ns(*client, "informer");
  SharedInformer informer(makeListerWatcher(*client, kConfigMaps, ns.name(), "", ""), realClock());
  auto handler = std::make_shared<RecordingHandler>();
  informer.addEventHandler(handler);
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::steady_clock::now() + 30s));

  const std::string in_ns = " -n " + ns.name();
  ASSERT_EQ(clusters.kubectl("member1", "create configmap seen --from-literal=key=one" + in_ns), 0);
  EXPECT_TRUE(eventually([&] { return handler->saw("add", "seen", "one"); }));

  ASSERT_EQ(clusters.kubectl("member1",
                             "patch configmap seen --type=merge -p "
                             "'{\"data\":{\"key\":\"two\"}}'" +
                                 in_ns),
            0);
  EXPECT_TRUE(eventually([&] { return handler->saw("update", "seen", "two"); }));
  ASSERT_NE(informer.store().get(ns.name() + "/seen"), nullptr);
  EXPECT_EQ((*informer.store().get(ns.name() + "/seen"))["data"]["key"], "two");

  ASSERT_EQ(clusters.kubectl("member1", "delete configmap seen" + in_ns), 0);
  EXPECT_TRUE(eventually([&] { return handler->saw("delete", "seen"); }));
  EXPECT_EQ(informer.store().get(ns.name() + "/seen"), nullptr);
  informer.stop();
}

TEST(InformerTest, WatchSurvivesApiServerStopAndRestart) {
  auto& clusters = LocalClusters::get();
  auto client = clusters.client("member2");
  TestNamespace ns(*client, "restart");
  ResourceClient configmaps(*client, kConfigMaps, ns.name());
  ASSERT_TRUE(configmaps.create(namedObject("ConfigMap", "before", "1")));

  SharedInformer informer(makeListerWatcher(*client, kConfigMaps, ns.name(), "", ""), realClock());
  auto handler = std::make_shared<RecordingHandler>();
  informer.addEventHandler(handler);
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::steady_clock::now() + 30s));
  // Handlers run on their own thread: synced means the cache is filled, not that they have run.
  ASSERT_TRUE(eventually([&] { return handler->saw("add", "before"); }));

  ASSERT_EQ(clusters.script("stop member2"), 0);
  ASSERT_EQ(clusters.script("start member2"), 0);

  auto created = configmaps.create(namedObject("ConfigMap", "after", "2"));
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_TRUE(eventually([&] { return handler->saw("add", "after", "2"); }, 90s))
      << "the informer did not resume watching after the API server came back";
  auto server = configmaps.listAll({});
  ASSERT_TRUE(server);
  EXPECT_TRUE(eventually(
      [&] { return versionsOf(informer.store().list()) == versionsOf(server.value().items); }));
  informer.stop();
}

TEST(InformerTest, RelistsAfterCompactionAndEndsWithExactlyTheServersObjects) {
  auto& clusters = LocalClusters::get();
  auto client = clusters.client("member1");
  TestNamespace ns(*client, "compaction");
  ResourceClient templates(*client, kPodTemplates, ns.name());
  for (const char* name : {"keep", "change", "remove"}) {
    ASSERT_TRUE(templates.create(namedObject("PodTemplate", name, "v1")));
  }

  auto pausable = std::make_unique<PausableListerWatcher>(
      makeListerWatcher(*client, kPodTemplates, ns.name(), "", ""));
  PausableListerWatcher& lister = *pausable;
  SharedInformer informer(std::move(pausable), realClock());
  auto handler = std::make_shared<RecordingHandler>();
  informer.addEventHandler(handler);
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::steady_clock::now() + 30s));
  // The first list may come from the API server's cache, a few milliseconds behind the
  // creates; the watch delivers the rest.
  ASSERT_TRUE(eventually([&] { return informer.store().size() == 3u; }));
  const int lists_before = lister.lists();

  // While the informer cannot watch: change, delete and add objects, then compact etcd past
  // the revision the informer last saw.
  lister.pause();
  auto changed = templates.get("change").value();
  changed["metadata"]["labels"]["value"] = "v2";
  ASSERT_TRUE(templates.update(changed));
  ASSERT_TRUE(templates.remove("remove"));
  ASSERT_TRUE(templates.create(namedObject("PodTemplate", "added", "v1")));
  ASSERT_EQ(clusters.script("compact"), 0);
  lister.resume();

  auto server = templates.listAll({});
  ASSERT_TRUE(server);
  EXPECT_TRUE(eventually([&] {
    return versionsOf(informer.store().list()) == versionsOf(server.value().items);
  })) << "the cache does not match the server after the re-list";
  EXPECT_GT(lister.lists(), lists_before) << "the informer never re-listed";
  EXPECT_TRUE(eventually([&] { return handler->saw("delete-unknown", "remove"); }))
      << "a delete missed while disconnected must arrive as final-state-unknown";
  EXPECT_TRUE(eventually([&] { return handler->saw("add", "added"); }));
  EXPECT_TRUE(eventually([&] { return handler->saw("update", "change"); }));
  int adds_of_keep = 0;
  for (const auto& event : handler->events())
    adds_of_keep += event.type == "add" && event.name == "keep";
  EXPECT_EQ(adds_of_keep, 1) << "an unchanged object was delivered as new again";
  informer.stop();
}

TEST(InformerTest, ManagerSharesOneInformerPerKeyOnARealCluster) {
  auto& clusters = LocalClusters::get();
  auto client = clusters.client("host");
  TestNamespace ns(*client, "manager");
  std::atomic<int> created{0};
  InformerManager manager(
      [&](const InformerKey& key) {
        created.fetch_add(1);
        return makeListerWatcher(*client, key.resource, key.namespace_name, key.label_selector,
                                 key.field_selector);
      },
      realClock());
  const InformerKey key{"host", kConfigMaps, ns.name(), "", ""};
  auto first = manager.acquire(key);
  auto second = manager.acquire(key);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(&first.value().informer(), &second.value().informer());
  EXPECT_EQ(created.load(), 1);
  ASSERT_TRUE(first.value()->waitForSync(std::chrono::steady_clock::now() + 30s));

  ResourceClient configmaps(*client, kConfigMaps, ns.name());
  ASSERT_TRUE(configmaps.create(namedObject("ConfigMap", "shared", "x")));
  EXPECT_TRUE(
      eventually([&] { return second.value()->store().get(ns.name() + "/shared") != nullptr; }));

  first.value().release();
  EXPECT_EQ(manager.liveInformerCount(), 1u);
  second.value().release();
  EXPECT_EQ(manager.liveInformerCount(), 0u);
}

}  // namespace
}  // namespace kf::integration
