#include "tests/integration/local_clusters.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "federation/client/resource_client.h"

namespace kf::integration {
namespace {

// spdlog creates its registry on the first log call. Done here, before any test starts threads,
// so that two threads logging first at once do not race on it (ThreadSanitizer sees the race:
// the registry is built inside the uninstrumented libspdlog).
[[maybe_unused]] const bool kLoggingReady = static_cast<bool>(spdlog::default_logger());

std::map<std::string, std::string> readEnvFile(const std::string& path) {
  std::map<std::string, std::string> values;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("export ", 0) == 0) line.erase(0, 7);
    const auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    std::string value = line.substr(eq + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    values[line.substr(0, eq)] = value;
  }
  return values;
}

std::string kubectlBinary() {
  const char* preferred = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32";
  return std::ifstream(preferred).good() ? preferred : "kubectl";
}

std::string uniqueSuffix() {
  static std::atomic<int> counter{0};
  std::random_device random;
  return std::to_string(random() % 100000) + "-" + std::to_string(++counter);
}

}  // namespace

std::string runCommand(const std::string& command, int* status) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    *status = -1;
    return output;
  }
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  const int raw = pclose(pipe);
  *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return output;
}

LocalClusters& LocalClusters::get() {
  static LocalClusters clusters;
  return clusters;
}

LocalClusters::LocalClusters() {
  const char* run_dir = std::getenv("KF_RUN_DIR");
  if (run_dir == nullptr) {
    ADD_FAILURE() << "KF_RUN_DIR is not set: run the integration tests through ctest, whose "
                     "fixture brings the local clusters up";
    return;
  }
  run_dir_ = run_dir;
  kubeconfig_path_ = run_dir_ + "/kubeconfig";
  auto loaded = loadKubeconfigFile(kubeconfig_path_);
  if (!loaded) {
    ADD_FAILURE() << loaded.error().describe();
    return;
  }
  kubeconfig_ = std::move(loaded).value();
  env_ = readEnvFile(run_dir_ + "/env");
}

RestConfig LocalClusters::config(const std::string& context) const {
  auto config = restConfigFor(kubeconfig_, context);
  EXPECT_TRUE(config) << (config ? "" : config.error().describe());
  return config ? config.value() : RestConfig{};
}

std::unique_ptr<RestClient> LocalClusters::client(const std::string& context, double qps,
                                                  int burst) {
  RestConfig rest = config(context);
  rest.qps = qps;
  rest.burst = burst;
  auto client = RestClient::create(rest, realClock());
  EXPECT_TRUE(client) << (client ? "" : client.error().describe());
  return client ? std::move(client).value() : nullptr;
}

std::string LocalClusters::env(const std::string& key) const {
  auto it = env_.find(key);
  EXPECT_NE(it, env_.end()) << "no " << key << " in " << run_dir_ << "/env";
  return it == env_.end() ? std::string() : it->second;
}

int LocalClusters::script(const std::string& arguments) const {
  int status = 0;
  const std::string output = runCommand(
      "KF_RUN_DIR='" + run_dir_ + "' '" + sourceDir() + "/hack/local-clusters.sh' " + arguments,
      &status);
  if (status != 0) ADD_FAILURE() << "local-clusters.sh " << arguments << ":\n" << output;
  return status;
}

int LocalClusters::kubectl(const std::string& context, const std::string& arguments,
                           std::string* out) const {
  int status = 0;
  std::string output = runCommand(kubectlBinary() + " --kubeconfig '" + kubeconfig_path_ +
                                      "' --context " + context + " " + arguments,
                                  &status);
  if (out != nullptr) *out = std::move(output);
  return status;
}

TestNamespace::TestNamespace(RestClient& client, const std::string& prefix)
    : client_(client), name_(prefix + "-" + uniqueSuffix()) {
  ResourceClient namespaces(client_, {"", "v1", "namespaces", false});
  auto created = namespaces.create(
      {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name_}}}});
  EXPECT_TRUE(created) << (created ? "" : created.error().describe());
}

TestNamespace::~TestNamespace() {
  // Without a kube-controller-manager the namespace stays Terminating; its objects are test
  // litter in a throw-away etcd, removed with the run directory.
  ResourceClient namespaces(client_, {"", "v1", "namespaces", false});
  (void)namespaces.remove(name_);
}

namespace {

// Calls `visit` with every federated object on the host (instances of the CRDs whose kind starts
// with "Federated", outside core.kubefed.io) and a client of its resource in its namespace.
void forEachFederatedObject(RestClient& host,
                            const std::function<void(ResourceClient&, const Json&)>& visit) {
  auto crds =
      ResourceClient(host, {"apiextensions.k8s.io", "v1", "customresourcedefinitions", false})
          .listAll({});
  if (!crds) return;
  for (const Json& crd : crds.value().items) {
    const Json& spec = crd["spec"];
    const std::string kind = spec["names"].value("kind", "");
    if (!kind.starts_with("Federated") || spec.value("group", "") == "core.kubefed.io") continue;
    for (const Json& version : spec["versions"]) {
      if (!version.value("storage", false)) continue;
      const GroupVersionResource resource{spec.value("group", ""), version.value("name", ""),
                                          spec["names"].value("plural", ""),
                                          spec.value("scope", "") == "Namespaced"};
      auto objects = ResourceClient(host, resource, "").listAll({});
      if (!objects) continue;
      for (const Json& object : objects.value().items) {
        ResourceClient client(host, resource, object["metadata"].value("namespace", ""));
        visit(client, object);
      }
    }
  }
}

void dropFinalizers(ResourceClient& client, const Json& object) {
  if (!object["metadata"].contains("finalizers")) return;
  (void)client.patch(object["metadata"].value("name", ""), PatchType::kMerge,
                     R"({"metadata":{"finalizers":null}})");
}

}  // namespace

void releaseFederatedObjects(RestClient& host) { forEachFederatedObject(host, dropFinalizers); }

void deleteFederatedObjectsOutside(RestClient& host, const std::string& keep_namespace) {
  forEachFederatedObject(host, [&](ResourceClient& client, const Json& object) {
    if (object["metadata"].value("namespace", "") == keep_namespace) return;
    dropFinalizers(client, object);
    (void)client.remove(object["metadata"].value("name", ""));
  });
}

bool removeFederatedType(RestClient& host, const std::string& kubefed_namespace,
                         const std::string& ftc, const std::string& crd) {
  const GroupVersionResource type_configs{"core.kubefed.io", "v1beta1", "federatedtypeconfigs",
                                          true};
  const GroupVersionResource crds{"apiextensions.k8s.io", "v1", "customresourcedefinitions", false};
  releaseFederatedObjects(host);
  (void)ResourceClient(host, type_configs, kubefed_namespace).remove(ftc);
  (void)ResourceClient(host, crds, "").remove(crd);
  const auto gone = [](const Result<Json>& read) { return !read && isNotFound(read.error()); };
  return eventually([&] {
    return gone(ResourceClient(host, crds, "").get(crd)) &&
           gone(ResourceClient(host, type_configs, kubefed_namespace).get(ftc));
  });
}

std::string ensureKubeFedCrds() {
  static std::mutex mu;
  static bool installed = false;
  std::lock_guard lock(mu);
  if (installed) return "";
  const std::string crds = sourceDir() + "/charts/kubefed/charts/controllermanager/crds/crds.yaml";
  auto& clusters = LocalClusters::get();
  std::string out;
  if (clusters.kubectl("host", "apply --server-side -f '" + crds + "'", &out) != 0) {
    return "kubectl apply of " + crds + " failed: " + out;
  }
  if (clusters.kubectl("host", "wait --for condition=established --timeout=60s -f '" + crds + "'",
                       &out) != 0) {
    return "KubeFed CRDs did not become Established: " + out;
  }
  installed = true;
  return "";
}

std::string sourceDir() {
  if (const char* dir = std::getenv("KF_SOURCE_DIR"); dir != nullptr && *dir != '\0') return dir;
  return KF_SOURCE_DIR;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

bool isEstablished(const Json& crd) {
  for (const Json& condition :
       crd.value("status", Json::object()).value("conditions", Json::array())) {
    if (condition.value("type", "") == "Established" && condition.value("status", "") == "True") {
      return true;
    }
  }
  return false;
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    // Polling a real server: a short pause between probes, bounded by the deadline.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return condition();
}

}  // namespace kf::integration
