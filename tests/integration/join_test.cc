// `kubefedctl join` / `unjoin` (run through the CLI's library entry point) against the real host
// and member clusters. Needs each member's kube-controller-manager (token controller): the
// fixture runs them (KUBEFED_LOCAL_CLUSTERS_WITH_KCM).

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "cmd/kubefedctl/root.h"
#include "federation/client/base64.h"
#include "federation/client/resource_client.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

constexpr const char* kJoinedClusterAnnotation = "kubefedctl.kubefed.io/joined-cluster";

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string describe(const RunResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// One member as a test joins it: its kubeconfig context and the cluster name it joins under
// (unique per test, so ClusterRoles of different tests never collide).
struct Member {
  std::string context;
  std::string name;
  std::string serviceAccount() const { return name + "-host"; }
  std::string roleName() const { return "kubefed-controller-manager:" + serviceAccount(); }
};

class JoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (LocalClusters::get().env("KF_WITH_KCM") != "1") {
      GTEST_SKIP() << "join needs kube-controller-manager (token controller) in the members: "
                      "bring the local clusters up with KF_WITH_KCM=1";
    }
    ASSERT_EQ(ensureKubeFedCrds(), "");
    ns_.emplace(*host_, "kf-join");
    member1_ = {"member1", ns() + "-m1"};
    member2_ = {"member2", ns() + "-m2"};
  }

  // Leaves no member-side objects behind, also when a test failed half way.
  void TearDown() override {
    for (const auto& member : joined_) {
      (void)kubefedctl({"unjoin", member.name, "--cluster-context", member.context, "--force"});
    }
  }

  const std::string& ns() const { return ns_->name(); }

  RunResult kubefedctl(std::vector<std::string> args) {
    args.insert(args.end(), {"--kubeconfig", LocalClusters::get().kubeconfigPath(),
                             "--host-cluster-context", "host", "--kubefed-namespace", ns()});
    std::ostringstream out;
    std::ostringstream err;
    RunResult result;
    result.exit_code = kubefedctl::runRoot(args, {out, err});
    result.out = out.str();
    result.err = err.str();
    return result;
  }

  RunResult join(const Member& member, std::vector<std::string> flags = {}) {
    joined_.push_back(member);
    std::vector<std::string> args = {"join", member.name, "--cluster-context", member.context};
    args.insert(args.end(), flags.begin(), flags.end());
    return kubefedctl(args);
  }

  RunResult unjoin(const Member& member) {
    return kubefedctl({"unjoin", member.name, "--cluster-context", member.context});
  }

  void createKubeFedConfig(const std::string& scope) {
    auto created = ResourceClient(*host_, kKubeFedConfigs, ns())
                       .create({{"apiVersion", "core.kubefed.io/v1beta1"},
                                {"kind", "KubeFedConfig"},
                                {"metadata", {{"name", "kubefed"}, {"namespace", ns()}}},
                                {"spec", {{"scope", scope}}}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  RestClient& client(const std::string& context) {
    if (context == "host") return *host_;
    auto& slot = members_[context];
    if (!slot) slot = LocalClusters::get().client(context);
    return *slot;
  }

  Result<Json> get(const std::string& context, const GroupVersionResource& resource,
                   const std::string& name, const std::string& ns = "") {
    return ResourceClient(client(context), resource, ns).get(name);
  }

  bool gone(const std::string& context, const GroupVersionResource& resource,
            const std::string& name, const std::string& ns = "") {
    auto found = get(context, resource, name, ns);
    return !found && isNotFound(found.error());
  }

  // A client of the member that authenticates with the token the host Secret holds, through
  // the endpoint and CA of its KubeFedCluster: what the controller manager will use.
  std::unique_ptr<RestClient> clientFromKubeFedCluster(const Member& member) {
    auto cluster = get("host", kKubeFedClusters, member.name, ns());
    EXPECT_TRUE(cluster) << cluster.error().describe();
    if (!cluster) return nullptr;
    const Json& spec = cluster.value()["spec"];
    auto secret = get("host", kSecrets, spec["secretRef"]["name"], ns());
    EXPECT_TRUE(secret) << secret.error().describe();
    if (!secret) return nullptr;
    RestConfig config;
    config.server = spec["apiEndpoint"];
    config.tls.ca_pem = base64Decode(spec.value("caBundle", "")).value_or("");
    config.bearer_token = base64Decode(secret.value()["data"].value("token", "")).value_or("");
    auto made = RestClient::create(config, realClock());
    EXPECT_TRUE(made) << made.error().describe();
    return made ? std::move(made).value() : nullptr;
  }

  std::unique_ptr<RestClient> host_ = LocalClusters::get().client("host");
  std::map<std::string, std::unique_ptr<RestClient>> members_;
  std::optional<TestNamespace> ns_;
  std::vector<Member> joined_;
  Member member1_;
  Member member2_;
};

std::string selfSubjectName(RestClient& client) {
  auto review = client.sendJson({.method = "POST",
                                 .path = "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                                 .body = R"({"apiVersion": "authentication.k8s.io/v1",
                                             "kind": "SelfSubjectReview"})",
                                 .idempotent = false});
  if (!review) return "error: " + review.error().describe();
  return review.value()["status"]["userInfo"].value("username", "");
}

// Verifies a join writes the ServiceAccount, its token Secret and RBAC in each member and the
// Secret and KubeFedCluster in the host, and that the token authenticates as the ServiceAccount
// with cluster-wide rights; a second join fails clearly; unjoin removes it all again.
TEST_F(JoinTest, JoinedMembersTokensAuthenticateAndUnjoinRemovesEverything) {
  createKubeFedConfig("Cluster");
  // 1. Join both members.
  for (const Member* member : {&member1_, &member2_}) {
    RunResult joined = join(*member);
    ASSERT_EQ(joined.exit_code, 0) << describe(joined);
    EXPECT_TRUE(contains(joined.out, "serviceaccount/" + member->serviceAccount() +
                                         " created in cluster \"" + member->name + "\""))
        << joined.out;
    EXPECT_TRUE(contains(joined.out, "kubefedcluster.core.kubefed.io/" + member->name +
                                         " created in the host cluster"))
        << joined.out;
  }

  // 2. The member side of member1.
  const std::string sa = member1_.serviceAccount();
  ASSERT_TRUE(get("member1", kServiceAccounts, sa, ns()));
  auto token_secret = get("member1", kSecrets, sa + "-token", ns());
  ASSERT_TRUE(token_secret);
  EXPECT_EQ(token_secret.value()["type"], "kubernetes.io/service-account-token");
  auto role = get("member1", kClusterRoles, member1_.roleName());
  ASSERT_TRUE(role);
  EXPECT_EQ(role.value()["rules"][0]["verbs"], Json({"*"}));
  auto binding = get("member1", kClusterRoleBindings, member1_.roleName());
  ASSERT_TRUE(binding);
  EXPECT_EQ(binding.value()["subjects"][0]["name"], sa);

  // 3. The host side: endpoint and CA of the kubeconfig, the member's token in the Secret.
  auto cluster = get("host", kKubeFedClusters, member1_.name, ns());
  ASSERT_TRUE(cluster) << cluster.error().describe();
  const Json& spec = cluster.value()["spec"];
  EXPECT_EQ(spec["apiEndpoint"], LocalClusters::get().env("KF_MEMBER1_SERVER"));
  EXPECT_EQ(base64Decode(spec.value("caBundle", "")).value_or(""),
            readFile(LocalClusters::get().env("KF_CA_FILE")));
  auto host_secret = get("host", kSecrets, spec["secretRef"]["name"], ns());
  ASSERT_TRUE(host_secret);
  EXPECT_EQ(host_secret.value()["data"], Json({{"token", token_secret.value()["data"]["token"]}}));

  // 4. The token authenticates as the ServiceAccount and may list cluster-wide.
  for (const Member* member : {&member1_, &member2_}) {
    auto as_member = clientFromKubeFedCluster(*member);
    ASSERT_TRUE(as_member);
    EXPECT_EQ(selfSubjectName(*as_member),
              "system:serviceaccount:" + ns() + ":" + member->serviceAccount());
    EXPECT_TRUE(as_member->send({.path = "/api"}));
    auto namespaces = ResourceClient(*as_member, kNamespaces).list({});
    EXPECT_TRUE(namespaces) << namespaces.error().describe();
  }

  // 5. Joining again fails at KubeFed's preflight and says what to do; with
  // --error-on-existing=false it updates.
  RunResult again = join(member1_);
  EXPECT_EQ(again.exit_code, 255) << describe(again);
  EXPECT_EQ(again.err, "Error: service account: " + sa +
                           " already exists in joining cluster: " + member1_.name +
                           " (left by an earlier join: unjoin the cluster first, or pass "
                           "--error-on-existing=false to complete or update that join)\n");
  RunResult update = join(member1_, {"--error-on-existing=false"});
  ASSERT_EQ(update.exit_code, 0) << describe(update);
  EXPECT_TRUE(contains(
      update.out, "secret/" + objectName(host_secret.value()) + " unchanged in the host cluster"))
      << update.out;

  // 6. Unjoin member2: nothing of it is left in member2 or the host; member1 is untouched.
  RunResult unjoined = unjoin(member2_);
  ASSERT_EQ(unjoined.exit_code, 0) << describe(unjoined);
  const std::string sa2 = member2_.serviceAccount();
  EXPECT_TRUE(gone("member2", kServiceAccounts, sa2, ns()));
  EXPECT_TRUE(gone("member2", kSecrets, sa2 + "-token", ns()));
  EXPECT_TRUE(gone("member2", kClusterRoles, member2_.roleName()));
  EXPECT_TRUE(gone("member2", kClusterRoleBindings, member2_.roleName()));
  EXPECT_TRUE(eventually([&] { return gone("member2", kNamespaces, ns()); }))
      << "the KubeFed namespace of member2 was not deleted";
  EXPECT_TRUE(gone("host", kKubeFedClusters, member2_.name, ns()));
  auto host_secrets = ResourceClient(*host_, kSecrets, ns()).listAll({});
  ASSERT_TRUE(host_secrets);
  for (const auto& secret : host_secrets.value().items) {
    EXPECT_NE(
        secret["metadata"].value("annotations", Json::object()).value(kJoinedClusterAnnotation, ""),
        member2_.name)
        << objectName(secret);
  }
  EXPECT_TRUE(get("host", kKubeFedClusters, member1_.name, ns()));
  EXPECT_TRUE(get("member1", kServiceAccounts, sa, ns()));

  RunResult unjoined1 = unjoin(member1_);
  ASSERT_EQ(unjoined1.exit_code, 0) << describe(unjoined1);
  EXPECT_TRUE(gone("host", kKubeFedClusters, member1_.name, ns()));
  EXPECT_TRUE(gone("member1", kClusterRoleBindings, member1_.roleName()));
}

// Verifies a join re-run after stopping half way stops at what the first run left, as KubeFed's
// does, and completes with --error-on-existing=false: a ServiceAccount left before, RBAC changed
// since, and a host Secret without its KubeFedCluster are all reused and repaired.
TEST_F(JoinTest, RerunAfterAnUnfinishedJoinCompletesIt) {
  createKubeFedConfig("Cluster");
  // 1. A join that stopped after creating the namespace and the ServiceAccount.
  const std::string sa = member1_.serviceAccount();
  ASSERT_TRUE(
      ResourceClient(client("member1"), kNamespaces)
          .create({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns()}}}}));
  ASSERT_TRUE(ResourceClient(client("member1"), kServiceAccounts, ns())
                  .create({{"apiVersion", "v1"},
                           {"kind", "ServiceAccount"},
                           {"metadata", {{"name", sa}, {"namespace", ns()}}}}));
  RunResult refused = join(member1_);
  EXPECT_EQ(refused.exit_code, 255) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "Error: service account: " + sa +
                                        " already exists in joining cluster: " + member1_.name))
      << refused.err;
  EXPECT_TRUE(gone("member1", kClusterRoles, member1_.roleName())) << "nothing was written";
  RunResult first = join(member1_, {"--error-on-existing=false"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  EXPECT_TRUE(contains(first.out, "serviceaccount/" + sa + " unchanged")) << first.out;
  EXPECT_TRUE(contains(first.out, "namespace/" + ns() + " unchanged")) << first.out;

  // 2. A join that stopped before writing the KubeFedCluster, with RBAC changed meanwhile.
  auto cluster = get("host", kKubeFedClusters, member1_.name, ns());
  ASSERT_TRUE(cluster);
  const std::string secret_name = cluster.value()["spec"]["secretRef"]["name"];
  ASSERT_TRUE(ResourceClient(*host_, kKubeFedClusters, ns()).remove(member1_.name));
  ResourceClient roles(client("member1"), kClusterRoles);
  auto role = roles.get(member1_.roleName());
  ASSERT_TRUE(role);
  role.value()["rules"] =
      Json::parse(R"([{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}])");
  ASSERT_TRUE(roles.update(role.value()));
  ResourceClient bindings(client("member1"), kClusterRoleBindings);
  auto binding = bindings.get(member1_.roleName());
  ASSERT_TRUE(binding);
  ASSERT_TRUE(bindings.remove(member1_.roleName()));
  Json other_role = binding.value();
  other_role["metadata"] = {{"name", member1_.roleName()}};
  other_role["roleRef"]["name"] = "view";
  ASSERT_TRUE(bindings.create(other_role));

  // 3. Re-run: the existing ClusterRole stops it (KubeFed's words) once the ServiceAccount
  // preflight passes; --error-on-existing=false completes the job.
  ASSERT_TRUE(ResourceClient(client("member1"), kServiceAccounts, ns()).remove(sa));
  ASSERT_TRUE(eventually([&] { return gone("member1", kServiceAccounts, sa, ns()); }));
  RunResult stopped = join(member1_);
  EXPECT_EQ(stopped.exit_code, 255) << describe(stopped);
  EXPECT_TRUE(contains(stopped.err, "Error: cluster role for service account " + sa +
                                        " in joining cluster " + member1_.name + " already exists"))
      << stopped.err;
  RunResult rerun = join(member1_, {"--error-on-existing=false"});
  ASSERT_EQ(rerun.exit_code, 0) << describe(rerun);
  EXPECT_TRUE(contains(rerun.out,
                       "clusterrole.rbac.authorization.k8s.io/" + member1_.roleName() + " updated"))
      << rerun.out;
  EXPECT_TRUE(contains(rerun.out, "clusterrolebinding.rbac.authorization.k8s.io/" +
                                      member1_.roleName() + " recreated"))
      << rerun.out;
  // The ServiceAccount was re-created, so its token is new: the host Secret is reused and updated.
  EXPECT_TRUE(contains(rerun.out, "secret/" + secret_name + " updated in the host cluster"))
      << rerun.out;
  auto repaired_role = roles.get(member1_.roleName());
  ASSERT_TRUE(repaired_role);
  EXPECT_EQ(repaired_role.value()["rules"][0]["resources"], Json({"*"}));
  auto repaired_binding = bindings.get(member1_.roleName());
  ASSERT_TRUE(repaired_binding);
  EXPECT_EQ(repaired_binding.value()["roleRef"]["name"], member1_.roleName());
  auto rejoined = get("host", kKubeFedClusters, member1_.name, ns());
  ASSERT_TRUE(rejoined);
  EXPECT_EQ(rejoined.value()["spec"]["secretRef"]["name"], secret_name);

  // 4. The repaired join works, and unjoin cleans up.
  auto as_member = clientFromKubeFedCluster(member1_);
  ASSERT_TRUE(as_member);
  EXPECT_TRUE(ResourceClient(*as_member, kNamespaces).list({}));
  RunResult unjoined = unjoin(member1_);
  ASSERT_EQ(unjoined.exit_code, 0) << describe(unjoined);
  EXPECT_TRUE(gone("host", kSecrets, secret_name, ns()));
  EXPECT_TRUE(gone("member1", kServiceAccounts, sa, ns()));
}

// Verifies the Namespaced scope grants the token the KubeFed namespace only, plus KubeFed's
// health-check ClusterRole, and that unjoin removes those too.
TEST_F(JoinTest, NamespacedScopeGrantsOnlyTheKubeFedNamespace) {
  createKubeFedConfig("Namespaced");
  RunResult joined = join(member1_);
  ASSERT_EQ(joined.exit_code, 0) << describe(joined);
  const std::string health =
      "kubefed-controller-manager:" + ns() + ":healthcheck-" + member1_.serviceAccount();
  ASSERT_TRUE(get("member1", kRoles, member1_.roleName(), ns()));
  ASSERT_TRUE(get("member1", kRoleBindings, member1_.roleName(), ns()));
  auto health_role = get("member1", kClusterRoles, health);
  ASSERT_TRUE(health_role);
  EXPECT_EQ(health_role.value()["rules"][0]["verbs"], Json({"Get"}));
  ASSERT_TRUE(get("member1", kClusterRoleBindings, health));
  EXPECT_TRUE(gone("member1", kClusterRoles, member1_.roleName()));

  auto as_member = clientFromKubeFedCluster(member1_);
  ASSERT_TRUE(as_member);
  const GroupVersionResource config_maps{"", "v1", "configmaps", true};
  EXPECT_TRUE(ResourceClient(*as_member, config_maps, ns()).list({}));
  auto elsewhere = ResourceClient(*as_member, config_maps, "default").list({});
  ASSERT_FALSE(elsewhere);
  EXPECT_TRUE(isForbidden(elsewhere.error())) << elsewhere.error().describe();

  RunResult unjoined = unjoin(member1_);
  ASSERT_EQ(unjoined.exit_code, 0) << describe(unjoined);
  EXPECT_TRUE(gone("member1", kRoleBindings, member1_.roleName(), ns()));
  EXPECT_TRUE(gone("member1", kRoles, member1_.roleName(), ns()));
  EXPECT_TRUE(gone("member1", kClusterRoleBindings, health));
  EXPECT_TRUE(gone("member1", kClusterRoles, health));
  EXPECT_TRUE(gone("member1", kServiceAccounts, member1_.serviceAccount(), ns()));
  EXPECT_TRUE(gone("host", kKubeFedClusters, member1_.name, ns()));
}

// Verifies --dry-run prints the KubeFedCluster and writes nothing, and a missing KubeFedConfig
// is reported in KubeFed's words.
TEST_F(JoinTest, DryRunPrintsTheKubeFedClusterAndWritesNothing) {
  RunResult no_config = join(member1_);
  EXPECT_EQ(no_config.exit_code, 255) << describe(no_config);
  EXPECT_EQ(no_config.err,
            "Error: A KubeFedConfig named \"kubefed\" was not found in namespace \"" + ns() +
                "\". Is a KubeFed control plane running in this namespace?\n");

  createKubeFedConfig("Cluster");
  RunResult dry = join(member1_, {"--dry-run", "--secret-name", "creds"});
  ASSERT_EQ(dry.exit_code, 0) << describe(dry);
  EXPECT_EQ(dry.out.rfind("---\napiVersion: core.kubefed.io/v1beta1\nkind: KubeFedCluster\n", 0),
            0u)
      << dry.out;
  EXPECT_TRUE(contains(dry.out, "  apiEndpoint: " + LocalClusters::get().env("KF_MEMBER1_SERVER")))
      << dry.out;
  EXPECT_TRUE(contains(dry.out, "  secretRef:\n    name: creds\n")) << dry.out;
  EXPECT_TRUE(gone("member1", kServiceAccounts, member1_.serviceAccount(), ns()));
  EXPECT_TRUE(gone("member1", kNamespaces, ns()));
  EXPECT_TRUE(gone("host", kKubeFedClusters, member1_.name, ns()));
  EXPECT_TRUE(gone("host", kSecrets, "creds", ns()));
}

// Verifies a host joined to itself keeps its KubeFed namespace when unjoined (same UID).
TEST_F(JoinTest, HostJoinedToItselfKeepsItsNamespaceOnUnjoin) {
  createKubeFedConfig("Cluster");
  const Member self{"host", ns() + "-self"};
  RunResult joined = join(self);
  ASSERT_EQ(joined.exit_code, 0) << describe(joined);
  EXPECT_TRUE(contains(joined.out, "namespace/" + ns() + " unchanged")) << joined.out;
  RunResult unjoined = unjoin(self);
  ASSERT_EQ(unjoined.exit_code, 0) << describe(unjoined);
  EXPECT_TRUE(contains(unjoined.out, "namespace/" + ns() + " kept")) << unjoined.out;
  auto kept = get("host", kNamespaces, ns());
  ASSERT_TRUE(kept);
  EXPECT_FALSE(kept.value()["metadata"].contains("deletionTimestamp"));
  EXPECT_TRUE(gone("host", kServiceAccounts, self.serviceAccount(), ns()));
  EXPECT_TRUE(gone("host", kKubeFedClusters, self.name, ns()));
}

}  // namespace
}  // namespace kf::integration
