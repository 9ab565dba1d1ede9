#include "tests/node/control_plane.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <thread>

#include "federation/client/resource_client.h"
#include "federation/metrics/sample_parse.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"

namespace kf::node {
namespace {

using integration::LocalClusters;

// The clusters of a run with a node live in a network namespace of their own (hack/lib/node.sh);
// the test process enters it before its first test, while it has only its main thread (setns
// changes the calling thread; every thread started later inherits it).
class ClustersNetwork : public ::testing::Environment {
 public:
  void SetUp() override {
    const std::string netns = LocalClusters::get().env("KF_NETNS");
    ASSERT_FALSE(netns.empty())
        << "the local clusters have no node: start them with KF_WITH_NODE=1";
    const int fd = open(netns.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0) << "open " << netns << ": " << std::strerror(errno);
    const int entered = setns(fd, CLONE_NEWNET);
    const int error = errno;
    close(fd);
    ASSERT_EQ(entered, 0) << "setns " << netns << ": " << std::strerror(error);
  }
};

[[maybe_unused]] ::testing::Environment* const kClustersNetwork =
    ::testing::AddGlobalTestEnvironment(new ClustersNetwork);

const std::vector<std::string> kMembers = {"member1", "member2"};

std::string quoted(const std::string& value) { return "'" + value + "'"; }

CommandResult run(const std::string& command) {
  CommandResult result;
  result.output = integration::runCommand(command, &result.status);
  return result;
}

std::string chartDir() { return integration::sourceDir() + "/charts/kubefed"; }

RestClient& clientOf(const std::string& context) {
  static std::map<std::string, std::unique_ptr<RestClient>> clients;
  auto& client = clients[context];
  if (!client) client = LocalClusters::get().client(context);
  return *client;
}

RestClient& host() { return clientOf("host"); }

GroupVersionResource gvr(const std::string& resource) {
  static const std::map<std::string, GroupVersionResource> known = {
      {"deployments", {"apps", "v1", "deployments", true}},
      {"leases", {"coordination.k8s.io", "v1", "leases", true}},
      {"kubefedconfigs", {"core.kubefed.io", "v1beta1", "kubefedconfigs", true}},
      {"kubefedclusters", {"core.kubefed.io", "v1beta1", "kubefedclusters", true}},
      {"federatedtypeconfigs", {"core.kubefed.io", "v1beta1", "federatedtypeconfigs", true}},
      {"customresourcedefinitions",
       {"apiextensions.k8s.io", "v1", "customresourcedefinitions", false}},
      {"clusterroles", {"rbac.authorization.k8s.io", "v1", "clusterroles", false}},
      {"clusterrolebindings", {"rbac.authorization.k8s.io", "v1", "clusterrolebindings", false}},
      {"roles", {"rbac.authorization.k8s.io", "v1", "roles", true}},
      {"rolebindings", {"rbac.authorization.k8s.io", "v1", "rolebindings", true}},
      {"validatingwebhookconfigurations",
       {"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", false}},
      {"mutatingwebhookconfigurations",
       {"admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations", false}},
      {"namespaces", {"", "v1", "namespaces", false}},
      {"federatedconfigmaps", {"types.kubefed.io", "v1beta1", "federatedconfigmaps", true}},
      {"federateddeployments", {"types.kubefed.io", "v1beta1", "federateddeployments", true}},
      {"nodes", {"", "v1", "nodes", false}},
      {"rolloutruns", {"rollout.kubefed-cpp.io", "v1alpha1", "rolloutruns", true}},
  };
  auto found = known.find(resource);
  return found != known.end() ? found->second : GroupVersionResource{"", "v1", resource, true};
}

int64_t readyReplicas(const std::string& deployment) {
  Json object = getObject("host", "deployments", deployment, kNamespace);
  if (!object.is_object()) return -1;
  const Json& status = object.value("status", Json::object());
  // a status written before the last change of the template says nothing about it
  if (status.value("observedGeneration", int64_t{0}) <
      object["metadata"].value("generation", int64_t{1}))
    return -1;
  // only replicas of the current template count (a rollout is over)
  if (status.value("updatedReplicas", int64_t{0}) != status.value("replicas", int64_t{0}))
    return -1;
  return status.value("readyReplicas", int64_t{0});
}

bool clusterReady(const std::string& name) {
  Json cluster = getObject("host", "kubefedclusters", name, kNamespace);
  if (!cluster.is_object()) return false;
  for (const Json& condition :
       cluster.value("status", Json::object()).value("conditions", Json::array())) {
    if (condition.value("type", "") == "Ready") return condition.value("status", "") == "True";
  }
  return false;
}

// Whether the API server reaches the webhook: a server-side dry run of an invalid KubeFedCluster
// is denied by it (rather than failing to call it).
bool webhookAnswers(std::string* answer) {
  const std::string invalid_cluster =
      std::string("apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedCluster\nmetadata:\n") +
      "  name: webhook-probe\n  namespace: " + kNamespace +
      "\nspec:\n  apiEndpoint: \"\"\n  secretRef:\n    name: none\n";
  *answer = kubectlWithYaml("host", "create --dry-run=server", invalid_cluster).output;
  return answer->find("denied the request") != std::string::npos;
}

void waitForControlPlane() {
  const int64_t replicas = 2;
  EXPECT_TRUE(waitFor([&] { return readyReplicas("kubefed-controller-manager") == replicas; },
                      std::chrono::seconds(120)))
      << kubectl("host", std::string("-n ") + kNamespace + " get pods -o wide").output;
  EXPECT_TRUE(waitFor([] { return readyReplicas("kubefed-admission-webhook") == 1; },
                      std::chrono::seconds(120)))
      << kubectl("host",
                 std::string("-n ") + kNamespace + " describe pods -l kubefed-admission-webhook")
             .output;
  EXPECT_TRUE(waitFor([] { return !leaderPod().empty(); }, std::chrono::seconds(60)))
      << "no controller-manager pod holds the leader-election lock";
  // A Ready pod is not yet a routed Service: kube-proxy may still refuse the ClusterIP.
  std::string answer;
  EXPECT_TRUE(waitFor([&] { return webhookAnswers(&answer); }, std::chrono::seconds(60)))
      << "the API server cannot reach the webhook: " << answer;
}

void joinMembers() {
  for (const std::string& member : kMembers) {
    if (!getObject("host", "kubefedclusters", member, kNamespace).is_object()) {
      // a join after an uninstall finds the member's objects of the earlier join
      CommandResult joined = kubefedctl("join " + member + " --cluster-context " + member +
                                        " --host-cluster-context host --kubefed-namespace " +
                                        kNamespace + " --error-on-existing=false");
      ASSERT_EQ(joined.status, 0) << joined.output;
    }
  }
  for (const std::string& member : kMembers) {
    EXPECT_TRUE(waitFor([&] { return clusterReady(member); }, std::chrono::seconds(90)))
        << member
        << " is not Ready: " << getObject("host", "kubefedclusters", member, kNamespace).dump()
        << "\n"
        << controllerLogs();
  }
}

std::string installedScope() {
  if (helm(std::string("status ") + kRelease + " -n " + kNamespace).status != 0) return "";
  Json config = getObject("host", "kubefedconfigs", "kubefed", kNamespace);
  return config.is_object() ? config["spec"].value("scope", "Cluster") : "unknown";
}

}  // namespace

CommandResult helm(const std::string& arguments) {
  const auto& clusters = LocalClusters::get();
  return run(quoted(clusters.env("KF_BIN_DIR") + "/helm") + " --kubeconfig " +
             quoted(clusters.kubeconfigPath()) + " --kube-context host " + arguments);
}

CommandResult kubectl(const std::string& context, const std::string& arguments) {
  CommandResult result;
  result.status = LocalClusters::get().kubectl(context, arguments, &result.output);
  return result;
}

CommandResult kubefedctl(const std::string& arguments) {
  // the subcommand comes first, then its flags
  return run(quoted(integration::builtBinary("cmd/kubefedctl/kubefedctl")) + " " + arguments +
             " --kubeconfig " + quoted(LocalClusters::get().kubeconfigPath()));
}

bool waitFor(const std::function<bool()>& condition, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return true;
}

Json getObject(const std::string& context, const std::string& resource, const std::string& name,
               const std::string& ns) {
  ResourceClient client(clientOf(context), gvr(resource), ns);
  auto object = client.get(name);
  return object ? std::move(object).value() : Json();
}

CommandResult kubectlWithYaml(const std::string& context, const std::string& verb,
                              const std::string& yaml) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("kubefed-node-test-" + std::to_string(getpid()) + ".yaml");
  { std::ofstream(file) << yaml; }
  CommandResult result = kubectl(context, verb + " -f " + quoted(file.string()));
  std::filesystem::remove(file);
  return result;
}

bool applyYaml(const std::string& context, const std::string& yaml, std::string* out) {
  CommandResult result = kubectlWithYaml(context, "apply", yaml);
  if (out != nullptr) *out = result.output;
  return result.status == 0;
}

void prepareNamespace() {
  kubectl("host", std::string("create namespace ") + kNamespace);
  CommandResult labelled =
      kubectl("host", std::string("label namespace ") + kNamespace + " name=" + kNamespace +
                          " pod-security.kubernetes.io/enforce=restricted --overwrite");
  ASSERT_EQ(labelled.status, 0) << labelled.output;
}

void ensureInstalled(Scope scope) {
  const std::string wanted = scope == Scope::kNamespaced ? "Namespaced" : "Cluster";
  const std::string current = installedScope();
  if (!current.empty() && current != wanted) uninstall();
  if (current != wanted) {
    ASSERT_NO_FATAL_FAILURE(prepareNamespace());
    CommandResult installed =
        helm(std::string("install ") + kRelease + " " + quoted(chartDir()) + " -n " + kNamespace +
             (scope == Scope::kNamespaced ? " --set global.scope=Namespaced" : ""));
    ASSERT_EQ(installed.status, 0) << installed.output;
  }
  waitForControlPlane();
  joinMembers();
}

void upgrade(const std::string& set_arguments) {
  CommandResult upgraded = helm(std::string("upgrade ") + kRelease + " " + quoted(chartDir()) +
                                " -n " + kNamespace + " --reuse-values " + set_arguments);
  ASSERT_EQ(upgraded.status, 0) << upgraded.output;
  waitForControlPlane();
}

void uninstall() {
  CommandResult deleted = kubectl(
      "host", std::string("-n ") + kNamespace + " delete federatedtypeconfigs --all --timeout=90s");
  EXPECT_EQ(deleted.status, 0) << deleted.output;
  for (const std::string& member : kMembers) {
    if (getObject("host", "kubefedclusters", member, kNamespace).is_object()) {
      CommandResult unjoined =
          kubefedctl("unjoin " + member + " --cluster-context " + member +
                     " --host-cluster-context host --kubefed-namespace " + kNamespace);
      EXPECT_EQ(unjoined.status, 0) << unjoined.output;
    }
  }
  // Unjoin deletes the member's KubeFed namespace; a join while it is still terminating is
  // refused, so the next install waits here until the members' namespace controllers are done.
  for (const std::string& member : kMembers) {
    EXPECT_TRUE(
        waitFor([&] { return !getObject(member, "namespaces", kNamespace, "").is_object(); },
                std::chrono::seconds(90)))
        << "namespace " << kNamespace << " in " << member << " outlived the unjoin";
  }
  CommandResult removed =
      helm(std::string("uninstall ") + kRelease + " -n " + kNamespace + " --wait");
  EXPECT_EQ(removed.status, 0) << removed.output;
  EXPECT_TRUE(waitFor([] { return controllerPods().empty(); }, std::chrono::seconds(60)));
}

std::vector<std::string> controllerPods() {
  ResourceClient pods(host(), gvr("pods"), kNamespace);
  ListOptions options;
  options.label_selector = "kubefed-control-plane=controller-manager";
  std::vector<std::string> names;
  auto listed = pods.list(options);
  if (!listed) return names;
  for (const Json& pod : listed.value().items) {
    if (pod["metadata"].contains("deletionTimestamp")) continue;
    names.push_back(pod["metadata"].value("name", ""));
  }
  return names;
}

std::string leaderPod() {
  // identity "<hostname>_<uuid>"; a pod's hostname is its name
  std::string holder;
  Json lease = getObject("host", "leases", "kubefed-controller-manager", kNamespace);
  if (lease.is_object()) holder = lease["spec"].value("holderIdentity", "");
  if (holder.empty()) {
    Json lock = getObject("host", "configmaps", "kubefed-controller-manager", kNamespace);
    const std::string record = lock.is_object()
                                   ? lock["metadata"]
                                         .value("annotations", Json::object())
                                         .value("control-plane.alpha.kubernetes.io/leader", "")
                                   : "";
    if (!record.empty()) holder = Json::parse(record, nullptr, false).value("holderIdentity", "");
  }
  const std::string pod = holder.substr(0, holder.rfind('_'));
  for (const std::string& name : controllerPods()) {
    if (name == pod) return pod;
  }
  return "";
}

std::string controllerLogs() {
  std::string logs;
  for (const std::string& pod : controllerPods()) {
    logs += "==== " + pod + "\n" +
            kubectl("host", std::string("-n ") + kNamespace + " logs " + pod).output;
  }
  return logs;
}

std::string leaderMetrics() {
  const std::string pod = leaderPod();
  if (pod.empty()) return "";
  auto response = host().send({.path = std::string("/api/v1/namespaces/") + kNamespace + "/pods/" +
                                       pod + ":9090/proxy/metrics"});
  return response && response.value().status == 200 ? response.value().body : "";
}

int64_t leaderReconciles(const std::string& controller) {
  int64_t total = -1;
  for (const metrics::Sample& sample : metrics::samplesNamed(
           leaderMetrics(), "controller_runtime_reconcile_duration_seconds_count")) {
    const auto label = sample.labels.find("controller");
    if (label == sample.labels.end() || label->second != controller) continue;
    total = std::max<int64_t>(total, 0) + static_cast<int64_t>(sample.value);
  }
  return total;
}

std::string hostApiServerMetrics() {
  auto response = host().send({.path = "/metrics"});
  return response && response.value().status == 200 ? response.value().body : "";
}

}  // namespace kf::node
