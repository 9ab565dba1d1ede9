// join and unjoin against scripted API servers: the requests they send and what they return.

#include "cmd/kubefedctl/join.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/join_host.h"
#include "cmd/kubefedctl/unjoin.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::kubefedctl {
namespace {

using test::FakeApiServer;
using test::FakeClock;
using test::textResponse;

std::string notFound(const std::string& what) {
  return Json({{"kind", "Status"},
               {"apiVersion", "v1"},
               {"status", "Failure"},
               {"reason", "NotFound"},
               {"code", 404},
               {"message", what + " not found"}})
      .dump();
}

constexpr const char* kForbidden =
    R"({"kind":"Status","status":"Failure","reason":"Forbidden","code":403,"message":"no"})";
constexpr const char* kClusterScopeConfig =
    R"({"kind": "KubeFedConfig", "metadata": {"name": "kubefed"}, "spec": {"scope": "Cluster"}})";

// One scripted API server and the client that talks to it.
struct FakeCluster {
  explicit FakeCluster(FakeClock& clock) : server(clock) {}
  std::vector<std::string> requests() const { return server.requestLines(); }

  FakeApiServer server;
  std::shared_ptr<RestClient> client = server.client(RetryPolicy{});
};

class JoinTest : public ::testing::Test {
 protected:
  JoinRequest dryRun(JoiningEndpoint endpoint) {
    JoinRequest request;
    request.cluster_name = "m1";
    request.host_cluster_name = "host";
    request.kubefed_namespace = "kf";
    request.dry_run = true;
    request.endpoint = std::move(endpoint);
    return request;
  }

  // The joining cluster's answer to the ServiceAccount preflight: there is none yet.
  void noServiceAccountYet() {
    member_.server.respondNext(textResponse(404, notFound("serviceaccounts \"m1-host\"")));
  }

  FakeClock clock_;
  FakeCluster host_{clock_};
  FakeCluster member_{clock_};
  std::ostringstream out_;
};

// Verifies spec §6 join_test: a dry run with --secret-name returns a KubeFedCluster with the
// server as apiEndpoint and that secret, after reads only.
TEST_F(JoinTest, DryRunReturnsTheClusterItWouldCreateAndOnlyReads) {
  host_.server.respondNext(textResponse(200, kClusterScopeConfig));
  host_.server.respondNext(textResponse(404, notFound("kubefedclusters.core.kubefed.io \"m1\"")));
  noServiceAccountYet();
  JoinRequest request = dryRun({"https://member.example:6443", "", false, ""});
  request.secret_name = "secret";
  auto cluster = joinCluster(*host_.client, member_.client.get(), request, out_, clock_);
  ASSERT_TRUE(cluster) << cluster.error().message;
  EXPECT_EQ(cluster.value(), Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "KubeFedCluster",
    "metadata": {"name": "m1", "namespace": "kf"},
    "spec": {"apiEndpoint": "https://member.example:6443", "secretRef": {"name": "secret"}}})"));
  EXPECT_EQ(host_.requests(),
            (std::vector<std::string>{
                "GET /apis/core.kubefed.io/v1beta1/namespaces/kf/kubefedconfigs/kubefed",
                "GET /apis/core.kubefed.io/v1beta1/namespaces/kf/kubefedclusters/m1"}));
  EXPECT_EQ(member_.requests(),
            (std::vector<std::string>{"GET /api/v1/namespaces/kf/serviceaccounts/m1-host"}));
  EXPECT_EQ(out_.str(), "");
}

// Verifies spec §6 join_test: a proxied kubeconfig entry gives the KubeFedCluster its proxyURL;
// without --secret-name the dry run's secretRef is empty.
TEST_F(JoinTest, DryRunOfAProxiedClusterCarriesTheProxyUrl) {
  host_.server.respondNext(textResponse(200, kClusterScopeConfig));
  host_.server.respondNext(textResponse(404, notFound("kubefedclusters.core.kubefed.io \"m1\"")));
  noServiceAccountYet();
  auto cluster = joinCluster(*host_.client, member_.client.get(),
                             dryRun({"https://member.example", "", false, "socks5://proxy:1080"}),
                             out_, clock_);
  ASSERT_TRUE(cluster) << cluster.error().message;
  EXPECT_EQ(cluster.value()["spec"]["proxyURL"], "socks5://proxy:1080");
  EXPECT_EQ(cluster.value()["spec"]["secretRef"], Json({{"name", ""}}));
}

// Verifies a member whose server name is upper case (EKS endpoints are upper-case hex) is joined
// with that server as apiEndpoint: KubeFed checks no host name rule.
TEST_F(JoinTest, DryRunOfAnUpperCaseServerNameKeepsIt) {
  const std::string eks =
      "https://964C03D0934F8B3D97FBC6982BD906F4.gr7.us-west-2.eks.amazonaws.com";
  host_.server.respondNext(textResponse(200, kClusterScopeConfig));
  host_.server.respondNext(textResponse(404, notFound("kubefedclusters.core.kubefed.io \"m1\"")));
  noServiceAccountYet();
  auto cluster =
      joinCluster(*host_.client, member_.client.get(), dryRun({eks, "", false, ""}), out_, clock_);
  ASSERT_TRUE(cluster) << cluster.error().message;
  EXPECT_EQ(cluster.value()["spec"]["apiEndpoint"], eks);
}

// Verifies a joined cluster (its KubeFedCluster exists) stops join before any write.
TEST_F(JoinTest, AlreadyJoinedClusterFailsWithWhatToDo) {
  host_.server.respondNext(textResponse(200, kClusterScopeConfig));
  host_.server.respondNext(textResponse(200, R"({"metadata": {"name": "m1"}, "spec": {}})"));
  noServiceAccountYet();
  JoinRequest request = dryRun({"https://member.example", "", false, ""});
  request.dry_run = false;
  auto cluster = joinCluster(*host_.client, member_.client.get(), request, out_, clock_);
  ASSERT_FALSE(cluster);
  EXPECT_EQ(cluster.error().message,
            "cluster \"m1\" is already joined: KubeFedCluster \"kf/m1\" exists in the host "
            "cluster. Unjoin it first, or pass --error-on-existing=false to update it");
  EXPECT_EQ(member_.requests(),
            (std::vector<std::string>{"GET /api/v1/namespaces/kf/serviceaccounts/m1-host"}));
}

// Verifies KubeFed's preflight: with --error-on-existing (the default) an existing
// ServiceAccount in the joining cluster stops join before anything is written, also on a dry run.
TEST_F(JoinTest, ExistingServiceAccountStopsJoinInKubeFedsWords) {
  for (const bool dry_run : {true, false}) {
    SCOPED_TRACE(dry_run ? "dry run" : "join");
    host_.server.respondNext(textResponse(200, kClusterScopeConfig));
    member_.server.respondNext(textResponse(200, R"({"metadata": {"name": "m1-host"}})"));
    JoinRequest request = dryRun({"https://member.example", "", false, ""});
    request.dry_run = dry_run;
    auto cluster = joinCluster(*host_.client, member_.client.get(), request, out_, clock_);
    ASSERT_FALSE(cluster);
    EXPECT_EQ(cluster.error().message,
              "service account: m1-host already exists in joining cluster: m1 (left by an earlier "
              "join: unjoin the cluster first, or pass --error-on-existing=false to complete or "
              "update that join)");
  }
  EXPECT_EQ(member_.requests().size(), 2u);  // the two preflight reads, nothing else
  EXPECT_EQ(host_.requests().size(), 2u);    // the KubeFedConfig twice
}

// Verifies a KubeFedConfig without a scope means Cluster, as in KubeFed.
TEST_F(JoinTest, EmptyScopeIsCluster) {
  host_.server.respondNext(textResponse(
      200, R"({"kind": "KubeFedConfig", "metadata": {"name": "kubefed"}, "spec": {}})"));
  auto scope = readJoinScope(*host_.client, "kf");
  ASSERT_TRUE(scope) << scope.error().message;
  EXPECT_EQ(scope.value(), JoinScope::kCluster);
}

// Verifies a missing KubeFedConfig is reported in KubeFed's words.
TEST_F(JoinTest, MissingKubeFedConfigAsksForAControlPlane) {
  host_.server.respondNext(
      textResponse(404, notFound("kubefedconfigs.core.kubefed.io \"kubefed\"")));
  auto cluster =
      joinCluster(*host_.client, nullptr, dryRun({"https://m", "", false, ""}), out_, clock_);
  ASSERT_FALSE(cluster);
  EXPECT_EQ(cluster.error().message,
            "A KubeFedConfig named \"kubefed\" was not found in namespace \"kf\". Is a KubeFed "
            "control plane running in this namespace?");
}

// Verifies names and endpoints the servers would reject stop join before any request.
TEST_F(JoinTest, InvalidNamesAndEndpointsFailBeforeAnyRequest) {
  JoinRequest bad_host = dryRun({"https://member.example", "", false, ""});
  bad_host.host_cluster_name = "gke_project_zone_hub";
  auto named = joinCluster(*host_.client, nullptr, bad_host, out_, clock_);
  ASSERT_FALSE(named);
  EXPECT_NE(named.error().message.find("the service account name \"m1-gke_project_zone_hub\""),
            std::string::npos)
      << named.error().message;
  EXPECT_NE(named.error().message.find("--host-cluster-name"), std::string::npos);

  auto proxied =
      joinCluster(*host_.client, nullptr,
                  dryRun({"https://member.example", "", false, "ftp://proxy"}), out_, clock_);
  ASSERT_FALSE(proxied);
  EXPECT_NE(proxied.error().message.find("proxy URL scheme must be one of"), std::string::npos)
      << proxied.error().message;

  auto unparsable =
      joinCluster(*host_.client, nullptr,
                  dryRun({"https://member.example", "", false, "http://a b"}), out_, clock_);
  ASSERT_FALSE(unparsable);
  EXPECT_NE(unparsable.error().message.find(
                "spec.proxyURL: Invalid value: \"http://a b\": parse \"http://a b\": invalid "
                "character \" \" in host name"),
            std::string::npos)
      << unparsable.error().message;
  EXPECT_TRUE(host_.requests().empty());
}

class UnjoinTest : public ::testing::Test {
 protected:
  UnjoinRequest request(bool force) { return UnjoinRequest{"m1", "host", "kf", force, false}; }
  Status unjoin(RestClient* member, const UnjoinRequest& request) {
    return unjoinCluster(*host_.client, member, request, {out_, err_});
  }

  FakeClock clock_;
  FakeCluster host_{clock_};
  std::ostringstream out_;
  std::ostringstream err_;
};

// Verifies the host side deletes the KubeFedCluster's Secret, Secrets an unfinished join of this
// cluster left (by annotation, not others), then the KubeFedCluster.
TEST_F(UnjoinTest, HostSideRemovesTheClusterAndEverySecretJoinWroteForIt) {
  host_.server.respondNext(textResponse(
      200, R"({"metadata": {"name": "m1"}, "spec": {"secretRef": {"name": "m1-x"}}})"));
  host_.server.respondNext(textResponse(200, R"({"metadata": {}, "items": [
      {"metadata": {"name": "m1-left",
                    "annotations": {"kubefedctl.kubefed.io/joined-cluster": "m1"}}},
      {"metadata": {"name": "m2-y",
                    "annotations": {"kubefedctl.kubefed.io/joined-cluster": "m2"}}},
      {"metadata": {"name": "unrelated"}}]})"));
  for (int i = 0; i < 3; ++i) host_.server.respondNext(textResponse(200, "{}"));
  ASSERT_TRUE(unjoin(nullptr, request(false)));
  EXPECT_EQ(host_.requests(),
            (std::vector<std::string>{
                "GET /apis/core.kubefed.io/v1beta1/namespaces/kf/kubefedclusters/m1",
                "GET /api/v1/namespaces/kf/secrets", "DELETE /api/v1/namespaces/kf/secrets/m1-left",
                "DELETE /api/v1/namespaces/kf/secrets/m1-x",
                "DELETE /apis/core.kubefed.io/v1beta1/namespaces/kf/kubefedclusters/m1"}));
  EXPECT_EQ(out_.str(),
            "secret/m1-left deleted in the host cluster\n"
            "secret/m1-x deleted in the host cluster\n"
            "kubefedcluster.core.kubefed.io/m1 deleted in the host cluster\n");
}

// Verifies a member-side failure stops unjoin before the host side is touched.
TEST_F(UnjoinTest, MemberFailureWithoutForceLeavesTheHostAlone) {
  FakeCluster member(clock_);
  member.server.respondNext(textResponse(403, kForbidden));
  auto done = unjoin(member.client.get(), request(false));
  ASSERT_FALSE(done);
  EXPECT_NE(done.error().message.find("deleting clusterrolebinding.rbac.authorization.k8s.io "
                                      "\"kubefed-controller-manager:m1-host\" in cluster \"m1\""),
            std::string::npos)
      << done.error().message;
  EXPECT_EQ(member.requests().size(), 1u);
  EXPECT_TRUE(host_.requests().empty());
}

// Verifies --force reports member-side failures as warnings and goes on to the host side;
// objects already gone are skipped silently.
TEST_F(UnjoinTest, ForceGoesOnAfterMemberFailures) {
  FakeCluster member(clock_);
  member.server.respondNext(textResponse(403, kForbidden));
  for (int i = 0; i < 7; ++i) member.server.respondNext(textResponse(404, notFound("object")));
  member.server.respondNext(textResponse(404, notFound("namespaces \"kf\"")));
  host_.server.respondNext(textResponse(404, notFound("kubefedclusters.core.kubefed.io \"m1\"")));
  host_.server.respondNext(textResponse(200, R"({"metadata": {}, "items": []})"));
  ASSERT_TRUE(unjoin(member.client.get(), request(true)));
  EXPECT_EQ(member.requests().size(), 9u);
  EXPECT_EQ(member.requests().back(), "GET /api/v1/namespaces/kf");
  EXPECT_EQ(host_.requests().size(), 2u);
  EXPECT_NE(err_.str().find("Warning: deleting clusterrolebinding.rbac.authorization.k8s.io"),
            std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("(continuing: --force)"), std::string::npos);
  EXPECT_NE(err_.str().find("Warning: KubeFedCluster \"kf/m1\" does not exist"), std::string::npos);
  EXPECT_EQ(out_.str(), "");
}

}  // namespace
}  // namespace kf::kubefedctl
