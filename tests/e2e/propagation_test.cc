// Propagation end to end: the controller-manager binary as a process, members joined with
// `kubefedctl join`, types enabled with `kubefedctl enable`, federated objects written to the
// host, and what the member API servers hold checked directly.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "federation/client/resource_client.h"
#include "federation/metrics/sample_parse.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/e2e/member_writes.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

struct TypeCase {
  std::string enable_name;  // kubefedctl enable NAME
  GroupVersionResource target;
  std::string kind;
  Json template_v1;
  Json template_v2;
  // Reads the field that differs between template_v1 and template_v2.
  std::function<Json(const Json&)> probe;
};

GroupVersionResource federatedOf(const TypeCase& t) {
  // FederatedNamespace lives in the namespace it describes.
  const bool namespaced = t.target.namespaced || t.kind == "Namespace";
  return {"types.kubefed.io", "v1beta1", "federated" + t.target.resource, namespaced};
}

Json at(const Json& object, const Json::json_pointer& pointer) {
  return object.contains(pointer) ? object.at(pointer) : Json();
}

std::vector<TypeCase> typeCases() {
  auto field = [](std::string pointer) {
    return [p = Json::json_pointer(pointer)](const Json& o) { return at(o, p); };
  };
  Json pod_template = {
      {"metadata", {{"labels", {{"app", "e2e"}}}}},
      {"spec",
       {{"restartPolicy", "Never"}, {"containers", {{{"name", "c"}, {"image", "busybox:1.36"}}}}}}};
  Json deployment_template = pod_template;
  deployment_template["spec"].erase("restartPolicy");
  return {
      {"configmaps",
       {"", "v1", "configmaps", true},
       "ConfigMap",
       {{"data", {{"key", "v1"}}}},
       {{"data", {{"key", "v2"}}}},
       field("/data/key")},
      {"secrets",
       {"", "v1", "secrets", true},
       "Secret",
       {{"type", "Opaque"}, {"data", {{"key", "djE="}}}},
       {{"type", "Opaque"}, {"data", {{"key", "djI="}}}},
       field("/data/key")},
      {"services",
       {"", "v1", "services", true},
       "Service",
       {{"spec",
         {{"selector", {{"app", "e2e"}}}, {"ports", {{{"port", 80}, {"protocol", "TCP"}}}}}}},
       {{"spec",
         {{"selector", {{"app", "e2e"}}}, {"ports", {{{"port", 81}, {"protocol", "TCP"}}}}}}},
       field("/spec/ports/0/port")},
      {"serviceaccounts",
       {"", "v1", "serviceaccounts", true},
       "ServiceAccount",
       {{"automountServiceAccountToken", false}},
       {{"automountServiceAccountToken", true}},
       field("/automountServiceAccountToken")},
      {"deployments.apps",
       {"apps", "v1", "deployments", true},
       "Deployment",
       {{"spec",
         {{"replicas", 1},
          {"selector", {{"matchLabels", {{"app", "e2e"}}}}},
          {"template", deployment_template}}}},
       {{"spec",
         {{"replicas", 2},
          {"selector", {{"matchLabels", {{"app", "e2e"}}}}},
          {"template", deployment_template}}}},
       field("/spec/replicas")},
      // A Job's generated selector is immutable and not retained: a manual selector keeps
      // template updates valid.
      {"jobs.batch",
       {"batch", "v1", "jobs", true},
       "Job",
       {{"spec",
         {{"manualSelector", true},
          {"parallelism", 1},
          {"selector", {{"matchLabels", {{"app", "e2e"}}}}},
          {"template", pod_template}}}},
       {{"spec",
         {{"manualSelector", true},
          {"parallelism", 2},
          {"selector", {{"matchLabels", {{"app", "e2e"}}}}},
          {"template", pod_template}}}},
       field("/spec/parallelism")},
      {"namespaces",
       {"", "v1", "namespaces", false},
       "Namespace",
       {{"metadata", {{"labels", {{"e2e", "v1"}}}}}},
       {{"metadata", {{"labels", {{"e2e", "v2"}}}}}},
       field("/metadata/labels/e2e")},
      {"clusterroles.rbac.authorization.k8s.io",
       {"rbac.authorization.k8s.io", "v1", "clusterroles", false},
       "ClusterRole",
       {{"rules", {{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get"}}}}}},
       {{"rules", {{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"list"}}}}}},
       field("/rules/0/verbs/0")},
  };
}

std::string uniqueName(const std::string& prefix) {
  static int counter = 0;
  return prefix + "-" + std::to_string(::getpid() % 10000) + "-" + std::to_string(++counter);
}

bool managed(const Json& object) {
  return at(object, Json::json_pointer("/metadata/labels/kubefed.io~1managed")) == "true";
}

// A federation of the test's own: KubeFed namespace, KubeFedConfig with short delays, the
// controller manager as a process, member1 and member2 joined (and the host, as a member of
// itself, under `host_member` when it is not empty), every type enabled.
class Federation : public E2EFederation {
 public:
  explicit Federation(const std::string& host_member = "")
      : E2EFederation(
            {.prefix = host_member.empty() ? "kf-e2e" : "kf-e2e-host", .host_member = host_member}),
        host_member_(host_member) {
    EXPECT_EQ(ensureKubeFedCrds(), "");
    auto config = createKubeFedConfig();
    EXPECT_TRUE(config) << config.error().describe();
    EXPECT_TRUE(startManager()) << manager().log();
    EXPECT_EQ(joinMembers(), "");
    std::vector<std::string> types;
    for (const auto& t : typeCases()) types.push_back(t.enable_name);
    EXPECT_EQ(enableTypes(types), "");
    // The workload namespace is in every joined cluster through its FederatedNamespace (the
    // host's own, which exists already, is adopted: it gains the managed label).
    createFederated({"types.kubefed.io", "v1beta1", "federatednamespaces", true}, workNamespace(),
                    workNamespace(), Json::object(), memberNames());
    for (const std::string& name : memberNames()) {
      ResourceClient namespaces(member(name), kNamespaces);
      EXPECT_TRUE(eventually(
          [&] {
            auto got = namespaces.get(workNamespace());
            return got && managed(got.value());
          },
          seconds(60)))
          << "namespace " << workNamespace() << " never reached " << name << "\n"
          << manager().log();
    }
  }

  // Whether `cluster` is the host joined as a member of itself.
  bool isHost(const std::string& cluster) const {
    return !host_member_.empty() && cluster == host_member_;
  }

  // The federated object, with an override of `overridden`'s annotations.
  Json federatedObject(const GroupVersionResource& resource, const std::string& name,
                       const std::string& ns, const Json& template_json,
                       const std::vector<std::string>& placed, const std::string& overridden) {
    Json clusters = Json::array();
    for (const auto& c : placed) clusters.push_back({{"name", c}});
    Json metadata = {{"name", name}};
    if (resource.namespaced) metadata["namespace"] = ns;
    return {
        {"apiVersion", "types.kubefed.io/v1beta1"},
        {"metadata", metadata},
        {"spec",
         {{"template", template_json},
          {"placement", {{"clusters", clusters}}},
          {"overrides",
           {{{"clusterName", overridden},
             {"clusterOverrides",
              {{{"path", "/metadata/annotations"}, {"value", {{"override", overridden}}}}}}}}}}}};
  }

  void createFederated(const GroupVersionResource& resource, const std::string& name,
                       const std::string& ns, const Json& template_json,
                       const std::vector<std::string>& placed,
                       const std::string& overridden = "member1") {
    Json object = federatedObject(resource, name, ns, template_json, placed, overridden);
    object["kind"] = kindOf(resource);
    ResourceClient client(host(), resource, ns);
    auto created = client.create(object);
    ASSERT_TRUE(created) << created.error().describe();
  }

  static std::string kindOf(const GroupVersionResource& federated) {
    static const std::map<std::string, std::string> kinds = {
        {"federatedconfigmaps", "FederatedConfigMap"},
        {"federatedsecrets", "FederatedSecret"},
        {"federatedservices", "FederatedService"},
        {"federatedserviceaccounts", "FederatedServiceAccount"},
        {"federateddeployments", "FederatedDeployment"},
        {"federatedjobs", "FederatedJob"},
        {"federatednamespaces", "FederatedNamespace"},
        {"federatedclusterroles", "FederatedClusterRole"}};
    return kinds.at(federated.resource);
  }

 private:
  const std::string host_member_;
};

// One federation for the suite: starting the manager, joining and enabling take a while.
// `kHostJoinedAs` is the cluster name the host is joined under, "" for not joined.
template <const char* kHostJoinedAs>
class FederationSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { federation_ = new Federation(kHostJoinedAs); }
  static void TearDownTestSuite() {
    delete federation_;
    federation_ = nullptr;
  }
  Federation& federation() { return *federation_; }

 private:
  static inline Federation* federation_ = nullptr;
};

constexpr char kHostNotJoined[] = "";
constexpr char kHostMember[] = "host";
using PropagationE2ETest = FederationSuite<kHostNotJoined>;
// KubeFed's usual deployment (and its own CI's layout): the host joined as a member of itself, so
// its own namespaces hold the member objects too. Only the tests whose paths differ when a member
// is the host run here (CI time is tight): the propagation of every type with its
// deletion (the host's own Namespace is adopted and only ever unlabeled, never deleted) and the
// deletion of a namespace holding federated objects (a host namespace being deleted counts as
// removed). A hand edit put back, an offline member and a restart of the controller manager take
// the same per-cluster paths whichever cluster the member is (and the host cannot go offline
// without the control plane), so they run in the layout above only.
using PropagationWithTheHostJoinedE2ETest = FederationSuite<kHostMember>;

// The member object, or null when it does not exist (or is being deleted).
Json memberObject(RestClient& member, const GroupVersionResource& resource, const std::string& ns,
                  const std::string& name) {
  ResourceClient client(member, resource, resource.namespaced ? ns : "");
  auto got = client.get(name);
  if (!got) return Json();
  if (got.value()["metadata"].contains("deletionTimestamp")) return Json();
  return got.value();
}

// Every type: placed in `first` only (with `first`'s override), updated, moved to `second`,
// deleted, then placed in both and deleted with the orphaning annotation. When one of them is the
// host joined as a member of itself, the host's own Namespace (the template's namespace, created
// by the test as users do) is adopted when placed and only unlabeled when unplaced or deleted:
// KubeFed never deletes a namespace of the host.
void expectEveryTypeFollowsTemplatePlacementOverridesAndDeletion(Federation& fed,
                                                                 const std::string& first,
                                                                 const std::string& second) {
  for (const auto& t : typeCases()) {
    SCOPED_TRACE(t.enable_name);
    const GroupVersionResource federated = federatedOf(t);
    const bool is_namespace = t.kind == "Namespace";
    const std::string name = uniqueName("e2e-" + t.target.resource);
    if (is_namespace) {
      ResourceClient host_namespaces(fed.host(), kNamespaces);
      ASSERT_TRUE(host_namespaces.create(
          {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}}));
    }
    const std::string ns = is_namespace ? name : fed.workNamespace();
    auto in = [&](const std::string& cluster, const std::string& object_name) {
      return memberObject(fed.member(cluster), t.target, ns, object_name);
    };
    auto placed_in = [&](const std::string& cluster, const std::string& object_name) {
      const Json object = in(cluster, object_name);
      return !object.is_null() && managed(object);
    };
    // What a cluster holds of an object not (or no longer) placed there.
    auto unplaced_in = [&](const std::string& cluster, const std::string& object_name) {
      const Json object = in(cluster, object_name);
      if (is_namespace && fed.isHost(cluster)) return !object.is_null() && !managed(object);
      return object.is_null();
    };
    auto unplaced_everywhere_but = [&](const std::string& placed) {
      for (const std::string& cluster : fed.memberNames()) {
        if (cluster != placed && !unplaced_in(cluster, name)) return false;
      }
      return true;
    };
    ResourceClient federated_client(fed.host(), federated, federated.namespaced ? ns : "");

    // Placed in `first` only, with its override.
    fed.createFederated(federated, name, ns, t.template_v1, {first}, first);
    ASSERT_TRUE(eventually([&] { return placed_in(first, name); }, seconds(60)))
        << fed.manager().log();
    Json object = in(first, name);
    EXPECT_EQ(at(object, Json::json_pointer("/metadata/annotations/override")), first);
    EXPECT_EQ(t.probe(object), t.probe(t.template_v1));
    EXPECT_TRUE(unplaced_everywhere_but(first));

    // A template update reaches the member.
    // (JSON patches: the controller writes the object's status and finalizer meanwhile, so a
    // read-modify-update could conflict.)
    auto replace = [&](const std::string& path, const Json& value) {
      Json patch = Json::array({{{"op", "replace"}, {"path", path}, {"value", value}}});
      auto patched = federated_client.patch(name, PatchType::kJson, patch.dump());
      EXPECT_TRUE(patched) << patched.error().describe();
    };
    replace("/spec/template", t.template_v2);
    EXPECT_TRUE(
        eventually([&] { return t.probe(in(first, name)) == t.probe(t.template_v2); }, seconds(60)))
        << in(first, name).dump();

    // Moving it to `second` removes it from `first`.
    replace("/spec/placement/clusters", Json::array({{{"name", second}}}));
    EXPECT_TRUE(eventually(
        [&] { return placed_in(second, name) && unplaced_everywhere_but(second); }, seconds(60)))
        << fed.manager().log();
    EXPECT_EQ(at(in(second, name), Json::json_pointer("/metadata/annotations/override")), Json());

    // Deleting it removes it everywhere and the finalizer lets the federated object go.
    ASSERT_TRUE(federated_client.remove(name));
    EXPECT_TRUE(eventually(
        [&] {
          auto gone = federated_client.get(name);
          return !gone && isNotFound(gone.error()) && unplaced_everywhere_but("");
        },
        seconds(60)))
        << fed.manager().log();

    // With the orphaning annotation the member objects stay, without the managed label.
    const std::string orphan = is_namespace ? name : name + "-orphan";
    if (is_namespace) {
      // The namespace was deleted in the members above (not in the host: there it was only
      // unlabeled); it is created anew once gone.
      EXPECT_TRUE(eventually(
          [&] {
            for (const std::string& cluster : fed.memberNames()) {
              if (fed.isHost(cluster)) continue;
              ResourceClient member_namespaces(fed.member(cluster), kNamespaces);
              auto gone = member_namespaces.get(name);
              if (gone || !isNotFound(gone.error())) return false;
            }
            return true;
          },
          seconds(90)));
    }
    fed.createFederated(federated, orphan, ns, t.template_v1, {first, second}, first);
    ASSERT_TRUE(eventually([&] { return placed_in(first, orphan) && placed_in(second, orphan); },
                           seconds(60)))
        << fed.manager().log();
    ASSERT_TRUE(federated_client.patch(
        orphan, PatchType::kMerge, R"({"metadata":{"annotations":{"kubefed.io/orphan":"true"}}})"));
    ASSERT_TRUE(federated_client.remove(orphan));
    EXPECT_TRUE(eventually(
        [&] {
          auto gone = federated_client.get(orphan);
          if (gone || !isNotFound(gone.error())) return false;
          for (const std::string& cluster : {first, second}) {
            Json kept = in(cluster, orphan);
            if (kept.is_null() || managed(kept)) return false;
          }
          return true;
        },
        seconds(60)))
        << fed.manager().log();
  }
}

TEST_F(PropagationE2ETest, EveryTypeFollowsTemplatePlacementOverridesAndDeletion) {
  expectEveryTypeFollowsTemplatePlacementOverridesAndDeletion(federation(), "member1", "member2");
}

// The host first: created in its own namespaces (its own Namespace adopted), then moved away
// (deleted there, its Namespace only unlabeled).
TEST_F(PropagationWithTheHostJoinedE2ETest, EveryTypeFollowsTemplatePlacementOverridesAndDeletion) {
  expectEveryTypeFollowsTemplatePlacementOverridesAndDeletion(federation(), kHostMember, "member1");
}

// Deleting a host namespace that holds a FederatedNamespace placed in every cluster (the host's
// own namespace included) and a federated object finishes: the namespace goes from the host and
// from the members, nothing stays Terminating behind a sync finalizer.
TEST_F(PropagationWithTheHostJoinedE2ETest, DeletingANamespaceWithFederatedObjectsFinishes) {
  Federation& fed = federation();
  const GroupVersionResource federated_namespaces{"types.kubefed.io", "v1beta1",
                                                  "federatednamespaces", true};
  const GroupVersionResource federated_configmaps{"types.kubefed.io", "v1beta1",
                                                  "federatedconfigmaps", true};
  const GroupVersionResource configmaps{"", "v1", "configmaps", true};
  const std::string name = uniqueName("e2e-gone");
  ResourceClient host_namespaces(fed.host(), kNamespaces);
  ASSERT_TRUE(host_namespaces.create(
      {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}}));
  fed.createFederated(federated_namespaces, name, name, Json::object(), fed.memberNames());
  fed.createFederated(federated_configmaps, name, name, {{"data", {{"key", "v"}}}},
                      fed.memberNames());
  ASSERT_TRUE(eventually(
      [&] {
        for (const std::string& cluster : fed.memberNames()) {
          if (!managed(memberObject(fed.member(cluster), kNamespaces, "", name)) ||
              !managed(memberObject(fed.member(cluster), configmaps, name, name))) {
            return false;
          }
        }
        return true;
      },
      seconds(90)))
      << fed.manager().log();

  ASSERT_TRUE(host_namespaces.remove(name));
  auto gone_from = [&](const std::string& cluster) {
    auto found = ResourceClient(fed.member(cluster), kNamespaces).get(name);
    return !found && isNotFound(found.error());
  };
  // What is left: the federated objects' metadata, each cluster's namespace (with its status: the
  // conditions say what its deletion waits for) and what the controller manager logged of them.
  auto left_over = [&] {
    std::string left;
    for (const auto& resource : {federated_namespaces, federated_configmaps}) {
      auto object = ResourceClient(fed.host(), resource, name).get(name);
      if (object) left += resource.resource + ": " + object.value()["metadata"].dump() + "\n";
    }
    for (const std::string& cluster : fed.memberNames()) {
      auto found = ResourceClient(fed.member(cluster), kNamespaces).get(name);
      if (!found) continue;
      left += cluster + " namespace: " + found.value()["metadata"].dump() + " " +
              found.value().value("status", Json::object()).dump() + "\n";
    }
    std::istringstream log(fed.manager().log());
    for (std::string line; std::getline(log, line);) {
      if (line.find(name) != std::string::npos) left += line + "\n";
    }
    return left;
  };
  EXPECT_TRUE(eventually(
      [&] {
        const auto& clusters = fed.memberNames();
        return std::all_of(clusters.begin(), clusters.end(), gone_from);
      },
      seconds(120)))
      << "left:\n"
      << left_over();
}

// The value of `metric` with exactly these labels in a metrics text; nullopt if absent.
std::optional<double> sampleOf(const std::string& text, const std::string& metric,
                               const std::map<std::string, std::string, std::less<>>& labels) {
  for (const auto& sample : metrics::samplesNamed(text, metric)) {
    if (sample.labels == labels) return sample.value;
  }
  return std::nullopt;
}

// host[:port] of a client's server URL: the host label of rest_client_requests_total.
std::string hostOf(const RestClient& client) {
  std::string server = client.config().server;
  server = server.substr(server.find("://") + 3);
  return server.substr(0, server.find('/'));
}

// After a FederatedConfigMap was propagated to member1: the series KubeFed's controller manager
// exports from client-go through controller-runtime, with plausible values.
void expectClientGoMetrics(Federation& fed) {
  const std::string text = httpGet(servedPort(fed.manager(), "/metrics"), "/metrics");
  const std::string queue = "federatedconfigmap";
  EXPECT_GE(sampleOf(text, "workqueue_adds_total", {{"name", queue}}).value_or(0), 1) << text;
  EXPECT_GE(sampleOf(text, "workqueue_queue_duration_seconds_count", {{"name", queue}}).value_or(0),
            1);
  EXPECT_TRUE(sampleOf(text, "workqueue_queue_duration_seconds_bucket",
                       {{"name", queue}, {"le", "1e-08"}}));
  const auto work_count =
      sampleOf(text, "workqueue_work_duration_seconds_count", {{"name", queue}});
  EXPECT_GE(work_count.value_or(0), 1);
  // Every reconcile took some time, and none of them a minute.
  const double work_sum =
      sampleOf(text, "workqueue_work_duration_seconds_sum", {{"name", queue}}).value_or(0);
  EXPECT_GT(work_sum, 0);
  EXPECT_LT(work_sum, 60 * work_count.value_or(1));
  EXPECT_GE(sampleOf(text, "workqueue_unfinished_work_seconds", {{"name", queue}}).value_or(-1), 0);
  EXPECT_GE(
      sampleOf(text, "workqueue_longest_running_processor_seconds", {{"name", queue}}).value_or(-1),
      0);

  const std::string member1 = hostOf(fed.member("member1"));
  EXPECT_GE(sampleOf(text, "rest_client_requests_total",
                     {{"code", "201"}, {"host", member1}, {"method", "POST"}})
                .value_or(0),
            1)
      << "the ConfigMap created in member1";
  EXPECT_GE(sampleOf(text, "rest_client_requests_total",
                     {{"code", "200"}, {"host", hostOf(fed.host())}, {"method", "GET"}})
                .value_or(0),
            1);
  const auto create_latency =
      sampleOf(text, "rest_client_request_latency_seconds_count",
               {{"url", fed.member("member1").config().server +
                            "/api/v1/namespaces/%7Bnamespace%7D/configmaps"},
                {"verb", "POST"}});
  EXPECT_GE(create_latency.value_or(0), 1) << text;
}

TEST_F(PropagationE2ETest, AMemberObjectChangedOrDeletedByHandIsPutBack) {
  Federation& fed = federation();
  const GroupVersionResource federated{"types.kubefed.io", "v1beta1", "federatedconfigmaps", true};
  const GroupVersionResource configmaps{"", "v1", "configmaps", true};
  const std::string ns = fed.workNamespace();
  const std::string name = uniqueName("e2e-by-hand");
  fed.createFederated(federated, name, ns, {{"data", {{"key", "wanted"}}}}, {"member1"});
  ResourceClient member(fed.member("member1"), configmaps, ns);
  auto value = [&]() -> Json {
    auto got = member.get(name);
    return got ? at(got.value(), Json::json_pointer("/data/key")) : Json();
  };
  ASSERT_TRUE(eventually([&] { return value() == "wanted"; }, seconds(60))) << fed.manager().log();
  expectClientGoMetrics(fed);

  ASSERT_TRUE(member.patch(name, PatchType::kMerge, R"({"data":{"key":"edited by hand"}})"));
  EXPECT_TRUE(eventually([&] { return value() == "wanted"; }, seconds(60))) << fed.manager().log();

  ASSERT_TRUE(member.remove(name));
  EXPECT_TRUE(eventually([&] { return value() == "wanted"; }, seconds(60))) << fed.manager().log();
}

// The summary of a federated object's status: "<True|False>[:reason] member1[=status] ...".
std::string propagationSummary(const Json& object) {
  std::string out;
  const Json& status = object.value("status", Json::object());
  for (const auto& c : status.value("conditions", Json::array())) {
    if (c.value("type", "") != "Propagation") continue;
    out = c.value("status", "");
    if (!c.value("reason", "").empty()) out += ":" + c.value("reason", "");
  }
  std::vector<std::string> clusters;
  for (const auto& c : status.value("clusters", Json::array())) {
    clusters.push_back(c.value("name", "") +
                       (c.value("status", "").empty() ? "" : "=" + c.value("status", "")));
  }
  std::sort(clusters.begin(), clusters.end());
  for (const auto& c : clusters) out += " " + c;
  return out;
}

TEST_F(PropagationE2ETest, AnOfflineMemberIsReportedAndConvergesWhenItReturns) {
  Federation& fed = federation();
  const GroupVersionResource federated{"types.kubefed.io", "v1beta1", "federatedconfigmaps", true};
  const GroupVersionResource configmaps{"", "v1", "configmaps", true};
  const std::string ns = fed.workNamespace();
  const std::string name = uniqueName("e2e-offline");
  ResourceClient federated_client(fed.host(), federated, ns);
  struct Restart {
    ~Restart() { LocalClusters::get().script("start member2"); }
  } restart_member2;
  ASSERT_EQ(LocalClusters::get().script("stop member2"), 0);
  fed.createFederated(federated, name, ns, {{"data", {{"key", "v"}}}}, {"member1", "member2"});
  auto summary = [&] {
    auto object = federated_client.get(name);
    return object ? propagationSummary(object.value()) : object.error().describe();
  };
  EXPECT_TRUE(
      eventually([&] { return summary() == "False:CheckClusters member1 member2=ClusterNotReady"; },
                 seconds(60)))
      << summary() << "\n"
      << fed.manager().log().substr(0, 3000);
  EXPECT_TRUE(static_cast<bool>(ResourceClient(fed.member("member1"), configmaps, ns).get(name)));

  ASSERT_EQ(LocalClusters::get().script("start member2"), 0);
  EXPECT_TRUE(eventually([&] { return summary() == "True member1 member2"; }, seconds(90)))
      << summary();
  EXPECT_TRUE(static_cast<bool>(ResourceClient(fed.member("member2"), configmaps, ns).get(name)));
}

// reconcile_federated_resources_duration_seconds_count of a process: reconciles that found a
// federated object. nullopt when /metrics cannot be read or lacks it.
std::optional<long> reconcileCount(const ChildProcess& process) {
  const std::string metrics = httpGet(servedPort(process, "/metrics"), "/metrics");
  static const std::regex count_pattern(
      "reconcile_federated_resources_duration_seconds_count ([0-9]+)");
  std::smatch count;
  if (!std::regex_search(metrics, count, count_pattern)) return std::nullopt;
  return std::stol(count[1].str());
}

// Both members' ConfigMap writes (member_writes.h); nullopt when either cannot be read.
std::optional<long> memberConfigMapWrites(Federation& fed) {
  const auto member1 = writesCounted(fed.member("member1"), "configmaps");
  const auto member2 = writesCounted(fed.member("member2"), "configmaps");
  if (!member1 || !member2) return std::nullopt;
  return *member1 + *member2;
}

// Whether `count` reaches `at_least` and then stays the same for `quiet` (read again and again)
// before `deadline`: the work it counts is over, requeues included, as long as `quiet` is longer
// than any requeue delay. Unreadable counts never settle.
bool settles(const std::function<std::optional<long>()>& count, long at_least,
             std::chrono::milliseconds quiet, std::chrono::seconds deadline) {
  std::optional<long> last;
  auto last_change = std::chrono::steady_clock::now();
  return eventually(
      [&] {
        const std::optional<long> now = count();
        if (!now || *now < at_least) {
          last.reset();
          return false;
        }
        if (now != last) {
          last = now;
          last_change = std::chrono::steady_clock::now();
          return false;
        }
        return std::chrono::steady_clock::now() - last_change >= quiet;
      },
      deadline);
}

// Whether each of `names` reports Propagation=True for its current generation.
bool allPropagated(ResourceClient& federated, const std::vector<std::string>& names) {
  auto listed = federated.listAll({});
  if (!listed) return false;
  std::set<std::string> done;
  for (const auto& object : listed.value().items) {
    for (const auto& c :
         object.value("status", Json::object()).value("conditions", Json::array())) {
      if (c.value("type", "") == "Propagation" && c.value("status", "") == "True" &&
          object["status"].value("observedGeneration", 0) ==
              object["metadata"].value("generation", -1)) {
        done.insert(objectName(object));
      }
    }
  }
  return std::all_of(names.begin(), names.end(),
                     [&](const std::string& n) { return done.count(n) == 1; });
}

// The member writes the controller decided for the federated objects `names` of `ns`: the counts
// of their CreateInCluster, UpdateInCluster and DeleteInCluster events (recorded before each
// write). Unlike the members' request counters, nothing else on the shared clusters (an earlier
// suite's namespaces being deleted, its orphans released) adds to them. -1 when unreadable.
long controllerWritesFor(RestClient& host, const std::string& ns,
                         const std::vector<std::string>& names) {
  auto events = ResourceClient(host, kEvents, ns).listAll({});
  if (!events) return -1;
  static const std::set<std::string> kWriteReasons = {"CreateInCluster", "UpdateInCluster",
                                                      "DeleteInCluster"};
  long total = 0;
  for (const Json& event : events.value().items) {
    const std::string object = event["involvedObject"].value("name", "");
    if (std::find(names.begin(), names.end(), object) == names.end()) continue;
    if (kWriteReasons.contains(event.value("reason", ""))) total += event.value("count", 1L);
  }
  return total;
}

// The writes of both members' `verb`s other than DELETE that `after` counted more than `before`
// (writesByVerbAndCode). Deletes are left out: deleting an earlier suite's namespace on the shared
// clusters deletes its ConfigMaps too, and this controller's own deletes show in its events.
long nonDeleteWritesAdded(const std::map<std::string, long>& before,
                          const std::map<std::string, long>& after) {
  long added = 0;
  for (const auto& [key, count] : after) {
    if (key.rfind("DELETE ", 0) == 0) continue;
    const auto earlier = before.find(key);
    added += count - (earlier == before.end() ? 0 : earlier->second);
  }
  return added;
}

TEST_F(PropagationE2ETest, RestartingTheControllerManagerWritesNothingToTheMembers) {
  Federation& fed = federation();
  const GroupVersionResource federated{"types.kubefed.io", "v1beta1", "federatedconfigmaps", true};
  const std::string ns = fed.workNamespace();
  constexpr int kObjects = 500;
  ResourceClient federated_client(fed.host(), federated, ns);
  std::vector<std::string> names;
  for (int i = 0; i < kObjects; ++i) {
    names.push_back(uniqueName("e2e-noop"));
    fed.createFederated(federated, names.back(), ns, {{"data", {{"index", std::to_string(i)}}}},
                        {"member1", "member2"});
  }
  ASSERT_TRUE(eventually([&] { return allPropagated(federated_client, names); }, seconds(300)))
      << fed.manager().log().substr(0, 5000);

  const std::optional<long> before = memberConfigMapWrites(fed);
  ASSERT_TRUE(before) << "the members' metrics cannot be read";
  ASSERT_GE(*before, 2 * kObjects) << "the members did not count the creates";
  const auto member1_before = writesByVerbAndCode(fed.member("member1"), "configmaps");
  const auto member2_before = writesByVerbAndCode(fed.member("member2"), "configmaps");
  ASSERT_TRUE(member1_before && member2_before) << "the members' metrics cannot be read";
  const long events_before = controllerWritesFor(fed.host(), ns, names);
  // Not compared with the creates: a burst of 1,000 may overflow the recorder's queue.
  ASSERT_GE(events_before, 0) << "the controller's write events cannot be read";
  EXPECT_EQ(fed.stopManager().value_or(-1), 0) << fed.manager().log();
  ASSERT_TRUE(fed.startManager()) << fed.manager().log();
  // Every federated object of the workload namespace reconciled at least once by the new process,
  // and every requeue done: KubeFed requeues an object whose member caches were not synced yet
  // after the cluster-available delay (1 s here), so the count stays still for 5 s first.
  std::optional<long> first_complete;  // the count when it first reached kObjects
  const auto count = [&] {
    const std::optional<long> now = reconcileCount(fed.manager());
    if (now && *now >= kObjects && !first_complete) first_complete = now;
    return now;
  };
  EXPECT_TRUE(settles(count, kObjects, seconds(5), seconds(300)))
      << "reconciles: " << reconcileCount(fed.manager()).value_or(-1) << "\n"
      << fed.manager().log().substr(0, 5000);
  std::printf("reconciles after the restart: %ld when they first reached %d, %ld once settled\n",
              first_complete.value_or(-1), kObjects, reconcileCount(fed.manager()).value_or(-1));
  const std::optional<long> after = memberConfigMapWrites(fed);
  const auto member1_after = writesByVerbAndCode(fed.member("member1"), "configmaps");
  const auto member2_after = writesByVerbAndCode(fed.member("member2"), "configmaps");
  ASSERT_TRUE(after && member1_after && member2_after) << "the members' metrics cannot be read";
  std::printf(
      "member ConfigMap writes while restarting the controller manager with %d propagated "
      "federated ConfigMaps: %ld (member1 %s; member2 %s)\n",
      kObjects, *after - *before, writesAdded(*member1_before, *member1_after).c_str(),
      writesAdded(*member2_before, *member2_after).c_str());
  EXPECT_EQ(nonDeleteWritesAdded(*member1_before, *member1_after) +
                nonDeleteWritesAdded(*member2_before, *member2_after),
            0);
  const long events_after = controllerWritesFor(fed.host(), ns, names);
  ASSERT_GE(events_after, 0) << "the controller's write events cannot be read";
  EXPECT_EQ(events_after - events_before, 0) << "the controller wrote to the members again";
}

// Verifies that a controller manager stopped (SIGTERM) as soon as its objects converged, again and
// again, writes nothing to the members after each restart: no version record is lost at the
// stop, and the new process does not act before it knows every member cluster (a pass that saw
// none dropped the recorded versions, and the members were written again once they were known).
TEST_F(PropagationE2ETest, ARestartRightAfterConvergenceWritesNothingToTheMembers) {
  Federation& fed = federation();
  const GroupVersionResource federated{"types.kubefed.io", "v1beta1", "federatedconfigmaps", true};
  const std::string ns = fed.workNamespace();
  ResourceClient federated_client(fed.host(), federated, ns);
  std::vector<std::string> names;
  for (int i = 0; i < 3; ++i) {
    names.push_back(uniqueName("e2e-quick-restart"));
    fed.createFederated(federated, names.back(), ns, {{"data", {{"index", std::to_string(i)}}}},
                        {"member1", "member2"});
  }
  constexpr int kRestarts = 5;
  for (int restart = 1; restart <= kRestarts; ++restart) {
    ASSERT_TRUE(eventually([&] { return allPropagated(federated_client, names); }, seconds(60)))
        << fed.manager().log().substr(0, 5000);
    // The creates' events are recorded before the writes; the count is read once it is still.
    long before = -1;
    ASSERT_TRUE(settles(
        [&]() -> std::optional<long> {
          before = controllerWritesFor(fed.host(), ns, names);
          return before >= 0 ? std::optional<long>(before) : std::nullopt;
        },
        static_cast<long>(names.size()) * 2, seconds(1), seconds(30)))
        << "the creates' events: " << before;
    const std::optional<long> member_requests_before = memberConfigMapWrites(fed);
    EXPECT_EQ(fed.stopManager().value_or(-1), 0) << fed.manager().log();
    ASSERT_TRUE(fed.startManager()) << fed.manager().log();
    // Every object reconciled by the new process, and its requeues over (the cluster-available
    // delay is 1 s here; a pass that saw no cluster requeues after it).
    EXPECT_TRUE(settles([&] { return reconcileCount(fed.manager()); },
                        static_cast<long>(names.size()), seconds(3), seconds(60)))
        << fed.manager().log().substr(0, 5000);
    const long after = controllerWritesFor(fed.host(), ns, names);
    const std::optional<long> member_requests_after = memberConfigMapWrites(fed);
    std::printf("restart %d: member ConfigMap writes of every client on the shared clusters: %ld\n",
                restart,
                member_requests_before && member_requests_after
                    ? *member_requests_after - *member_requests_before
                    : -1L);
    EXPECT_EQ(after - before, 0) << "member writes for these objects after restart " << restart
                                 << " of " << kRestarts;
  }
}

}  // namespace
}  // namespace kf::integration
