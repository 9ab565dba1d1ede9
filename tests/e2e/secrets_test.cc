// Credentials never leak (issue 12 item 8): the controller manager and the webhook at -v 10 and
// `kubefedctl join` / `enable` / `plan` at --v=10 run a whole federation (two members joined, a
// FederatedSecret propagated with an override and then planned with other values, a member
// behind a wrong CA, one with a rejected token; plan also with the host reached through an exec
// plugin, a token file and basic authentication); then every line they wrote and every Event in
// the host and the members is searched for every credential and Secret value involved. The member
// behind the wrong CA must be Offline with a message that says the TLS verification failed and why.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include "federation/client/base64.h"
#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/e2e/webhook_registration.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"
#include "tests/support/secret_volume.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_certificates.h"

namespace kf::integration {
namespace {
// A namespace of its own: in a unity build this file shares a translation unit with other tests.
namespace secrets {

using std::chrono::seconds;

const GroupVersionResource kFederatedSecrets{"types.kubefed.io", "v1beta1", "federatedsecrets",
                                             true};

// A value no log line could hold by chance.
std::string randomSecret(const std::string& prefix) {
  std::random_device device;
  std::mt19937_64 random(device());
  std::ostringstream out;
  out << prefix << std::hex << random() << random();
  return out.str();
}

// A FederatedSecret "credentials" in `ns`: `value` as its password, `overridden` in member2.
Json federatedSecret(const std::string& ns, const std::string& value,
                     const std::string& overridden) {
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedSecret"},
          {"metadata", {{"name", "credentials"}, {"namespace", ns}}},
          {"spec",
           {{"template", {{"type", "Opaque"}, {"data", {{"password", base64Encode(value)}}}}},
            {"placement", {{"clusters", {{{"name", "member1"}}, {{"name", "member2"}}}}}},
            {"overrides",
             {{{"clusterName", "member2"},
               {"clusterOverrides",
                {{{"path", "/data/password"}, {"value", base64Encode(overridden)}}}}}}}}}};
}

// One credential and the forms in which it could leak.
struct Credential {
  std::string what;
  std::vector<std::string> forms;
};

// The value itself, its base64 (Secret data, kubeconfig *-data fields) and, for long values, a
// tail: a log line that truncates a token still leaks its signature.
Credential credential(const std::string& what, const std::string& value) {
  Credential c{what, {value, base64Encode(value)}};
  if (value.size() > 40) c.forms.push_back(value.substr(value.size() - 24));
  return c;
}

// A PEM private key leaks when any of its base64 body lines does (and as kubeconfig data).
Credential privateKey(const std::string& what, const std::string& pem) {
  Credential c{what, {base64Encode(pem)}};
  std::istringstream lines(pem);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() >= 40 && line.rfind("-----", 0) != 0) c.forms.push_back(line);
  }
  return c;
}

// Every Event of a cluster, all namespaces, as JSON text.
std::string eventsOf(RestClient& cluster) {
  auto listed = ResourceClient(cluster, kEvents).listAll({});
  EXPECT_TRUE(listed) << listed.error().describe();
  return listed ? Json(listed.value().items).dump() : "";
}

class SecretsE2ETest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    // At -v 10 (kubefedctl at --v=10): every line they write is searched for credentials.
    federation_ = std::make_unique<E2EFederation>(E2EFederationOptions{
        .prefix = "kf-secrets", .manager_flags = {"-v", "10"}, .kubefedctl_flags = {"--v=10"}});
    ASSERT_NO_FATAL_FAILURE(startWebhook());
    auto config = fed().createKubeFedConfig();
    ASSERT_TRUE(config) << config.error().describe();
    ASSERT_TRUE(fed().startManager()) << fed().manager().log();
  }

  void TearDown() override {
    if (!federation_) return;
    fed().shutDown();
    registration_.reset();
    if (HasFailure() && fed().hasManager()) {
      std::cerr << "controller manager log:\n" << fed().manager().log();
    }
    if (HasFailure() && webhook_) std::cerr << "webhook log:\n" << webhook_->log();
  }

  E2EFederation& fed() { return *federation_; }
  RestClient& host() { return fed().host(); }
  const std::string& ns() const { return federation_->kubefedNamespace(); }
  std::string env(const std::string& key) const { return clusters_.env(key); }

  // The webhook at -v 10, registered for the KubeFed namespace: the KubeFedClusters join writes
  // and their status updates pass through it.
  void startWebhook() {
    volume_.publish({{"tls.crt", serving_.cert_pem}, {"tls.key", serving_.key_pem}});
    webhook_ = std::make_unique<ChildProcess>(
        builtBinary("cmd/webhook/webhook"),
        std::vector<std::string>{"--secure-port=0", "--cert-dir=" + certs_.path(),
                                 "--kubeconfig=" + clusters_.kubeconfigPath(), "-v", "10"});
    ASSERT_TRUE(webhook_->waitForLog("Serving webhook server on")) << webhook_->log();
    const int port = servedPort(*webhook_, "webhook server");
    ASSERT_GT(port, 0) << webhook_->log();
    registration_ = std::make_unique<WebhookRegistration>(host(), ns(), port, ca_.cert_pem);
    // The API server picks up webhook configurations asynchronously: wait until it calls ours.
    const Json probe = {{"apiVersion", "core.kubefed.io/v1beta1"},
                        {"kind", "KubeFedConfig"},
                        {"metadata", {{"name", "probe"}}},
                        {"spec", {{"scope", "Everywhere"}}}};
    ASSERT_TRUE(eventually([&] {
      RestRequest request;
      request.method = "POST";
      request.path = "/apis/core.kubefed.io/v1beta1/namespaces/" + ns() + "/kubefedconfigs";
      request.query = {{"dryRun", "All"}};
      request.body = probe.dump();
      auto sent = host().send(request);
      return !sent && sent.error().message.find("denied the request") != std::string::npos;
    })) << webhook_->log();
  }

  void create(const GroupVersionResource& resource, const std::string& ns, const Json& object) {
    auto created = ResourceClient(host(), resource, ns).create(object);
    ASSERT_TRUE(created) << created.error().describe();
  }

  // A KubeFedCluster for member1 whose Secret holds `token`; `ca_pem` as its caBundle.
  void addBrokenCluster(const std::string& name, const std::string& ca_pem,
                        const std::string& token) {
    create(kSecrets, ns(),
           {{"apiVersion", "v1"},
            {"kind", "Secret"},
            {"metadata", {{"name", name}}},
            {"data", {{"token", base64Encode(token)}}}});
    create(kKubeFedClusters, ns(),
           {{"apiVersion", "core.kubefed.io/v1beta1"},
            {"kind", "KubeFedCluster"},
            {"metadata", {{"name", name}}},
            {"spec",
             {{"apiEndpoint", env("KF_MEMBER1_SERVER")},
              {"caBundle", base64Encode(ca_pem)},
              {"secretRef", {{"name", name}}}}}});
  }

  // The message of a KubeFedCluster's Offline=True condition ("" while there is none).
  std::string offlineMessage(const std::string& cluster) {
    auto object = ResourceClient(host(), kKubeFedClusters, ns()).get(cluster);
    if (!object) return "";
    const Json& status = object.value().value("status", Json::object());
    for (const auto& c : status.value("conditions", Json::array())) {
      if (c.value("type", "") == "Offline" && c.value("status", "") == "True") {
        return c.value("reason", "") + ": " + c.value("message", "");
      }
    }
    return "";
  }

  // The message of the cluster's ClusterOffline event (why it is not reachable), once written.
  std::string offlineCause(const std::string& cluster) {
    std::string message;
    eventually([&] {
      for (const Json& event : Json::parse(eventsOf(host()))) {
        if (event.value("reason", "") == "ClusterOffline" &&
            event["involvedObject"].value("name", "") == cluster) {
          message = event.value("message", "");
        }
      }
      return !message.empty();
    });
    return message;
  }

  // `kubefedctl plan -f -` of `file` at --v=10 with the host reached through a kubeconfig of
  // three users: an exec plugin and a token file that both give `token`, and basic
  // authentication with `password` (which the API server refuses: it has no basic
  // authentication). What the three runs wrote, stdout and stderr.
  std::string planThroughOtherCredentials(const std::string& file, const std::string& token,
                                          const std::string& password) {
    plugin_dir_.write("token", token);
    plugin_dir_.write("token-plugin",
                      "#!/bin/sh\nprintf '{\"apiVersion\": \"client.authentication.k8s.io/v1\", "
                      "\"kind\": \"ExecCredential\", \"status\": {\"token\": \"%s\"}}' "
                      "\"$(cat " +
                          shellQuoted(plugin_dir_.file("token")) + ")\"\n");
    std::filesystem::permissions(plugin_dir_.file("token-plugin"),
                                 std::filesystem::perms::owner_all);
    const Json kubeconfig = {
        {"apiVersion", "v1"},
        {"kind", "Config"},
        {"clusters",
         {{{"name", "host"},
           {"cluster",
            {{"server", env("KF_HOST_SERVER")}, {"certificate-authority", env("KF_CA_FILE")}}}}}},
        {"users",
         {{{"name", "exec"},
           {"user",
            {{"exec",
              {{"apiVersion", "client.authentication.k8s.io/v1"},
               {"command", plugin_dir_.file("token-plugin")},
               {"interactiveMode", "Never"}}}}}},
          {{"name", "token-file"}, {"user", {{"tokenFile", plugin_dir_.file("token")}}}},
          {{"name", "basic"}, {"user", {{"username", "kf-basic"}, {"password", password}}}}}},
        {"contexts",
         {{{"name", "exec"}, {"context", {{"cluster", "host"}, {"user", "exec"}}}},
          {{"name", "token-file"}, {"context", {{"cluster", "host"}, {"user", "token-file"}}}},
          {{"name", "basic"}, {"context", {{"cluster", "host"}, {"user", "basic"}}}}}},
        {"current-context", "exec"}};
    plugin_dir_.write("kubeconfig", kubeconfig.dump());
    std::string output;
    for (const std::string context : {"exec", "token-file", "basic"}) {
      const RunResult run =
          runShell(shellQuoted(kubefedctlBinary()) + " plan -f - --kubeconfig " +
                       shellQuoted(plugin_dir_.file("kubeconfig")) + " --host-cluster-context " +
                       context + " --kubefed-namespace " + shellQuoted(ns()) + " --v=10",
                   file);
      output += run.out + run.err;
      if (context == "basic") {
        EXPECT_GT(run.exit_code, 1) << "basic authentication is refused: " << describe(run);
      } else {
        EXPECT_EQ(run.exit_code, 1) << context << ": " << describe(run);
        EXPECT_NE(run.out.find("'*** (after)'"), std::string::npos) << context << ": " << run.out;
      }
    }
    return output;
  }

  // The member token of every KubeFedCluster in the KubeFed namespace (from its Secret).
  std::vector<Credential> clusterTokens() {
    std::vector<Credential> tokens;
    auto clusters = ResourceClient(host(), kKubeFedClusters, ns()).listAll({});
    EXPECT_TRUE(clusters) << clusters.error().describe();
    if (!clusters) return tokens;
    for (const auto& cluster : clusters.value().items) {
      const std::string secret_name = cluster["spec"]["secretRef"].value("name", "");
      auto secret = ResourceClient(host(), kSecrets, ns()).get(secret_name);
      EXPECT_TRUE(secret) << secret_name << ": " << secret.error().describe();
      if (!secret) continue;
      const auto token = base64Decode(secret.value()["data"].value("token", ""));
      EXPECT_TRUE(token && !token.value().empty()) << secret_name;
      if (token) {
        tokens.push_back(credential(
            "the token of KubeFedCluster " + objectName(cluster) + " (Secret " + secret_name + ")",
            token.value()));
      }
    }
    return tokens;
  }

  LocalClusters& clusters_ = LocalClusters::get();
  std::unique_ptr<E2EFederation> federation_;
  test::TempDir certs_;
  test::TempDir plugin_dir_;
  test::SecretVolume volume_{certs_};
  test::Credential ca_ = test::makeCa("secrets-e2e-ca");
  test::Credential serving_ = webhookServingCert(ca_);
  std::unique_ptr<ChildProcess> webhook_;
  std::unique_ptr<WebhookRegistration> registration_;
};

TEST_F(SecretsE2ETest, NoCredentialAppearsInAnyLogOrEventAndAWrongCaSaysWhy) {
  // 1. A federation: both members joined, namespaces and secrets federated.
  ASSERT_EQ(fed().joinMembers(), "");
  ASSERT_EQ(fed().enableTypes({"namespaces", "secrets"}), "");

  // 2. Two members that fail: a CA that did not sign the server's certificate (member1's admin
  // token in its Secret), and a token the member rejects.
  const std::string rejected_token = randomSecret("rejected-token-");
  ASSERT_NO_FATAL_FAILURE(
      addBrokenCluster("wrong-ca", readFile(env("KF_ADMIN_CERT_FILE")), env("KF_MEMBER1_TOKEN")));
  ASSERT_NO_FATAL_FAILURE(
      addBrokenCluster("rejected-token", readFile(env("KF_CA_FILE")), rejected_token));

  // 3. A FederatedSecret in both members, member2 with an overridden value.
  const std::string work = fed().workNamespace();
  const std::string value = randomSecret("secret-value-");
  const std::string overridden = randomSecret("overridden-value-");
  ASSERT_NO_FATAL_FAILURE(create(
      kFederatedNamespaces, work,
      {{"apiVersion", "types.kubefed.io/v1beta1"},
       {"kind", "FederatedNamespace"},
       {"metadata", {{"name", work}, {"namespace", work}}},
       {"spec", {{"placement", {{"clusters", {{{"name", "member1"}}, {{"name", "member2"}}}}}}}}}));
  ASSERT_NO_FATAL_FAILURE(
      create(kFederatedSecrets, work, federatedSecret(work, value, overridden)));
  auto password_in = [&](const std::string& member) -> std::string {
    auto secret = ResourceClient(*clusters_.client(member), kSecrets, work).get("credentials");
    if (!secret) return "";
    return base64Decode(secret.value()["data"].value("password", "")).value_or("");
  };
  ASSERT_TRUE(eventually([&] { return password_in("member1") == value; }, seconds(90)))
      << fed().manager().log();
  ASSERT_TRUE(eventually([&] { return password_in("member2") == overridden; }, seconds(90)))
      << fed().manager().log();

  // 3b. kubefedctl plan of the FederatedSecret as a file would change it (another value, and
  // another one for member2): both members' Secrets would be updated, and the diffs say so with
  // kubectl diff's masks. The same plan with the host reached through an exec plugin, a token
  // file and (refused by the server) basic authentication, so that their credentials are
  // searched in what kubefedctl writes at --v=10 too.
  const std::string planned = randomSecret("planned-value-");
  const std::string planned_overridden = randomSecret("planned-overridden-value-");
  const std::string planned_file = federatedSecret(work, planned, planned_overridden).dump();
  const RunResult plan = fed().kubefedctl({"plan", "-f", "-"}, planned_file);
  EXPECT_EQ(plan.exit_code, 1) << describe(plan);
  EXPECT_NE(plan.out.find("member1: update"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("member2: update"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("-  password: '*** (before)'"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("+  password: '*** (after)'"), std::string::npos) << plan.out;
  const std::string basic_auth_password = randomSecret("basic-auth-password-");
  const std::string other_credentials_output =
      planThroughOtherCredentials(planned_file, env("KF_HOST_TOKEN"), basic_auth_password);

  // 4. The wrong CA: Offline with KubeFed's message, and the ClusterOffline event says the TLS
  // verification failed and why.
  ASSERT_TRUE(eventually([&] { return !offlineMessage("wrong-ca").empty(); }, seconds(60)));
  EXPECT_EQ(offlineMessage("wrong-ca"), "ClusterNotReachable: cluster is not reachable");
  const std::string wrong_ca = offlineCause("wrong-ca");
  EXPECT_NE(wrong_ca.find("the server certificate did not verify"), std::string::npos) << wrong_ca;
  ASSERT_TRUE(eventually([&] { return !offlineMessage("rejected-token").empty(); }, seconds(60)));
  EXPECT_NE(offlineCause("rejected-token").find("401"), std::string::npos)
      << offlineCause("rejected-token");
  // The failed probes were recorded as Events on the clusters (so the search below covers them).
  ASSERT_TRUE(eventually([&] {
    const std::string events = eventsOf(host());
    return events.find("RetrievingClusterHealthFailed") != std::string::npos &&
           events.find("\"wrong-ca\"") != std::string::npos;
  }));

  // 5. Every credential of the run, in every form it could leak in.
  std::vector<Credential> secrets = clusterTokens();
  ASSERT_GE(secrets.size(), 4u) << "member1, member2, wrong-ca and rejected-token";
  for (const std::string cluster : {"HOST", "MEMBER1", "MEMBER2"}) {
    secrets.push_back(credential("KF_" + cluster + "_TOKEN", env("KF_" + cluster + "_TOKEN")));
    secrets.push_back(
        credential("KF_" + cluster + "_USER_TOKEN", env("KF_" + cluster + "_USER_TOKEN")));
  }
  secrets.push_back(privateKey("the admin client key", readFile(env("KF_ADMIN_KEY_FILE"))));
  secrets.push_back(privateKey("the webhook's serving key", serving_.key_pem));
  secrets.push_back(credential("the FederatedSecret's value", value));
  secrets.push_back(credential("the FederatedSecret's overridden value", overridden));
  secrets.push_back(credential("the planned value", planned));
  secrets.push_back(credential("the planned overridden value", planned_overridden));
  secrets.push_back(credential("the basic-auth password", basic_auth_password));

  // 6. Everything the processes wrote and every Event, after the manager and the webhook stop.
  EXPECT_EQ(fed().stopManager().value_or(-1), 0);
  webhook_->signal(SIGTERM);
  EXPECT_EQ(webhook_->wait(seconds(30)).value_or(-1), 0);
  const std::string host_events = eventsOf(host());
  const std::vector<std::pair<std::string, std::string>> haystacks = {
      {"the controller manager's log", fed().manager().log()},
      {"the webhook's log", webhook_->log()},
      {"kubefedctl's output", fed().kubefedctlOutput()},
      {"kubefedctl plan's output with other credentials", other_credentials_output},
      {"the host's Events", host_events},
      {"member1's Events", eventsOf(*clusters_.client("member1"))},
      {"member2's Events", eventsOf(*clusters_.client("member2"))}};
  // The search covers what it should: the runs were verbose and saw the objects involved.
  EXPECT_NE(host_events.find("\"credentials\""), std::string::npos)
      << "no Event about the FederatedSecret";
  EXPECT_NE(fed().manager().log().find("cluster=wrong-ca"), std::string::npos);
  EXPECT_NE(webhook_->log().find("Admission review path=/validate-kubefedcluster"),
            std::string::npos)
      << webhook_->log();
  EXPECT_NE(fed().kubefedctlOutput().find("member1"), std::string::npos);
  for (const auto& [where, text] : haystacks) {
    for (const auto& secret : secrets) {
      for (const auto& form : secret.forms) {
        ASSERT_FALSE(form.empty()) << secret.what;
        const auto at = text.find(form);
        // The text before it says which line leaked, without printing the credential again.
        EXPECT_EQ(at, std::string::npos)
            << secret.what << " appears in " << where << " after: ..."
            << text.substr(at > 120 ? at - 120 : 0, at > 120 ? 120 : at);
      }
    }
  }
}

}  // namespace secrets
}  // namespace
}  // namespace kf::integration
