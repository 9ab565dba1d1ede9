#pragma once
// Access to the local clusters that hack/local-clusters.sh brought up for the integration tests
// (the CTest fixture exports KF_RUN_DIR). Everything here talks to real API servers.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "federation/client/kubeconfig.h"
#include "federation/client/rest_client.h"

namespace kf::integration {

class LocalClusters {
 public:
  // Reads $KF_RUN_DIR/kubeconfig and $KF_RUN_DIR/env; fails the test when they are missing.
  static LocalClusters& get();

  // Admin (client-certificate) config for a context: "host", "member1", ...
  RestConfig config(const std::string& context) const;
  std::unique_ptr<RestClient> client(const std::string& context, double qps = 50, int burst = 100);
  // A value of the env file the script wrote (KF_* keys).
  std::string env(const std::string& key) const;
  const std::string& kubeconfigPath() const { return kubeconfig_path_; }

  // Runs hack/local-clusters.sh with these arguments against this run; returns its exit code.
  int script(const std::string& arguments) const;
  // Runs kubectl (the 1.32 client) against a context; returns its exit code, output in *out.
  int kubectl(const std::string& context, const std::string& arguments,
              std::string* out = nullptr) const;

 private:
  LocalClusters();

  std::string run_dir_;
  std::string kubeconfig_path_;
  Kubeconfig kubeconfig_;
  std::map<std::string, std::string> env_;
};

// A namespace unique to one test, created on construction and deleted (best effort) after.
class TestNamespace {
 public:
  TestNamespace(RestClient& client, const std::string& prefix);
  ~TestNamespace();
  const std::string& name() const { return name_; }

 private:
  RestClient& client_;
  std::string name_;
};

// Drops the finalizers of every federated object on the host (instances of the CRDs whose kind
// starts with "Federated", outside core.kubefed.io). Call it once the suite's controller manager
// has exited: otherwise the sync controller's finalizer keeps the objects, and deleting their CRD
// (as `kubefedctl disable --delete-crd` and other suites do) leaves it Terminating, refusing
// every create of that type until the run ends.
void releaseFederatedObjects(RestClient& host);

// Deletes every federated object outside `keep_namespace`, finalizers dropped first, so that no
// controller manager started later writes to the members for them (an earlier suite's objects,
// some still being deleted). For a test that counts the members' writes while no controller
// manager runs.
void deleteFederatedObjectsOutside(RestClient& host, const std::string& keep_namespace);

// Deletes a FederatedTypeConfig (in `kubefed_namespace`) and its federated type's CRD, first
// releasing the federated objects left finalized (releaseFederatedObjects), and waits until both
// are gone; returns whether they went. For suites that run no controller manager of their own
// and need the host without that type, whatever ran before them.
bool removeFederatedType(RestClient& host, const std::string& kubefed_namespace,
                         const std::string& ftc, const std::string& crd);

// Installs KubeFed's CRDs (charts/kubefed/.../crds.yaml) in the host and waits until they are
// Established. Idempotent and cheap after the first call; "" on success, else what failed.
std::string ensureKubeFedCrds();

// The repository's root directory (for files the tests read: charts, testdata). An explicit
// KF_SOURCE_DIR in the environment wins, so a test can be pointed at a modified copy.
std::string sourceDir();

// Runs a shell command; its stdout and stderr together, its exit code in *status (-1 when it
// could not run or was killed).
std::string runCommand(const std::string& command, int* status);

// The whole content of a file ("" when it cannot be read).
std::string readFile(const std::string& path);

// Whether a CustomResourceDefinition reports the condition Established=True.
bool isEstablished(const Json& crd);

// Polls `condition` until it holds or `timeout` passes; returns whether it held.
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace kf::integration
