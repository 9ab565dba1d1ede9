// Events written by ApiEventRecorder to a real host API server and read back through the API.

#include <gtest/gtest.h>

#include "federation/client/resource_client.h"
#include "federation/events/api_event_recorder.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

constexpr char kComponent[] = "events-test-controller";

// The events of `ns` about the object named `name`.
std::vector<Json> eventsAbout(RestClient& client, const std::string& ns, const std::string& name) {
  ResourceClient events(client, kEvents, ns);
  auto listed = events.list({.field_selector = "involvedObject.name=" + name});
  EXPECT_TRUE(listed) << listed.error().describe();
  return listed ? listed.value().items : std::vector<Json>{};
}

const Json* withReason(const std::vector<Json>& events, const std::string& reason) {
  for (const Json& event : events) {
    if (event.value("reason", "") == reason) return &event;
  }
  return nullptr;
}

class EventsTest : public ::testing::Test {
 protected:
  std::unique_ptr<RestClient> host_ = LocalClusters::get().client("host");
  TestNamespace namespace_{*host_, "events"};
};

// Verifies events about a ConfigMap land in its namespace with reason, type, involvedObject and
// source, and that a repeat of the same event becomes count 2 on the same Event.
TEST_F(EventsTest, RecordsEventsOnAConfigMapAndAggregatesRepeats) {
  // 1. A ConfigMap to talk about.
  ResourceClient config_maps(*host_, kConfigMaps, namespace_.name());
  auto created = config_maps.create({{"apiVersion", "v1"},
                                     {"kind", "ConfigMap"},
                                     {"metadata", {{"name", "subject"}}},
                                     {"data", {{"k", "v"}}}});
  ASSERT_TRUE(created) << created.error().describe();
  const ObjectReference subject = referenceTo(created.value());

  // 2. Two identical warnings and one normal event, written before stop() returns.
  ApiEventRecorder recorder(*host_, kComponent, "integration-host", realClock());
  recorder.event(subject, EventType::kWarning, "ClusterNotReady", "Cluster not ready");
  recorder.event(subject, EventType::kWarning, "ClusterNotReady", "Cluster not ready");
  recorder.event(subject, EventType::kNormal, "CreateInCluster", "Creating ConfigMap");
  recorder.stop();
  EXPECT_EQ(recorder.stats().created, 2u);
  EXPECT_EQ(recorder.stats().patched, 1u);
  EXPECT_EQ(recorder.stats().failed, 0u);

  // 3. Read them back from the API.
  const std::vector<Json> events = eventsAbout(*host_, namespace_.name(), "subject");
  ASSERT_EQ(events.size(), 2u);
  const Json* warning = withReason(events, "ClusterNotReady");
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ((*warning)["type"], "Warning");
  EXPECT_EQ((*warning)["message"], "Cluster not ready");
  EXPECT_EQ((*warning)["count"], 2);
  EXPECT_EQ((*warning)["involvedObject"]["kind"], "ConfigMap");
  EXPECT_EQ((*warning)["involvedObject"]["name"], "subject");
  EXPECT_EQ((*warning)["involvedObject"]["namespace"], namespace_.name());
  EXPECT_EQ((*warning)["involvedObject"]["uid"], objectUid(created.value()));
  EXPECT_EQ((*warning)["involvedObject"]["apiVersion"], "v1");
  EXPECT_EQ((*warning)["source"]["component"], kComponent);
  EXPECT_EQ((*warning)["source"]["host"], "integration-host");
  EXPECT_EQ((*warning)["reportingComponent"], kComponent);
  EXPECT_TRUE(objectName(*warning).starts_with("subject."));
  EXPECT_FALSE((*warning).value("firstTimestamp", "").empty());
  EXPECT_FALSE((*warning).value("lastTimestamp", "").empty());

  const Json* normal = withReason(events, "CreateInCluster");
  ASSERT_NE(normal, nullptr);
  EXPECT_EQ((*normal)["type"], "Normal");
  EXPECT_EQ((*normal)["count"], 1);
}

// Verifies an event about a cluster-scoped object (a Namespace) is written to "default".
TEST_F(EventsTest, ClusterScopedObjectEventsLandInDefault) {
  ResourceClient namespaces(*host_, kNamespaces);
  auto object = namespaces.get(namespace_.name());
  ASSERT_TRUE(object) << object.error().describe();

  ApiEventRecorder recorder(*host_, kComponent, "integration-host", realClock());
  recorder.event(referenceTo(object.value()), EventType::kNormal, "Observed", "namespace seen");
  recorder.stop();

  const std::vector<Json> events = eventsAbout(*host_, "default", namespace_.name());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["involvedObject"]["kind"], "Namespace");
  EXPECT_EQ(events[0]["reason"], "Observed");
  ResourceClient default_events(*host_, kEvents, "default");
  EXPECT_TRUE(default_events.remove(objectName(events[0])));  // leave "default" as found
}

}  // namespace
}  // namespace kf::integration
