// Bad input that the CRD schemas let through (issue 12 item 6), against the controller-manager
// binary with both members joined: a placement naming a cluster that is not joined, overrides
// with a bad op, a forbidden path and a value the member rejects, a template the member rejects,
// a federated object near the API server's 1.5 MiB limit, names at the length limits, and a
// federated type whose target CRD is deleted in a member while objects exist. Each gets a clear
// per-cluster reason and an Event, a well-formed object created after them still reaches both
// members, and the process keeps running without spinning.

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {
// A namespace of its own: in a unity build this file shares a translation unit with other tests.
namespace bad_input {

using std::chrono::seconds;

const GroupVersionResource kWidgets{"faults.kubefed.io", "v1", "widgets", true};
const GroupVersionResource kFederatedWidgets{"types.kubefed.io", "v1beta1", "federatedwidgets",
                                             true};
constexpr const char* kWidgetCrdName = "widgets.faults.kubefed.io";

// CPU seconds (user + system) a process has used, from /proc/PID/stat.
double cpuSeconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // The command may hold spaces: the fields after it start two characters past its ')'.
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  long utime = 0;
  long stime = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) utime = std::stol(field);
    if (i == 15) {
      stime = std::stol(field);
      break;
    }
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

Json widgetCrd() {
  return Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.faults.kubefed.io"},
    "spec": {"group": "faults.kubefed.io", "scope": "Namespaced",
             "names": {"plural": "widgets", "singular": "widget", "kind": "Widget",
                       "listKind": "WidgetList"},
             "versions": [{"name": "v1", "served": true, "storage": true,
                           "schema": {"openAPIV3Schema": {"type": "object",
                             "x-kubernetes-preserve-unknown-fields": true}}}]}})");
}

class BadInputE2ETest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    federation_ = std::make_unique<E2EFederation>(E2EFederationOptions{.prefix = "kf-bad-input"});
    for (const std::string cluster : {"host", "member1", "member2"}) {
      ASSERT_NO_FATAL_FAILURE(ensureWidgetCrd(cluster));
    }
    auto config = fed().createKubeFedConfig();
    ASSERT_TRUE(config) << config.error().describe();
    ASSERT_TRUE(fed().startManager()) << fed().manager().log();
    ASSERT_EQ(fed().joinMembers(), "");
    ASSERT_EQ(fed().enableTypes({"namespaces", "configmaps", kWidgetCrdName}), "");
    ASSERT_NO_FATAL_FAILURE(createFederated(kFederatedNamespaces, "FederatedNamespace", work(),
                                            Json::object(), {"member1", "member2"}));
    ASSERT_TRUE(eventually(
        [&] {
          return ResourceClient(member("member1"), kNamespaces).get(work()) &&
                 ResourceClient(member("member2"), kNamespaces).get(work());
        },
        seconds(60)))
        << fed().manager().log();
  }

  void TearDown() override {
    if (!federation_) return;
    if (HasFailure() && fed().hasManager()) {
      std::cerr << "controller manager log:\n" << fed().manager().log();
    }
    fed().shutDown();
    (void)ResourceClient(host(), kCrds).remove("federatedwidgets.types.kubefed.io");
    for (const std::string name : {"host", "member1", "member2"}) {
      (void)ResourceClient(cluster(name), kCrds).remove(kWidgetCrdName);
    }
  }

  E2EFederation& fed() { return *federation_; }
  RestClient& host() { return fed().host(); }
  const std::string& work() const { return federation_->workNamespace(); }
  RestClient& member(const std::string& name) { return fed().member(name); }
  RestClient& cluster(const std::string& name) { return name == "host" ? host() : member(name); }

  void ensureWidgetCrd(const std::string& name) {
    ResourceClient crds(cluster(name), kCrds);
    auto created = crds.create(widgetCrd());
    ASSERT_TRUE(created || isAlreadyExists(created.error())) << created.error().describe();
    ASSERT_TRUE(eventually([&] {
      auto crd = crds.get(kWidgetCrdName);
      return crd && isEstablished(crd.value());
    }));
  }

  void createFederated(const GroupVersionResource& resource, const std::string& kind,
                       const std::string& name, const Json& template_json,
                       const std::vector<std::string>& placed, const Json& overrides = nullptr) {
    Json clusters = Json::array();
    for (const auto& c : placed) clusters.push_back({{"name", c}});
    Json spec = {{"template", template_json}, {"placement", {{"clusters", clusters}}}};
    if (!overrides.is_null()) spec["overrides"] = overrides;
    auto created = ResourceClient(host(), resource, work())
                       .create({{"apiVersion", "types.kubefed.io/v1beta1"},
                                {"kind", kind},
                                {"metadata", {{"name", name}, {"namespace", work()}}},
                                {"spec", spec}});
    ASSERT_TRUE(created) << name << ": " << created.error().describe();
  }

  void createConfigMap(const std::string& name, const Json& data,
                       const std::vector<std::string>& placed, const Json& overrides = nullptr) {
    createFederated(kFederatedConfigMaps, "FederatedConfigMap", name, {{"data", data}}, placed,
                    overrides);
  }

  // "<cluster>=<status>" for every cluster entry of the federated object's status, sorted, after
  // the Propagation condition ("True" or "False:<reason>").
  std::string summary(const GroupVersionResource& resource, const std::string& name) {
    auto object = ResourceClient(host(), resource, work()).get(name);
    if (!object) return object.error().describe();
    const Json& status = object.value().value("status", Json::object());
    std::string out;
    for (const auto& c : status.value("conditions", Json::array())) {
      if (c.value("type", "") != "Propagation") continue;
      out = c.value("status", "");
      if (!c.value("reason", "").empty()) out += ":" + c.value("reason", "");
    }
    std::vector<std::string> entries;
    for (const auto& c : status.value("clusters", Json::array())) {
      entries.push_back(c.value("name", "") +
                        (c.value("status", "").empty() ? "" : "=" + c.value("status", "")));
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& e : entries) out += " " + e;
    return out;
  }

  bool reaches(const std::string& expected, const GroupVersionResource& resource,
               const std::string& name) {
    return eventually([&] { return summary(resource, name) == expected; }, seconds(90));
  }

  // The Warning Events on a federated object: "<reason>: <message>" each.
  std::vector<std::string> warnings(const std::string& name) {
    ListOptions options;
    options.field_selector = "involvedObject.name=" + name + ",type=Warning";
    auto listed = ResourceClient(host(), kEvents, work()).listAll(options);
    std::vector<std::string> out;
    if (!listed) return out;
    for (const auto& event : listed.value().items) {
      out.push_back(event.value("reason", "") + ": " + event.value("message", ""));
    }
    return out;
  }
  // Whether a Warning Event with `reason` whose message contains `text` exists on `name`.
  bool warned(const std::string& name, const std::string& reason, const std::string& text) {
    return eventually(
        [&] {
          for (const auto& w : warnings(name)) {
            if (w.rfind(reason + ": ", 0) == 0 && w.find(text) != std::string::npos) return true;
          }
          return false;
        },
        seconds(60));
  }
  std::string warningsText(const std::string& name) {
    std::string out;
    for (const auto& w : warnings(name)) out += "\n  " + w;
    return out;
  }

  bool inMember(const std::string& member_name, const std::string& name,
                const GroupVersionResource& resource = kConfigMaps) {
    return static_cast<bool>(ResourceClient(member(member_name), resource, work()).get(name));
  }

  std::unique_ptr<E2EFederation> federation_;
};

TEST_F(BadInputE2ETest, EachGetsAReasonAndAnEventWhileOthersFlow) {
  // 1. A placement naming a cluster that is not joined: ignored as in KubeFed, with a warning;
  // the joined one gets the object.
  ASSERT_NO_FATAL_FAILURE(createConfigMap("unknown-cluster", {{"k", "v"}}, {"member1", "nowhere"}));
  EXPECT_TRUE(reaches("True member1", kFederatedConfigMaps, "unknown-cluster"))
      << summary(kFederatedConfigMaps, "unknown-cluster");
  EXPECT_TRUE(warned("unknown-cluster", "ClusterNotFound", "\"nowhere\", not joined"))
      << warningsText("unknown-cluster");
  EXPECT_TRUE(inMember("member1", "unknown-cluster"));

  // 2. Overrides: an op that cannot apply for member1 (the schema allows only add, remove and
  // replace: a remove of a field the object lacks), a forbidden path for member2.
  ASSERT_NO_FATAL_FAILURE(
      createConfigMap("bad-op", {{"k", "v"}}, {"member1", "member2"},
                      {{{"clusterName", "member1"},
                        {"clusterOverrides", {{{"op", "remove"}, {"path", "/data/missing"}}}}}}));
  EXPECT_TRUE(reaches("False:CheckClusters member1=ApplyOverridesFailed member2",
                      kFederatedConfigMaps, "bad-op"))
      << summary(kFederatedConfigMaps, "bad-op");
  EXPECT_TRUE(warned("bad-op", "CreateInClusterFailed", "remove /data/missing"))
      << warningsText("bad-op");
  EXPECT_TRUE(inMember("member2", "bad-op"));
  EXPECT_FALSE(inMember("member1", "bad-op"));

  ASSERT_NO_FATAL_FAILURE(createConfigMap(
      "bad-path", {{"k", "v"}}, {"member1", "member2"},
      {{{"clusterName", "member2"},
        {"clusterOverrides", {{{"path", "/metadata/name"}, {"value", "renamed"}}}}}}));
  // As in KubeFed, overrides that cannot be read (a forbidden path) fail every cluster.
  EXPECT_TRUE(
      reaches("False:CheckClusters member1=ApplyOverridesFailed member2=ApplyOverridesFailed",
              kFederatedConfigMaps, "bad-path"))
      << summary(kFederatedConfigMaps, "bad-path");
  EXPECT_TRUE(warned("bad-path", "CreateInClusterFailed", "invalid path: /metadata/name"))
      << warningsText("bad-path");

  // 3. A value the member rejects (ConfigMap data must be strings), and a template it rejects.
  ASSERT_NO_FATAL_FAILURE(createConfigMap(
      "bad-value", {{"k", "v"}}, {"member1", "member2"},
      {{{"clusterName", "member1"},
        {"clusterOverrides", {{{"path", "/data/k"}, {"value", {{"not", "a string"}}}}}}}}));
  EXPECT_TRUE(reaches("False:CheckClusters member1=CreationFailed member2", kFederatedConfigMaps,
                      "bad-value"))
      << summary(kFederatedConfigMaps, "bad-value");
  EXPECT_TRUE(warned("bad-value", "CreateInClusterFailed", "member1")) << warningsText("bad-value");

  ASSERT_NO_FATAL_FAILURE(
      createConfigMap("bad-template", {{"not a valid key!", "v"}}, {"member1", "member2"}));
  EXPECT_TRUE(reaches("False:CheckClusters member1=CreationFailed member2=CreationFailed",
                      kFederatedConfigMaps, "bad-template"))
      << summary(kFederatedConfigMaps, "bad-template");
  EXPECT_TRUE(warned("bad-template", "CreateInClusterFailed", "not a valid key!"))
      << warningsText("bad-template");

  // 4. Near the request limit: 1.4 MiB of data is a valid federated object in the host (etcd
  // takes 1.5 MiB) but more than a member's ConfigMap may hold (1 MiB).
  ASSERT_NO_FATAL_FAILURE(
      createConfigMap("huge", {{"blob", std::string(1400 * 1024, 'x')}}, {"member1", "member2"}));
  EXPECT_TRUE(reaches("False:CheckClusters member1=CreationFailed member2=CreationFailed",
                      kFederatedConfigMaps, "huge"))
      << summary(kFederatedConfigMaps, "huge");
  EXPECT_TRUE(warned("huge", "CreateInClusterFailed", "1048576")) << warningsText("huge");

  // 5. Names at the limit: 253 characters of a DNS subdomain with dots, digits and dashes.
  std::string long_name = "0.a-b.";
  while (long_name.size() < 252) long_name += "9-z.";
  long_name = long_name.substr(0, 252) + "e";
  ASSERT_EQ(long_name.size(), 253u);
  ASSERT_NO_FATAL_FAILURE(createConfigMap(long_name, {{"k", "v"}}, {"member1", "member2"}));
  EXPECT_TRUE(reaches("True member1 member2", kFederatedConfigMaps, long_name))
      << summary(kFederatedConfigMaps, long_name) << warningsText(long_name);
  EXPECT_TRUE(inMember("member1", long_name) && inMember("member2", long_name));

  // 6. The target CRD goes away in member1 while a FederatedWidget exists.
  ASSERT_NO_FATAL_FAILURE(createFederated(kFederatedWidgets, "FederatedWidget", "widget",
                                          {{"spec", {{"size", 1}}}}, {"member1", "member2"}));
  ASSERT_TRUE(reaches("True member1 member2", kFederatedWidgets, "widget"))
      << summary(kFederatedWidgets, "widget");
  ASSERT_TRUE(ResourceClient(member("member1"), kCrds).remove(kWidgetCrdName));
  ASSERT_TRUE(eventually([&] {
    auto gone = ResourceClient(member("member1"), kCrds).get(kWidgetCrdName);
    return !gone && isNotFound(gone.error());
  }));
  ASSERT_NO_FATAL_FAILURE(createFederated(kFederatedWidgets, "FederatedWidget", "widget-after",
                                          {{"spec", {{"size", 2}}}}, {"member1", "member2"}));
  EXPECT_TRUE(
      eventually([&] { return inMember("member2", "widget-after", kWidgets); }, seconds(90)))
      << summary(kFederatedWidgets, "widget-after");
  EXPECT_TRUE(reaches("False:CheckClusters member1=CreationFailed member2", kFederatedWidgets,
                      "widget-after"))
      << summary(kFederatedWidgets, "widget-after") << warningsText("widget-after");
  EXPECT_TRUE(warned("widget-after", "CreateInClusterFailed", "member1"))
      << warningsText("widget-after");

  // 7. Meanwhile a well-formed object flows to both members, and the process is the same one,
  // idle once the work is done.
  ASSERT_NO_FATAL_FAILURE(createConfigMap("well-formed", {{"k", "v"}}, {"member1", "member2"}));
  EXPECT_TRUE(reaches("True member1 member2", kFederatedConfigMaps, "well-formed"))
      << summary(kFederatedConfigMaps, "well-formed");
  ASSERT_TRUE(fed().manager().running()) << fed().manager().log();
  // Failed objects are retried with backoff (5 s doubling to 60 s). Over a quiet interval the
  // process uses little CPU, and writes nothing to the objects that did propagate (the one with
  // the longest name has no PropagatedVersion: "configmap-" + 253 characters is too long a name).
  auto versionOf = [&](const std::string& name) {
    auto object = ResourceClient(member("member1"), kConfigMaps, work()).get(name);
    return object ? object.value()["metadata"].value("resourceVersion", "") : std::string();
  };
  const std::string long_name_version = versionOf(long_name);
  const std::string well_formed_version = versionOf("well-formed");
  // Unread versions would compare equal below whatever happened.
  ASSERT_FALSE(long_name_version.empty()) << "no " << long_name << " in member1";
  ASSERT_FALSE(well_formed_version.empty()) << "no well-formed in member1";
  const double before = cpuSeconds(fed().manager().pid());
  const auto start = std::chrono::steady_clock::now();
  ASSERT_FALSE(eventually([&] { return !fed().manager().running(); }, seconds(10)));
  const double used = cpuSeconds(fed().manager().pid()) - before;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("controller manager CPU over %.1f s with the bad objects present: %.2f s\n", wall,
              used);
  EXPECT_LT(used, 0.25 * wall) << "the controller manager spins";
  EXPECT_EQ(versionOf(long_name), long_name_version) << "rewritten while nothing changed";
  EXPECT_EQ(versionOf("well-formed"), well_formed_version) << "rewritten while nothing changed";
}

}  // namespace bad_input
}  // namespace
}  // namespace kf::integration
