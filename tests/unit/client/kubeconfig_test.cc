#include "federation/client/kubeconfig.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "federation/client/base64.h"

namespace kf {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kCaPem =
    "-----BEGIN CERTIFICATE-----\nQ0EgY2VydA==\n-----END CERTIFICATE-----\n";
constexpr const char* kCertPem =
    "-----BEGIN CERTIFICATE-----\nY2xpZW50IGNlcnQ=\n-----END CERTIFICATE-----\n";
constexpr const char* kKeyPem =
    "-----BEGIN PRIVATE KEY-----\nY2xpZW50IGtleQ==\n-----END PRIVATE KEY-----\n";
constexpr const char* kSecretToken = "s3cr3t-token-value";

// A fresh directory per test, removed afterwards, so tests never see each other's files.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("kubeconfig_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& relative, const std::string& contents) const {
    const fs::path file = path_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << contents;
    return file.string();
  }
  std::string path(const std::string& relative) const { return (path_ / relative).string(); }

 private:
  fs::path path_;
};

std::string b64(const std::string& text) { return base64Encode(text); }

// A one-context kubeconfig whose cluster and user bodies the test supplies.
std::string singleContextConfig(const std::string& cluster_body, const std::string& user_body,
                                const std::string& context_extra = "") {
  return "apiVersion: v1\n"
         "kind: Config\n"
         "current-context: ctx\n"
         "clusters:\n"
         "- name: c\n"
         "  cluster:\n" +
         cluster_body +
         "users:\n"
         "- name: u\n"
         "  user:\n" +
         user_body +
         "contexts:\n"
         "- name: ctx\n"
         "  context:\n"
         "    cluster: c\n"
         "    user: u\n" +
         context_extra;
}

std::string errorOf(const Result<RestConfig>& result) {
  EXPECT_FALSE(result.has_value());
  if (result.has_value()) return "";
  EXPECT_EQ(result.error().reason, Reason::kBadConfig);
  return result.error().message;
}

Result<RestConfig> loadFile(const std::string& path, const std::string& context = "") {
  return loadRestConfig(KubeconfigOptions{path, context, "", ""});
}

// ---- good files --------------------------------------------------------------------------------

TEST(KubeconfigTest, LoadsCertificatesGivenAsData) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://api.example.com:6443/prefix/\n"
                                              "    certificate-authority-data: " +
                                                  b64(kCaPem) +
                                                  "\n"
                                                  "    tls-server-name: kubernetes.internal\n"
                                                  "    proxy-url: http://proxy.example.com:3128\n",
                                              "    client-certificate-data: " + b64(kCertPem) +
                                                  "\n"
                                                  "    client-key-data: " +
                                                  b64(kKeyPem) + "\n",
                                              "    namespace: team-a\n"));
  const auto config = loadFile(path);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://api.example.com:6443/prefix");
  EXPECT_EQ(config.value().tls.ca_pem, kCaPem);
  EXPECT_EQ(config.value().tls.client_cert_pem, kCertPem);
  EXPECT_EQ(config.value().tls.client_key_pem, kKeyPem);
  EXPECT_EQ(config.value().tls.server_name, "kubernetes.internal");
  EXPECT_FALSE(config.value().tls.insecure_skip_verify);
  EXPECT_EQ(config.value().proxy_url, "http://proxy.example.com:3128");
  EXPECT_EQ(config.value().default_namespace, "team-a");
  EXPECT_TRUE(config.value().bearer_token.empty());
}

TEST(KubeconfigTest, ResolvesRelativeFilePathsAgainstTheKubeconfigDirectory) {
  TempDir dir;
  dir.write("sub/pki/ca.crt", kCaPem);
  dir.write("sub/pki/client.crt", kCertPem);
  dir.write("sub/pki/client.key", kKeyPem);
  const std::string path =
      dir.write("sub/config", singleContextConfig("    server: https://10.0.0.1:6443\n"
                                                  "    certificate-authority: pki/ca.crt\n",
                                                  "    client-certificate: pki/client.crt\n"
                                                  "    client-key: ./pki/client.key\n"));
  const auto parsed = loadKubeconfigFile(path);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed.value().clusters.at("c").certificate_authority, dir.path("sub/pki/ca.crt"));
  EXPECT_EQ(parsed.value().users.at("u").client_key, dir.path("sub/pki/client.key"));

  const auto config = restConfigFor(parsed.value(), "");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().tls.ca_pem, kCaPem);
  EXPECT_EQ(config.value().tls.client_cert_pem, kCertPem);
  EXPECT_EQ(config.value().tls.client_key_pem, kKeyPem);
}

TEST(KubeconfigTest, PrefersInlineDataOverTheFile) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n"
                                              "    certificate-authority: does-not-exist.crt\n"
                                              "    certificate-authority-data: " +
                                                  b64(kCaPem) + "\n",
                                              "    token: abc\n"));
  const auto config = loadFile(path);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().tls.ca_pem, kCaPem);
}

TEST(KubeconfigTest, UsesAnInlineToken) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n",
                                              "    token: " + std::string(kSecretToken) + "\n"));
  const auto config = loadFile(path);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().bearer_token, kSecretToken);
  EXPECT_TRUE(config.value().bearer_token_file.empty());
  EXPECT_EQ(config.value().default_namespace, "default");
}

TEST(KubeconfigTest, ReadsTheTokenFileNowAndKeepsItsPath) {
  TempDir dir;
  dir.write("tokens/sa", std::string(kSecretToken) + "\n");
  const std::string path = dir.write(
      "config", singleContextConfig("    server: https://h\n", "    tokenFile: tokens/sa\n"));
  const auto config = loadFile(path);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().bearer_token, kSecretToken);
  EXPECT_EQ(config.value().bearer_token_file, dir.path("tokens/sa"));
}

TEST(KubeconfigTest, AddsHttpsToABareServerAddress) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: h.example.com:6443\n"
                                              "    insecure-skip-tls-verify: true\n",
                                              "    token: abc\n"));
  const auto config = loadFile(path);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://h.example.com:6443");
  EXPECT_TRUE(config.value().tls.insecure_skip_verify);
}

TEST(KubeconfigTest, AllowsAContextWithoutAUser) {
  const auto parsed = parseKubeconfig(
      "current-context: anon\n"
      "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:8080'}}]\n"
      "contexts: [{name: anon, context: {cluster: c}}]\n",
      "inline");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  const auto config = restConfigFor(parsed.value(), "");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "http://127.0.0.1:8080");
  EXPECT_TRUE(config.value().bearer_token.empty());
  EXPECT_TRUE(config.value().tls.client_cert_pem.empty());
}

TEST(KubeconfigTest, TreatsAnEmptyFileAsAnEmptyConfig) {
  const auto parsed = parseKubeconfig("", "/x/config");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_TRUE(parsed.value().contexts.empty());
  EXPECT_THAT(parsed.value().sources, ElementsAre("/x/config"));
}

TEST(KubeconfigTest, ListsContextNamesSorted) {
  const auto parsed = parseKubeconfig(
      "contexts:\n"
      "- {name: member1, context: {cluster: c}}\n"
      "- {name: host, context: {cluster: c}}\n"
      "- {name: member2, context: {cluster: c}}\n",
      "inline");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_THAT(parsed.value().contextNames(), ElementsAre("host", "member1", "member2"));
}

// ---- choosing files and contexts ---------------------------------------------------------------

// Two files that both define cluster "shared", context "shared" and a current-context.
struct TwoFiles {
  std::string first;
  std::string second;
};

TwoFiles writeTwoFiles(const TempDir& dir) {
  const std::string first =
      dir.write("a/config",
                "current-context: host\n"
                "clusters:\n"
                "- {name: shared, cluster: {server: 'https://first'}}\n"
                "- {name: host, cluster: {server: 'https://host'}}\n"
                "users:\n"
                "- {name: shared, user: {token: first-token}}\n"
                "contexts:\n"
                "- {name: host, context: {cluster: host, user: shared}}\n"
                "- {name: shared, context: {cluster: shared, user: shared}}\n");
  const std::string second =
      dir.write("b/config",
                "current-context: member1\n"
                "clusters:\n"
                "- {name: shared, cluster: {server: 'https://second'}}\n"
                "- {name: member1, cluster: {server: 'https://member1'}}\n"
                "users:\n"
                "- {name: shared, user: {token: second-token}}\n"
                "contexts:\n"
                "- {name: member1, context: {cluster: member1, user: shared, namespace: m1}}\n"
                "- {name: shared, context: {cluster: member1, user: shared}}\n");
  return {first, second};
}

TEST(KubeconfigTest, MergesTheKubeconfigListWithTheFirstFileWinning) {
  TempDir dir;
  const TwoFiles files = writeTwoFiles(dir);
  const std::string list = dir.path("missing") + ":" + files.first + "::" + files.second;
  const auto merged = loadKubeconfig(KubeconfigOptions{"", "", list, ""});
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  EXPECT_THAT(merged.value().sources, ElementsAre(files.first, files.second));
  EXPECT_EQ(merged.value().current_context, "host");
  EXPECT_THAT(merged.value().contextNames(), ElementsAre("host", "member1", "shared"));
  EXPECT_EQ(merged.value().clusters.at("shared").server, "https://first");
  EXPECT_EQ(merged.value().contexts.at("shared").cluster, "shared");
  EXPECT_EQ(merged.value().users.at("shared").token, "first-token");
  EXPECT_EQ(merged.value().clusters.at("member1").source, files.second);

  const auto current = loadRestConfig(KubeconfigOptions{"", "", list, ""});
  ASSERT_TRUE(current.has_value()) << current.error().message;
  EXPECT_EQ(current.value().server, "https://host");
  EXPECT_EQ(current.value().bearer_token, "first-token");
}

TEST(KubeconfigTest, SelectsTheContextGivenByName) {
  TempDir dir;
  const TwoFiles files = writeTwoFiles(dir);
  const auto config =
      loadRestConfig(KubeconfigOptions{"", "member1", files.first + ":" + files.second, ""});
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://member1");
  EXPECT_EQ(config.value().default_namespace, "m1");
  EXPECT_EQ(config.value().bearer_token, "first-token");
}

TEST(KubeconfigTest, UsesTheExplicitPathAloneOverTheKubeconfigList) {
  TempDir dir;
  const TwoFiles files = writeTwoFiles(dir);
  const auto merged = loadKubeconfig(
      KubeconfigOptions{files.second, "", files.first + ":" + files.second, "/nonexistent"});
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  EXPECT_THAT(merged.value().sources, ElementsAre(files.second));
  EXPECT_EQ(merged.value().current_context, "member1");
  EXPECT_EQ(merged.value().clusters.at("shared").server, "https://second");
}

TEST(KubeconfigTest, FallsBackToTheHomeKubeconfig) {
  TempDir dir;
  dir.write("home/.kube/config",
            "current-context: home-ctx\n"
            "clusters: [{name: c, cluster: {server: 'https://home'}}]\n"
            "contexts: [{name: home-ctx, context: {cluster: c}}]\n");
  const auto config = loadRestConfig(KubeconfigOptions{"", "", "", dir.path("home")});
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://home");
}

// ---- bad files ---------------------------------------------------------------------------------

TEST(KubeconfigTest, RejectsInvalidBase64NamingFileAndField) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n",
                                              "    client-certificate-data: " + b64(kCertPem) +
                                                  "\n"
                                                  "    client-key-data: not*base64\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path + "\": users[name=\"u\"].user.client-key-data: invalid base64");
}

TEST(KubeconfigTest, ReportsAnUnknownContextWithTheAvailableNames) {
  TempDir dir;
  const TwoFiles files = writeTwoFiles(dir);
  EXPECT_EQ(errorOf(loadFile(files.first, "foo")),
            "kubeconfig \"" + files.first +
                "\": contexts: context \"foo\" not found (available: host, shared)");
}

TEST(KubeconfigTest, ReportsAMissingServer) {
  TempDir dir;
  const std::string path = dir.write(
      "config", singleContextConfig("    certificate-authority-data: " + b64(kCaPem) + "\n",
                                    "    token: abc\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path + "\": clusters[name=\"c\"].cluster.server: missing");
}

TEST(KubeconfigTest, ReportsAnUnusableServerUrl) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: ftp://h\n", "    token: abc\n"));
  EXPECT_THAT(errorOf(loadFile(path)),
              HasSubstr("kubeconfig \"" + path + "\": clusters[name=\"c\"].cluster.server: "));
}

TEST(KubeconfigTest, ReportsMalformedYamlWithTheLineNumber) {
  TempDir dir;
  const std::string path = dir.write("config",
                                     "apiVersion: v1\n"
                                     "clusters:\n"
                                     "- name: c\n"
                                     "  cluster: {server: [unclosed\n");
  const std::string message = errorOf(loadFile(path));
  EXPECT_THAT(message, HasSubstr("kubeconfig \"" + path + "\": invalid YAML at line "));
  EXPECT_THAT(message, Not(HasSubstr("line 1,")));
}

TEST(KubeconfigTest, ReportsAWrongTypeWithTheFieldPath) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n"
                                              "    insecure-skip-tls-verify: maybe\n",
                                              "    token: abc\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": clusters[name=\"c\"].cluster.insecure-skip-tls-verify: expected true or "
                "false");
}

TEST(KubeconfigTest, ReportsAnEntryWithoutAName) {
  const auto parsed = parseKubeconfig("users:\n- user: {token: abc}\n", "/x/config");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().message, "kubeconfig \"/x/config\": users[0].name: missing");
}

TEST(KubeconfigTest, ReportsADuplicateName) {
  const auto parsed =
      parseKubeconfig("clusters:\n- {name: c, cluster: {}}\n- {name: c, cluster: {}}\n", "/x/k");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().message, "kubeconfig \"/x/k\": clusters[name=\"c\"]: duplicate name");
}

TEST(KubeconfigTest, ReportsAMissingClusterReference) {
  TempDir dir;
  const std::string path = dir.write("config",
                                     "current-context: ctx\n"
                                     "contexts: [{name: ctx, context: {cluster: gone}}]\n");
  EXPECT_EQ(errorOf(loadFile(path)), "kubeconfig \"" + path +
                                         "\": contexts[name=\"ctx\"].context.cluster: cluster "
                                         "\"gone\" not found");
}

TEST(KubeconfigTest, ReportsAMissingUserReference) {
  TempDir dir;
  const std::string path =
      dir.write("config",
                "current-context: ctx\n"
                "clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
                "contexts: [{name: ctx, context: {cluster: c, user: nobody}}]\n");
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": contexts[name=\"ctx\"].context.user: user \"nobody\" not found");
}

TEST(KubeconfigTest, RejectsAClientCertificateWithoutAKey) {
  TempDir dir;
  const std::string path = dir.write(
      "config", singleContextConfig("    server: https://h\n",
                                    "    client-certificate-data: " + b64(kCertPem) + "\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": users[name=\"u\"].user: client-certificate is set but client-key is not");
}

TEST(KubeconfigTest, RejectsInsecureSkipVerifyTogetherWithCaData) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n"
                                              "    insecure-skip-tls-verify: true\n"
                                              "    certificate-authority-data: " +
                                                  b64(kCaPem) + "\n",
                                              "    token: abc\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": clusters[name=\"c\"].cluster.insecure-skip-tls-verify: specifying a root "
                "certificates file with the insecure flag is not allowed");
}

TEST(KubeconfigTest, ReportsNoCurrentContextAndNoContextGiven) {
  TempDir dir;
  const std::string path = dir.write("config",
                                     "clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
                                     "contexts: [{name: only, context: {cluster: c}}]\n");
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": current-context: not set and no context was given (available: only)");
}

TEST(KubeconfigTest, ReportsAnUnreadableCertificateFileNamingTheField) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n"
                                              "    certificate-authority: missing-ca.crt\n",
                                              "    token: abc\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": clusters[name=\"c\"].cluster.certificate-authority: cannot read \"" +
                dir.path("missing-ca.crt") + "\": No such file or directory");
}

TEST(KubeconfigTest, RejectsCertificateDataThatIsNotPem) {
  TempDir dir;
  const std::string path =
      dir.write("config", singleContextConfig("    server: https://h\n"
                                              "    certificate-authority-data: " +
                                                  b64("not a certificate") + "\n",
                                              "    token: abc\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": clusters[name=\"c\"].cluster.certificate-authority-data: does not contain "
                "PEM data");
}

TEST(KubeconfigTest, ReportsAnUnreadableTokenFile) {
  TempDir dir;
  const std::string path = dir.write(
      "config", singleContextConfig("    server: https://h\n", "    tokenFile: /nonexistent/t\n"));
  EXPECT_EQ(errorOf(loadFile(path)),
            "kubeconfig \"" + path +
                "\": users[name=\"u\"].user.tokenFile: cannot read \"/nonexistent/t\": No such "
                "file or directory");
}

TEST(KubeconfigTest, ListsContextsEvenWhenAnUnusedUserIsUnsupported) {
  const auto parsed = parseKubeconfig(
      "users: [{name: cloud, user: {auth-provider: {name: gcp}}}]\n"
      "contexts: [{name: cloud, context: {cluster: c, user: cloud}}]\n",
      "inline");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_THAT(parsed.value().contextNames(), ElementsAre("cloud"));
}

TEST(KubeconfigTest, ReportsAMissingExplicitFile) {
  TempDir dir;
  EXPECT_EQ(errorOf(loadFile(dir.path("nope"))),
            "kubeconfig \"" + dir.path("nope") + "\": cannot read: No such file or directory");
}

TEST(KubeconfigTest, ReportsAKubeconfigListWithoutAnyExistingFile) {
  TempDir dir;
  const std::string list = dir.path("a") + ":" + dir.path("b");
  EXPECT_EQ(errorOf(loadRestConfig(KubeconfigOptions{"", "", list, "/home/x"})),
            "KUBECONFIG \"" + list + "\": none of the listed files exist");
}

TEST(KubeconfigTest, ReportsNoPlaceToLook) {
  EXPECT_THAT(errorOf(loadRestConfig(KubeconfigOptions{})), HasSubstr("HOME"));
}

// ---- in-cluster --------------------------------------------------------------------------------

class InClusterConfigTest : public ::testing::Test {
 protected:
  InClusterEnv env(const std::string& host = "10.96.0.1") const {
    return InClusterEnv{host, "443", dir_.path("sa")};
  }
  void writeServiceAccount(bool with_namespace = true) const {
    dir_.write("sa/token", std::string(kSecretToken) + "\n");
    dir_.write("sa/ca.crt", kCaPem);
    if (with_namespace) dir_.write("sa/namespace", "kube-federation-system");
  }
  TempDir dir_;
};

TEST_F(InClusterConfigTest, BuildsTheConfigFromServiceAccountFiles) {
  writeServiceAccount();
  const auto config = inClusterRestConfig(env());
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://10.96.0.1:443");
  EXPECT_EQ(config.value().bearer_token, kSecretToken);
  EXPECT_EQ(config.value().bearer_token_file, dir_.path("sa/token"));
  EXPECT_EQ(config.value().tls.ca_pem, kCaPem);
  EXPECT_EQ(config.value().default_namespace, "kube-federation-system");
}

TEST_F(InClusterConfigTest, BracketsAnIpv6Host) {
  writeServiceAccount();
  const auto config = inClusterRestConfig(env("fd00:10:96::1"));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://[fd00:10:96::1]:443");
}

TEST_F(InClusterConfigTest, DefaultsTheNamespaceWithoutTheFile) {
  writeServiceAccount(/*with_namespace=*/false);
  const auto config = inClusterRestConfig(env());
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().default_namespace, "default");
}

TEST_F(InClusterConfigTest, RequiresTheServiceEnvironmentVariables) {
  writeServiceAccount();
  EXPECT_EQ(errorOf(inClusterRestConfig(InClusterEnv{"10.96.0.1", "", dir_.path("sa")})),
            "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must "
            "be set");
}

TEST_F(InClusterConfigTest, ReportsAnUnreadableToken) {
  dir_.write("sa/ca.crt", kCaPem);
  EXPECT_EQ(errorOf(inClusterRestConfig(env())), "in-cluster config: cannot read \"" +
                                                     dir_.path("sa/token") +
                                                     "\": No such file or directory");
}

TEST_F(InClusterConfigTest, ReportsAnUnreadableCa) {
  dir_.write("sa/token", kSecretToken);
  const std::string message = errorOf(inClusterRestConfig(env()));
  EXPECT_EQ(message, "in-cluster config: cannot read \"" + dir_.path("sa/ca.crt") +
                         "\": No such file or directory");
}

TEST_F(InClusterConfigTest, ResolvePrefersAGivenKubeconfig) {
  writeServiceAccount();
  const std::string path = dir_.write(
      "config", singleContextConfig("    server: https://from-kubeconfig\n", "    token: abc\n"));
  const auto config = resolveRestConfig(KubeconfigOptions{"", "", path, ""}, env());
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://from-kubeconfig");
}

TEST_F(InClusterConfigTest, ResolveUsesInClusterBeforeTheHomeKubeconfig) {
  writeServiceAccount();
  dir_.write("home/.kube/config", singleContextConfig("    server: https://home\n", ""));
  const auto config = resolveRestConfig(KubeconfigOptions{"", "", "", dir_.path("home")}, env());
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://10.96.0.1:443");
}

TEST_F(InClusterConfigTest, ResolveFallsBackToTheHomeKubeconfigOutsideACluster) {
  dir_.write("home/.kube/config", singleContextConfig("    server: https://home\n", ""));
  const auto config =
      resolveRestConfig(KubeconfigOptions{"", "", "", dir_.path("home")}, InClusterEnv{});
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().server, "https://home");
}

// ---- base64 ------------------------------------------------------------------------------------

TEST(KubeconfigBase64Test, RoundTripsEveryTailLength) {
  for (const std::string text : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    const auto decoded = base64Decode(base64Encode(text));
    ASSERT_TRUE(decoded.has_value()) << text;
    EXPECT_EQ(*decoded, text);
  }
  EXPECT_EQ(base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64Encode("fo"), "Zm8=");
}

TEST(KubeconfigBase64Test, SkipsLineBreaksAndToleratesMissingPadding) {
  EXPECT_EQ(base64Decode("Zm9v\nYmE=\r\n"), "fooba");
  EXPECT_EQ(base64Decode("Zm8"), "fo");
}

TEST(KubeconfigBase64Test, RejectsMalformedText) {
  EXPECT_FALSE(base64Decode("Zm9v*").has_value());
  EXPECT_FALSE(base64Decode("Z").has_value());
  EXPECT_FALSE(base64Decode("Zm=9").has_value());
  EXPECT_FALSE(base64Decode("Zm8==").has_value());
  EXPECT_FALSE(base64Decode("Zg===").has_value());
}

}  // namespace
}  // namespace kf
