// A join re-run over what an earlier, unfinished join left: with --error-on-existing=false
// objects are reused and brought up to date; with it (the default) they stop join in KubeFed's
// words (scripted API servers).

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/join_host.h"
#include "cmd/kubefedctl/join_member.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::kubefedctl {
namespace {

using test::FakeApiServer;
using test::FakeClock;
using test::textResponse;

class JoinRerunTest : public ::testing::Test {
 protected:
  void reply(int status, const std::string& body) {
    server_.respondNext(textResponse(status, body));
  }
  std::vector<std::string> requests() const { return server_.requestLines(); }
  Json body(std::size_t index) const { return Json::parse(server_.requests().at(index).body); }

  FakeClock clock_;
  FakeApiServer server_{clock_};
  std::shared_ptr<RestClient> client_ = server_.client(RetryPolicy{});
  std::ostringstream out_;
};

MemberSetup clusterScopeSetup(bool error_on_existing = false) {
  MemberSetup setup;
  setup.cluster_name = "m1";
  setup.kubefed_namespace = "kf";
  setup.service_account = "m1-host";
  setup.scope = JoinScope::kCluster;
  setup.error_on_existing = error_on_existing;
  return setup;
}

// Verifies existing member objects are updated in place: a token Secret of an earlier
// ServiceAccount (other UID) is re-created, a role gets its rules replaced, a binding with another
// roleRef is re-created; then the token is returned.
TEST_F(JoinRerunTest, MemberObjectsLeftByAnEarlierJoinAreBroughtUpToDate) {
  reply(200, R"({"metadata": {"name": "kf"}})");
  reply(200, R"({"metadata": {"name": "m1-host", "namespace": "kf", "uid": "u1"}})");
  reply(200, R"({"type": "kubernetes.io/service-account-token",
                 "metadata": {"name": "m1-host-token", "namespace": "kf", "annotations": {
                   "kubernetes.io/service-account.name": "m1-host",
                   "kubernetes.io/service-account.uid": "u0"}}})");
  reply(200, "{}");
  reply(201, R"({"metadata": {"name": "m1-host-token"}})");
  reply(200, R"({"metadata": {"name": "kubefed-controller-manager:m1-host"},
                 "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]})");
  reply(200, "{}");
  reply(200, R"({"metadata": {"name": "kubefed-controller-manager:m1-host"},
                 "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                             "name": "view"},
                 "subjects": [{"kind": "ServiceAccount", "name": "m1-host", "namespace": "kf"}]})");
  reply(200, "{}");
  reply(201, "{}");
  reply(200, R"({"data": {"token": "dG9r", "ca.crt": "Y2E="}})");

  auto token = setUpJoiningCluster(*client_, clusterScopeSetup(), clock_, out_);
  ASSERT_TRUE(token) << token.error().message;
  EXPECT_EQ(token.value().token_base64, "dG9r");
  EXPECT_EQ(token.value().ca_crt_base64, "Y2E=");
  const std::string rbac = "/apis/rbac.authorization.k8s.io/v1/";
  EXPECT_EQ(requests(),
            (std::vector<std::string>{
                "GET /api/v1/namespaces/kf", "GET /api/v1/namespaces/kf/serviceaccounts/m1-host",
                "GET /api/v1/namespaces/kf/secrets/m1-host-token",
                "DELETE /api/v1/namespaces/kf/secrets/m1-host-token",
                "POST /api/v1/namespaces/kf/secrets",
                "GET " + rbac + "clusterroles/kubefed-controller-manager:m1-host",
                "PUT " + rbac + "clusterroles/kubefed-controller-manager:m1-host",
                "GET " + rbac + "clusterrolebindings/kubefed-controller-manager:m1-host",
                "DELETE " + rbac + "clusterrolebindings/kubefed-controller-manager:m1-host",
                "POST " + rbac + "clusterrolebindings",
                "GET /api/v1/namespaces/kf/secrets/m1-host-token"}));
  EXPECT_EQ(body(6)["rules"][0],
            Json::parse(R"({"verbs":["*"],"apiGroups":["*"],"resources":["*"]})"));
  EXPECT_EQ(body(9)["roleRef"]["name"], "kubefed-controller-manager:m1-host");
  EXPECT_EQ(out_.str(),
            "namespace/kf unchanged in cluster \"m1\"\n"
            "serviceaccount/m1-host unchanged in cluster \"m1\"\n"
            "secret/m1-host-token recreated in cluster \"m1\"\n"
            "clusterrole.rbac.authorization.k8s.io/kubefed-controller-manager:m1-host updated in "
            "cluster \"m1\"\n"
            "clusterrolebinding.rbac.authorization.k8s.io/kubefed-controller-manager:m1-host "
            "recreated in cluster \"m1\"\n");
}

// Verifies that with --error-on-existing an existing role stops join with KubeFed's message, and
// that nothing is written to it.
TEST_F(JoinRerunTest, ExistingRbacIsAnErrorWithErrorOnExisting) {
  const char* not_found = R"({"kind": "Status", "reason": "NotFound", "code": 404})";
  reply(404, not_found);  // namespace
  reply(201, "{}");
  reply(404, not_found);  // service account
  reply(201, R"({"metadata": {"name": "m1-host", "namespace": "kf", "uid": "u1"}})");
  reply(404, not_found);  // token secret
  reply(201, "{}");
  reply(200, R"({"metadata": {"name": "kubefed-controller-manager:m1-host"}, "rules": []})");
  auto token = setUpJoiningCluster(*client_, clusterScopeSetup(true), clock_, out_);
  ASSERT_FALSE(token);
  EXPECT_EQ(token.error().message,
            "cluster role for service account m1-host in joining cluster m1 already exists (left "
            "by an earlier join: unjoin the cluster first, or pass --error-on-existing=false to "
            "complete or update that join)");
  EXPECT_EQ(
      requests().back(),
      "GET /apis/rbac.authorization.k8s.io/v1/clusterroles/kubefed-controller-manager:m1-host");
}

// Verifies a Secret of the token's name that is not this ServiceAccount's token is never
// overwritten.
TEST_F(JoinRerunTest, ForeignSecretInTheTokensPlaceIsAnError) {
  reply(200, R"({"metadata": {"name": "kf"}})");
  reply(200, R"({"metadata": {"name": "m1-host", "namespace": "kf", "uid": "u1"}})");
  reply(200, R"({"type": "Opaque", "metadata": {"name": "m1-host-token"}})");
  auto token = setUpJoiningCluster(*client_, clusterScopeSetup(), clock_, out_);
  ASSERT_FALSE(token);
  EXPECT_EQ(token.error().message,
            "secret \"kf/m1-host-token\" in cluster \"m1\" exists but is not a token of service "
            "account \"m1-host\"; delete it and run join again");
  EXPECT_EQ(requests().size(), 3u);
}

// Verifies a namespace being deleted (a recent unjoin) is reported instead of failing later.
TEST_F(JoinRerunTest, NamespaceBeingDeletedIsReported) {
  reply(200, R"({"metadata": {"name": "kf", "deletionTimestamp": "2026-01-01T00:00:00Z"}})");
  auto token = setUpJoiningCluster(*client_, clusterScopeSetup(), clock_, out_);
  ASSERT_FALSE(token);
  EXPECT_EQ(token.error().message,
            "namespace \"kf\" in cluster \"m1\" is being deleted; run join again once it is gone");
}

HostSecretRequest secretRequest(const std::string& secret_name, bool error_on_existing) {
  return HostSecretRequest{"m1", "kf", secret_name, "bmV3", error_on_existing};
}

// Verifies the host Secret an unfinished join left (found by its annotation) gets the new token
// instead of a second Secret being generated.
TEST_F(JoinRerunTest, HostSecretOfAnUnfinishedJoinIsReused) {
  reply(200, R"({"metadata": {}, "items": [
      {"metadata": {"name": "m1-old",
                    "annotations": {"kubefedctl.kubefed.io/joined-cluster": "m1"}},
       "data": {"token": "b2xk"}}]})");
  reply(200, "{}");
  auto name = writeHostSecret(*client_, secretRequest("", true), out_);
  ASSERT_TRUE(name) << name.error().message;
  EXPECT_EQ(name.value(), "m1-old");
  EXPECT_EQ(requests(), (std::vector<std::string>{"GET /api/v1/namespaces/kf/secrets",
                                                  "PUT /api/v1/namespaces/kf/secrets/m1-old"}));
  EXPECT_EQ(body(1)["data"], Json({{"token", "bmV3"}}));
  EXPECT_EQ(out_.str(), "secret/m1-old updated in the host cluster\n");
}

// Verifies --secret-name naming a Secret no join of this cluster wrote is an error with
// --error-on-existing, and is overwritten without it.
TEST_F(JoinRerunTest, ForeignNamedHostSecretNeedsErrorOnExistingFalse) {
  const char* foreign = R"({"metadata": {"name": "mine"}, "data": {"token": "b2xk"}})";
  reply(200, foreign);
  auto refused = writeHostSecret(*client_, secretRequest("mine", true), out_);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "secret \"kf/mine\" already exists in the host cluster and was not written by a join "
            "of cluster \"m1\"; choose another --secret-name, or pass --error-on-existing=false to "
            "overwrite it");

  reply(200, foreign);
  reply(200, "{}");
  auto overwritten = writeHostSecret(*client_, secretRequest("mine", false), out_);
  ASSERT_TRUE(overwritten) << overwritten.error().message;
  EXPECT_EQ(body(2)["data"], Json({{"token", "bmV3"}}));
  EXPECT_EQ(body(2)["metadata"]["annotations"]["kubefedctl.kubefed.io/joined-cluster"], "m1");
}

// Verifies a new Secret is generated from the cluster name when none can be reused.
TEST_F(JoinRerunTest, HostSecretIsGeneratedWhenNoneExists) {
  reply(200, R"({"metadata": {}, "items": [{"metadata": {"name": "other"}}]})");
  reply(201, R"({"metadata": {"name": "m1-7xk2p"}})");
  auto name = writeHostSecret(*client_, secretRequest("", true), out_);
  ASSERT_TRUE(name) << name.error().message;
  EXPECT_EQ(name.value(), "m1-7xk2p");
  EXPECT_EQ(body(1)["metadata"]["generateName"], "m1-");
  EXPECT_EQ(out_.str(), "secret/m1-7xk2p created in the host cluster\n");
}

}  // namespace
}  // namespace kf::kubefedctl
