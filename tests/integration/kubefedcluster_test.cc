// The KubeFedCluster controller in this process against real API servers: the host holds the
// KubeFedClusters and their token Secrets, the members are probed over TLS with bearer tokens.

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "controllers/kubefedcluster/kubefedcluster_controller.h"
#include "federation/client/base64.h"
#include "federation/client/resource_client.h"
#include "federation/events/api_event_recorder.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

// "https://127.0.0.1:<port>" -> "<port>"
std::string portOf(const std::string& server) { return server.substr(server.rfind(':') + 1); }

// Starts member2 again when it goes out of scope, so a failing test never leaves it stopped.
class Member2Outage {
 public:
  Member2Outage() { stopped_ = LocalClusters::get().script("stop member2") == 0; }
  ~Member2Outage() { end(); }
  Member2Outage(const Member2Outage&) = delete;
  Member2Outage& operator=(const Member2Outage&) = delete;
  bool stopped() const { return stopped_; }
  void end() {
    if (!ended_) LocalClusters::get().script("start member2");
    ended_ = true;
  }

 private:
  bool stopped_ = false;
  bool ended_ = false;
};

class KubeFedClusterIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    host_ = LocalClusters::get().client("host");
    ASSERT_NE(host_, nullptr);
    namespace_ = std::make_unique<TestNamespace>(*host_, "kubefed-clusters");
    ca_bundle_ = base64Encode(readFile(LocalClusters::get().env("KF_CA_FILE")));
    ASSERT_FALSE(ca_bundle_.empty());
    recorder_ = std::make_unique<ApiEventRecorder>(*host_, "kubefedcluster-controller", "test",
                                                   realClock());
  }

  void TearDown() override {
    if (controller_) controller_->stop();
    if (recorder_) recorder_->stop();
    for (const auto& name : clusters_) {
      (void)ResourceClient(*host_, kKubeFedClusters, ns()).remove(name);
    }
    for (const auto& name : secrets_) (void)ResourceClient(*host_, kSecrets, ns()).remove(name);
  }

  const std::string& ns() const { return namespace_->name(); }
  static std::string env(const std::string& key) { return LocalClusters::get().env(key); }

  void addSecret(const std::string& name, const std::string& token) {
    Json secret = {{"apiVersion", "v1"},
                   {"kind", "Secret"},
                   {"metadata", {{"name", name}}},
                   {"data", {{"token", base64Encode(token)}}}};
    auto created = ResourceClient(*host_, kSecrets, ns()).create(secret);
    ASSERT_TRUE(created) << created.error().describe();
    secrets_.push_back(name);
  }

  void addCluster(const std::string& name, const std::string& endpoint,
                  const std::string& ca_bundle, const std::string& secret,
                  const std::vector<std::string>& disabled_tls = {}) {
    Json spec = {{"apiEndpoint", endpoint}, {"secretRef", {{"name", secret}}}};
    if (!ca_bundle.empty()) spec["caBundle"] = ca_bundle;
    if (!disabled_tls.empty()) spec["disabledTLSValidations"] = disabled_tls;
    Json cluster = {{"apiVersion", "core.kubefed.io/v1beta1"},
                    {"kind", "KubeFedCluster"},
                    {"metadata", {{"name", name}}},
                    {"spec", spec}};
    auto created = ResourceClient(*host_, kKubeFedClusters, ns()).create(cluster);
    ASSERT_TRUE(created) << created.error().describe();
    clusters_.push_back(name);
  }

  // member1 or member2 as KubeFed would join it: endpoint, CA bundle and admin token.
  void addMember(const std::string& member) {
    const std::string key = member == "member1" ? "KF_MEMBER1" : "KF_MEMBER2";
    addSecret(member + "-secret", env(key + "_TOKEN"));
    addCluster(member, env(key + "_SERVER"), ca_bundle_, member + "-secret");
  }

  void startController() {
    KubeFedClusterControllerOptions options;
    options.kubefed_namespace = ns();
    options.period = seconds(1);
    options.timeout = seconds(1);
    options.failure_threshold = 2;
    options.success_threshold = 1;
    controller_ = std::make_unique<KubeFedClusterController>(options, *host_, registry_, *recorder_,
                                                             realClock());
    ASSERT_TRUE(controller_->start());
  }

  std::vector<core::ClusterCondition> conditions(const std::string& name) {
    auto object = ResourceClient(*host_, kKubeFedClusters, ns()).get(name);
    if (!object) return {};
    auto cluster = core::KubeFedCluster::fromJson(object.value());
    if (!cluster || !cluster.value().status) return {};
    return cluster.value().status->conditions;
  }
  std::optional<ClusterHealth> health(const std::string& name) {
    return healthOf(conditions(name));
  }
  bool becomes(const std::string& name, ClusterHealth expected) {
    return eventually([&] { return health(name) == expected; }, seconds(30));
  }
  // The message of the Offline=True condition ("" if there is none).
  std::string offlineMessage(const std::string& name) {
    for (const auto& condition : conditions(name)) {
      if (condition.type == "Offline" && condition.status == "True") {
        return condition.message.value_or("");
      }
    }
    return "";
  }
  std::string offlineReason(const std::string& name) {
    for (const auto& condition : conditions(name)) {
      if (condition.type == "Offline") return condition.reason.value_or("");
    }
    return "";
  }
  // The message of the ClusterOffline event of `name` (why it is not reachable), once written.
  std::string offlineCause(const std::string& name) {
    std::string message;
    eventually([&] {
      ListOptions options;
      options.field_selector = "involvedObject.name=" + name + ",reason=ClusterOffline";
      auto listed = ResourceClient(*host_, kEvents, ns()).list(options);
      if (!listed || listed.value().items.empty()) return false;
      message = listed.value().items.back().value("message", "");
      return true;
    });
    return message;
  }

  bool hasEvent(const std::string& object_name, const std::string& reason) {
    ListOptions options;
    options.field_selector = "involvedObject.name=" + object_name + ",reason=" + reason;
    auto listed = ResourceClient(*host_, kEvents, ns()).list(options);
    return listed && !listed.value().items.empty();
  }

  std::unique_ptr<RestClient> host_;
  std::unique_ptr<TestNamespace> namespace_;
  std::string ca_bundle_;
  std::unique_ptr<ApiEventRecorder> recorder_;
  ClusterRegistry registry_{realClock()};
  std::unique_ptr<KubeFedClusterController> controller_;
  std::vector<std::string> clusters_;
  std::vector<std::string> secrets_;
};

// Verifies joined members become Ready in the API and in the registry (with a working client),
// a stopped member goes Offline (ClusterNotReachable) while the other stays Ready, and comes
// back Ready once restarted.
TEST_F(KubeFedClusterIntegrationTest, MembersBecomeReadyAndFollowAnOutage) {
  // 1. Two members joined with their CA and tokens.
  addMember("member1");
  addMember("member2");
  startController();
  ASSERT_TRUE(becomes("member1", ClusterHealth::kReady)) << offlineMessage("member1");
  ASSERT_TRUE(becomes("member2", ClusterHealth::kReady)) << offlineMessage("member2");

  // 2. The registry learns readiness from the informer and hands out a client that works.
  ASSERT_TRUE(eventually([&] { return static_cast<bool>(registry_.client("member1")); }));
  auto member1 = registry_.client("member1");
  ASSERT_TRUE(member1);
  auto namespaces = ResourceClient(*member1.value(), {"", "v1", "namespaces", false}).list({});
  EXPECT_TRUE(namespaces) << namespaces.error().describe();

  // 3. member2 stops: Offline, reason ClusterNotReachable; member1 unaffected.
  {
    Member2Outage outage;
    ASSERT_TRUE(outage.stopped());
    ASSERT_TRUE(becomes("member2", ClusterHealth::kOffline));
    EXPECT_EQ(offlineReason("member2"), "ClusterNotReachable");
    EXPECT_EQ(offlineMessage("member2"), "cluster is not reachable");  // KubeFed's message
    EXPECT_NE(offlineCause("member2").find("cluster is not reachable: cannot connect"),
              std::string::npos)
        << offlineCause("member2");
    EXPECT_EQ(health("member1"), ClusterHealth::kReady);
    EXPECT_TRUE(eventually([&] { return !registry_.client("member2"); }));

    // 4. member2 starts again: Ready again.
    outage.end();
  }
  ASSERT_TRUE(becomes("member2", ClusterHealth::kReady)) << offlineMessage("member2");
  EXPECT_TRUE(eventually([&] { return hasEvent("member2", "ClusterOffline"); }));
  EXPECT_TRUE(eventually([&] { return hasEvent("member2", "RetrievingClusterHealthFailed"); }));
}

// Verifies a wrong CA, a rejected token and a closed port each give an Offline condition and a
// ClusterOffline event whose message says which, while a good member stays Ready.
TEST_F(KubeFedClusterIntegrationTest, BrokenClustersAreOfflineAndSayWhy) {
  addMember("member1");
  addSecret("good-token", env("KF_MEMBER1_TOKEN"));
  addSecret("bad-token", "not-a-valid-token");
  // The admin client certificate is not the CA that signed the server's certificate.
  addCluster("wrong-ca", env("KF_MEMBER1_SERVER"),
             base64Encode(readFile(env("KF_ADMIN_CERT_FILE"))), "good-token");
  addCluster("bad-token", env("KF_MEMBER1_SERVER"), ca_bundle_, "bad-token");
  addCluster("closed-port", "https://127.0.0.1:1", ca_bundle_, "good-token");
  startController();

  ASSERT_TRUE(becomes("wrong-ca", ClusterHealth::kOffline));
  ASSERT_TRUE(becomes("bad-token", ClusterHealth::kOffline));
  ASSERT_TRUE(becomes("closed-port", ClusterHealth::kOffline));
  EXPECT_NE(offlineCause("wrong-ca").find("TLS verification"), std::string::npos)
      << offlineCause("wrong-ca");
  EXPECT_NE(offlineCause("bad-token").find("authentication failed (401 Unauthorized)"),
            std::string::npos)
      << offlineCause("bad-token");
  EXPECT_NE(offlineCause("closed-port").find("cannot connect"), std::string::npos)
      << offlineCause("closed-port");
  for (const auto& name : {"wrong-ca", "bad-token", "closed-port"}) {
    EXPECT_EQ(offlineReason(name), "ClusterNotReachable") << name;
    EXPECT_EQ(offlineMessage(name), "cluster is not reachable") << name;
    EXPECT_EQ(offlineCause(name).find("not-a-valid-token"), std::string::npos);
  }
  ASSERT_TRUE(becomes("member1", ClusterHealth::kReady));
  EXPECT_TRUE(eventually([&] { return health("member1") == ClusterHealth::kReady; }));
}

// Verifies disabledTLSValidations against a real server reached through a name its certificate
// does not carry ("127.1" resolves to 127.0.0.1 but is not an IP literal, so it is checked as a
// DNS name): rejected by default, accepted with SubjectName (chain still verified), and "*"
// accepts even without the CA.
TEST_F(KubeFedClusterIntegrationTest, SubjectNameSkipsTheNameCheckOnly) {
  addSecret("token", env("KF_MEMBER1_TOKEN"));
  const std::string other_name = "https://127.1:" + portOf(env("KF_MEMBER1_SERVER"));
  addCluster("strict", other_name, ca_bundle_, "token");
  addCluster("subject-name", other_name, ca_bundle_, "token", {"SubjectName"});
  addCluster("subject-name-wrong-ca", other_name, base64Encode(readFile(env("KF_ADMIN_CERT_FILE"))),
             "token", {"SubjectName"});
  addCluster("skip-all", other_name, "", "token", {"*"});
  startController();

  ASSERT_TRUE(becomes("strict", ClusterHealth::kOffline));
  EXPECT_NE(offlineCause("strict").find("hostname mismatch"), std::string::npos)
      << offlineCause("strict");
  ASSERT_TRUE(becomes("subject-name", ClusterHealth::kReady)) << offlineMessage("subject-name");
  ASSERT_TRUE(becomes("subject-name-wrong-ca", ClusterHealth::kOffline));
  EXPECT_NE(offlineCause("subject-name-wrong-ca").find("TLS verification"), std::string::npos);
  ASSERT_TRUE(becomes("skip-all", ClusterHealth::kReady)) << offlineMessage("skip-all");
}

// Verifies a KubeFedCluster whose Secret does not exist gets a MalformedClusterConfig event that
// names the Secret, and no status.
TEST_F(KubeFedClusterIntegrationTest, MissingSecretIsReportedAsMalformed) {
  addMember("member1");
  addCluster("no-secret", env("KF_MEMBER1_SERVER"), ca_bundle_, "does-not-exist");
  startController();
  ASSERT_TRUE(becomes("member1", ClusterHealth::kReady));
  EXPECT_TRUE(eventually([&] { return hasEvent("no-secret", "MalformedClusterConfig"); }));
  // Read here rather than with conditions(), which has none for an object it cannot read.
  auto no_secret = ResourceClient(*host_, kKubeFedClusters, ns()).get("no-secret");
  ASSERT_TRUE(no_secret) << no_secret.error().describe();
  EXPECT_TRUE(
      no_secret.value().value("status", Json::object()).value("conditions", Json::array()).empty())
      << no_secret.value().dump();
  EXPECT_FALSE(registry_.client("no-secret"));
}

}  // namespace
}  // namespace kf::integration
