// The built kubefedctl against the real host cluster: `federate` (spec §3.5) with each of its
// flags and error paths, and `orphaning-deletion` (spec §3.6).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "federation/client/resource_client.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

namespace fs = std::filesystem;

const char* kFederateKubefedNamespace = "kube-federation-system";
const GroupVersionResource kFederatedSecrets{"types.kubefed.io", "v1beta1", "federatedsecrets",
                                             true};
const GroupVersionResource kFederatedServiceAccounts{"types.kubefed.io", "v1beta1",
                                                     "federatedserviceaccounts", true};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class FederateE2ETest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    auto client = LocalClusters::get().client("host");
    (void)ResourceClient(*client, kNamespaces)
        .create({{"apiVersion", "v1"},
                 {"kind", "Namespace"},
                 {"metadata", {{"name", kFederateKubefedNamespace}}}});
  }

  void SetUp() override {
    ns_ = std::make_unique<TestNamespace>(*client_, "kfctl-fed");
    dir_ = fs::temp_directory_path() / ("kfctl-fed-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }

  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  const std::string& ns() const { return ns_->name(); }

  void enable(const std::string& type) {
    RunResult enabled = runKubefedctl({"enable", type});
    ASSERT_EQ(enabled.exit_code, 0) << describe(enabled);
  }

  // Leaves the type disabled, as other tests expect the host.
  void removeType(const std::string& ftc, const std::string& crd) {
    ASSERT_TRUE(removeFederatedType(*client_, kFederateKubefedNamespace, ftc, crd))
        << crd << " or FederatedTypeConfig " << ftc << " outlived their deletion";
  }

  void createConfigMap(const std::string& name, const Json& extra_metadata = Json::object()) {
    Json metadata = {{"name", name}};
    metadata.update(extra_metadata);
    auto created = ResourceClient(*client_, kConfigMaps, ns())
                       .create({{"apiVersion", "v1"},
                                {"kind", "ConfigMap"},
                                {"metadata", metadata},
                                {"data", {{"key", "value-" + name}}}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  void createSecret(const std::string& name) {
    auto created = ResourceClient(*client_, kSecrets, ns())
                       .create({{"apiVersion", "v1"},
                                {"kind", "Secret"},
                                {"metadata", {{"name", name}}},
                                {"type", "Opaque"},
                                {"data", {{"k", "dg=="}}}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  Result<Json> federated(const GroupVersionResource& type, const std::string& name) {
    return ResourceClient(*client_, type, ns()).get(name);
  }

  fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
  }

  std::unique_ptr<RestClient> client_ = LocalClusters::get().client("host");
  std::unique_ptr<TestNamespace> ns_;
  fs::path dir_;
};

TEST_F(FederateE2ETest, FederatesAnObjectIntoItsFederatedType) {
  enable("configmaps");
  createConfigMap("settings", {{"labels", {{"app", "shop"}}}, {"annotations", {{"note", "x"}}}});
  RunResult run = runKubefedctl({"federate", "configmaps", "settings", "-n", ns()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "");
  // Logged as klog logs: on stderr.
  EXPECT_TRUE(contains(
      run.err, "Successfully created FederatedConfigMap \"" + ns() + "/settings\" from ConfigMap"))
      << run.err;
  EXPECT_TRUE(contains(run.err, "Annotations defined for ConfigMap \"" + ns() +
                                    "/settings\" will not appear in the template"))
      << run.err;
  auto object = federated(kFederatedConfigMaps, "settings");
  ASSERT_TRUE(object) << object.error().describe();
  EXPECT_EQ(object.value()["spec"]["template"],
            Json::parse(
                R"({"data": {"key": "value-settings"}, "metadata": {"labels": {"app": "shop"}}})"));
  EXPECT_EQ(object.value()["spec"]["placement"],
            Json::parse(R"({"clusterSelector": {"matchLabels": {}}})"));

  // Federating it again fails: the federated object exists.
  RunResult again = runKubefedctl({"federate", "cm", "settings", "--namespace", ns()});
  EXPECT_EQ(again.exit_code, 255) << describe(again);
  EXPECT_TRUE(
      contains(again.err, "Error: Error creating federated resource \"" + ns() + "/settings\": "))
      << again.err;
  EXPECT_TRUE(contains(again.err, "already exists")) << again.err;
}

TEST_F(FederateE2ETest, ReportsUnknownTypesMissingObjectsAndTypesNotEnabled) {
  RunResult unknown = runKubefedctl({"federate", "nosuchthings", "x", "-n", ns()});
  EXPECT_EQ(unknown.exit_code, 255);
  EXPECT_EQ(unknown.err,
            "Error: Failed to find target API resource nosuchthings: Unable to find api resource "
            "named \"nosuchthings\".\n");

  enable("configmaps");
  RunResult missing = runKubefedctl({"federate", "configmaps", "absent", "-n", ns()});
  EXPECT_EQ(missing.exit_code, 255);
  EXPECT_EQ(missing.err, "Error: Error retrieving target ConfigMap \"" + ns() +
                             "/absent\": configmaps \"absent\" not found\n");

  removeType("secrets", "federatedsecrets.types.kubefed.io");
  createSecret("token");
  RunResult not_enabled = runKubefedctl({"federate", "secrets", "token", "-n", ns()});
  EXPECT_EQ(not_enabled.exit_code, 255);
  EXPECT_TRUE(contains(not_enabled.err,
                       "\"secrets\" not found. Consider using '--enable-type' to "
                       "optionally enable type while federating the resource"))
      << not_enabled.err;

  createConfigMap("plain");
  RunResult contents = runKubefedctl({"federate", "configmaps", "plain", "-n", ns(), "-c"});
  EXPECT_EQ(contents.exit_code, 255);
  EXPECT_EQ(contents.err, "Error: Flag '--contents' can only be used with type 'namespaces'.\n");
  EXPECT_FALSE(federated(kFederatedConfigMaps, "plain"));
}

TEST_F(FederateE2ETest, OutputYamlNeedsNoTypeConfigAndCreatesNothing) {
  removeType("secrets", "federatedsecrets.types.kubefed.io");
  createSecret("token");
  RunResult run = runKubefedctl({"federate", "secrets", "token", "-n", ns(), "-o", "yaml"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out,
            "---\napiVersion: types.kubefed.io/v1beta1\nkind: FederatedSecret\n"
            "metadata:\n  name: token\n  namespace: " +
                ns() +
                "\nspec:\n  placement:\n    clusterSelector:\n      matchLabels: {}\n"
                "  template:\n    data:\n      k: dg==\n    type: Opaque\n");
  EXPECT_FALSE(ResourceClient(*client_, kCrds).get("federatedsecrets.types.kubefed.io"));
}

TEST_F(FederateE2ETest, EnableTypeEnablesTheTypeFirstAndRetriesUntilItIsServed) {
  removeType("secrets", "federatedsecrets.types.kubefed.io");
  createSecret("token");
  RunResult run = runKubefedctl({"federate", "secrets", "token", "-n", ns(), "--enable-type"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out,
            "customresourcedefinition.apiextensions.k8s.io/federatedsecrets.types.kubefed.io "
            "created\nfederatedtypeconfig.core.kubefed.io/secrets created in namespace "
            "kube-federation-system\n");
  EXPECT_TRUE(federated(kFederatedSecrets, "token"));
  RunResult both = runKubefedctl({"federate", "secrets", "token", "-n", ns(), "-t", "-o", "yaml"});
  EXPECT_EQ(both.exit_code, 255);
  EXPECT_EQ(both.err, "Error: Flag '--enable-type' cannot be used with '--output [yaml]'\n");
  (void)ResourceClient(*client_, kFederatedSecrets, ns()).remove("token");
  removeType("secrets", "federatedsecrets.types.kubefed.io");
}

TEST_F(FederateE2ETest, NamespaceDefaultsToTheHostContextsNamespace) {
  enable("configmaps");
  createConfigMap("from-context");
  // A copy of the kubeconfig whose host context names the test's namespace.
  const fs::path kubeconfig = dir_ / "kubeconfig";
  fs::copy_file(LocalClusters::get().kubeconfigPath(), kubeconfig);
  std::string output;
  ASSERT_EQ(LocalClusters::get().kubectl("host",
                                         "config set-context host --namespace " + ns() +
                                             " --kubeconfig " + kubeconfig.string(),
                                         &output),
            0)
      << output;
  RunResult run = runShell(shellQuoted(kubefedctlBinary()) +
                           " federate configmaps from-context --host-cluster-context host "
                           "--kubeconfig " +
                           shellQuoted(kubeconfig.string()));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(federated(kFederatedConfigMaps, "from-context"));
}

TEST_F(FederateE2ETest, DryRunCreatesNothing) {
  enable("configmaps");
  createConfigMap("dry");
  RunResult run = runKubefedctl({"federate", "configmaps", "dry", "-n", ns(), "--dry-run"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(contains(run.err, "Successfully created FederatedConfigMap")) << run.err;
  EXPECT_FALSE(federated(kFederatedConfigMaps, "dry"));
}

TEST_F(FederateE2ETest, ContentsFederatesTheNamespaceAndWhatItHolds) {
  enable("namespaces");
  enable("configmaps");
  enable("secrets");
  createConfigMap("one");
  createSecret("two");
  // The namespace's ServiceAccount "default" (kube-controller-manager creates it) is skipped.
  RunResult run =
      runKubefedctl({"federate", "namespaces", ns(), "--contents", "-s", "serviceaccounts"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(federated(kFederatedNamespaces, ns()));
  EXPECT_TRUE(federated(kFederatedConfigMaps, "one"));
  EXPECT_TRUE(federated(kFederatedSecrets, "two"));
  EXPECT_FALSE(federated(kFederatedServiceAccounts, "default"));
  EXPECT_TRUE(contains(run.err, "Resource to federate is a namespace")) << run.err;

  // As YAML: the namespace first, then each type; empty skip names are ignored, repeated -s add.
  RunResult yaml =
      runKubefedctl({"federate", "namespaces", ns(), "-c", "-o", "yaml", "-s", "serviceaccounts,"});
  ASSERT_EQ(yaml.exit_code, 0) << describe(yaml);
  EXPECT_EQ(yaml.out.find("---\napiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace"),
            0u)
      << yaml.out;
  EXPECT_TRUE(contains(yaml.out, "kind: FederatedConfigMap\nmetadata:\n  name: one\n"));
  EXPECT_TRUE(contains(yaml.out, "kind: FederatedSecret\nmetadata:\n  name: two\n"));
  EXPECT_FALSE(contains(yaml.out, "FederatedServiceAccount"));
  // RBAC allows names that member clusters of other types would not: skipped with a warning.
  auto role = ResourceClient(*client_, kRoles, ns())
                  .create({{"apiVersion", "rbac.authorization.k8s.io/v1"},
                           {"kind", "Role"},
                           {"metadata", {{"name", "reader:all"}}},
                           {"rules", Json::array()}});
  ASSERT_TRUE(role) << role.error().describe();
  RunResult skipped =
      runKubefedctl({"federate", "namespaces", ns(), "-c", "-o", "yaml", "-s", "serviceaccounts"});
  ASSERT_EQ(skipped.exit_code, 0) << describe(skipped);
  EXPECT_TRUE(contains(skipped.err,
                       "Skipping resource reader:all of type roles because it does "
                       "not conform to the DNS-1123 subdomain spec."))
      << skipped.err;
  EXPECT_FALSE(contains(skipped.out, "reader:all")) << skipped.out;

  RunResult no_core = runKubefedctl({"federate", "namespaces", ns(), "-c", "-o", "yaml", "-s",
                                     "serviceaccounts", "-s", "secrets"});
  ASSERT_EQ(no_core.exit_code, 0) << describe(no_core);
  EXPECT_FALSE(contains(no_core.out, "FederatedSecret"));
  EXPECT_TRUE(contains(no_core.out, "FederatedConfigMap"));
  removeType("secrets", "federatedsecrets.types.kubefed.io");
  removeType("namespaces", "federatednamespaces.types.kubefed.io");
}

TEST_F(FederateE2ETest, FilenameReadsDocumentsDirectoriesAndStdin) {
  const std::string deployment =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n"
      "spec:\n  replicas: 2\n";
  const fs::path file = write("two.yaml", deployment +
                                              "---\napiVersion: v1\nkind: Namespace\nmetadata:\n"
                                              "  name: shop\n");
  RunResult from_file = runKubefedctl({"federate", "-f", file.string()});
  ASSERT_EQ(from_file.exit_code, 0) << describe(from_file);
  EXPECT_EQ(from_file.out,
            "---\napiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\nmetadata:\n"
            "  name: web\n  namespace: shop\nspec:\n  placement:\n    clusterSelector:\n"
            "      matchLabels: {}\n  template:\n    spec:\n      replicas: 2\n"
            "---\napiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\nmetadata:\n"
            "  name: shop\n  namespace: shop\nspec:\n  placement:\n    clusterSelector:\n"
            "      matchLabels: {}\n  template: {}\n");

  write("dir/a.json", R"({"apiVersion": "v1", "kind": "ConfigMap",
                          "metadata": {"name": "a", "namespace": "shop"}})");
  write("dir/b.yaml", deployment);
  write("dir/README.md", "# not read\n");
  RunResult from_dir = runKubefedctl({"federate", "--filename", (dir_ / "dir").string()});
  ASSERT_EQ(from_dir.exit_code, 0) << describe(from_dir);
  EXPECT_LT(from_dir.out.find("kind: FederatedConfigMap"),
            from_dir.out.find("kind: FederatedDeployment"));

  RunResult from_stdin = runKubefedctl({"federate", "-f", "-"}, deployment);
  ASSERT_EQ(from_stdin.exit_code, 0) << describe(from_stdin);
  EXPECT_TRUE(contains(from_stdin.out, "kind: FederatedDeployment")) << from_stdin.out;
}

TEST_F(FederateE2ETest, FilenameErrorsNameWhatCouldNotBeRead) {
  const fs::path bad = write("bad.yaml", "apiVersion: v1\nkind: [unclosed\n");
  RunResult bad_yaml = runKubefedctl({"federate", "-f", bad.string()});
  EXPECT_EQ(bad_yaml.exit_code, 255);
  EXPECT_EQ(bad_yaml.err.rfind("Error: Failed to load yaml from file \"" + bad.string() +
                                   "\": " + bad.string() + ": error parsing YAML",
                               0),
            0u)
      << bad_yaml.err;
  EXPECT_EQ(bad_yaml.out, "");

  // A directory whose entry cannot be read (even by root: it points nowhere).
  fs::create_directories(dir_ / "broken");
  fs::create_symlink(dir_ / "nowhere.yaml", dir_ / "broken" / "gone.yaml");
  RunResult unreadable = runKubefedctl({"federate", "-f", (dir_ / "broken").string()});
  EXPECT_EQ(unreadable.exit_code, 255);
  EXPECT_TRUE(contains(unreadable.err, "cannot read \"" + (dir_ / "broken" / "gone.yaml").string() +
                                           "\": No such file or directory"))
      << unreadable.err;
  if (::geteuid() != 0) {
    fs::create_directories(dir_ / "closed");
    fs::permissions(dir_ / "closed", fs::perms::none);
    RunResult closed = runKubefedctl({"federate", "-f", (dir_ / "closed").string()});
    fs::permissions(dir_ / "closed", fs::perms::owner_all);
    EXPECT_EQ(closed.exit_code, 255);
    EXPECT_TRUE(contains(closed.err, "cannot read directory")) << closed.err;
  }

  RunResult bad_stdin = runKubefedctl({"federate", "-f", "-"}, "- just\n- a list\n");
  EXPECT_EQ(bad_stdin.exit_code, 255);
  EXPECT_TRUE(contains(bad_stdin.err, "standard input is not an object")) << bad_stdin.err;

  RunResult with_args = runKubefedctl({"federate", "-f", bad.string(), "configmaps", "x"});
  EXPECT_EQ(with_args.exit_code, 255);
  EXPECT_EQ(with_args.err,
            "Error: Flag '--filename' does not take any args. Got args: "
            "[configmaps x]\n");
}

TEST_F(FederateE2ETest, LogsGoToTheLogFileWithLogtostderrFalse) {
  enable("configmaps");
  createConfigMap("logged");
  const fs::path log = dir_ / "kubefedctl.log";
  RunResult run = runKubefedctl({"federate", "configmaps", "logged", "-n", ns(), "--v=2",
                                 "--logtostderr=false", "--log-file", log.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_FALSE(contains(run.err, "Successfully created")) << run.err;
  EXPECT_TRUE(contains(readFile(log.string()), "] Successfully created FederatedConfigMap"))
      << readFile(log.string());

  RunResult bare = runKubefedctl({"federate", "configmaps", "logged", "-n", ns(), "-o", "yaml",
                                  "--skip-headers", "--vmodule=federate=4", "-v", "1"});
  ASSERT_EQ(bare.exit_code, 0) << describe(bare);
  EXPECT_TRUE(contains(bare.err, "--vmodule is accepted but ignored")) << bare.err;
  EXPECT_EQ(bare.err.rfind("--vmodule", 0), 0u) << "no klog header: " << bare.err;
}

TEST_F(FederateE2ETest, OrphaningDeletionEnablesDisablesAndReports) {
  enable("configmaps");
  createConfigMap("kept");
  RunResult federate = runKubefedctl({"federate", "configmaps", "kept", "-n", ns()});
  ASSERT_EQ(federate.exit_code, 0) << describe(federate);
  auto orphan = [&](const std::string& action, const std::string& type = "federatedconfigmaps") {
    return runKubefedctl({"orphaning-deletion", action, type, "kept", "-n", ns()});
  };
  auto annotation = [&] {
    auto object = federated(kFederatedConfigMaps, "kept");
    return object ? object.value()["metadata"]
                        .value("annotations", Json::object())
                        .value("kubefed.io/orphan", "<none>")
                  : "<error>";
  };

  EXPECT_EQ(orphan("status").out, "Disabled\n");
  RunResult enabled = orphan("enable");
  ASSERT_EQ(enabled.exit_code, 0) << describe(enabled);
  EXPECT_EQ(enabled.out, "");
  EXPECT_EQ(annotation(), "true");
  EXPECT_EQ(orphan("status", "FederatedConfigMap").out, "Enabled\n");
  EXPECT_EQ(orphan("enable").exit_code, 0);  // already enabled: nothing to do
  RunResult disabled = orphan("disable");
  ASSERT_EQ(disabled.exit_code, 0) << describe(disabled);
  EXPECT_EQ(annotation(), "<none>");
  EXPECT_EQ(orphan("status", "fcm").out, "Disabled\n");

  RunResult not_federated =
      runKubefedctl({"orphaning-deletion", "status", "cm", "kept", "-n", ns()});
  EXPECT_EQ(not_federated.exit_code, 0) << describe(not_federated);
  EXPECT_EQ(not_federated.out,
            "Warning: configmaps/v1 might not be a federated resource\nDisabled\n");

  RunResult missing =
      runKubefedctl({"orphaning-deletion", "enable", "federatedconfigmaps", "absent", "-n", ns()});
  EXPECT_EQ(missing.exit_code, 255);
  EXPECT_EQ(missing.err, "Error: Failed to retrieve resource: \"" + ns() +
                             "/absent\": federatedconfigmaps.types.kubefed.io \"absent\" not "
                             "found\n");
  RunResult no_type = runKubefedctl({"orphaning-deletion", "status", "nosuchthings", "x"});
  EXPECT_EQ(no_type.exit_code, 255);
  EXPECT_EQ(no_type.err,
            "Error: Failed to find targeted nosuchthings type: Unable to find api "
            "resource named \"nosuchthings\".\n");
  RunResult no_name = runKubefedctl({"orphaning-deletion", "status", "fcm"});
  EXPECT_EQ(no_name.exit_code, 255);
  EXPECT_EQ(no_name.err, "Error: resource name is required\n");
  RunResult help = runKubefedctl({"orphaning-deletion", "enable", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_FALSE(contains(help.out, "--kubefed-namespace")) << "hidden, as in KubeFed";
  EXPECT_TRUE(contains(help.out, "-n, --namespace string")) << help.out;
}

}  // namespace
}  // namespace kf::integration
