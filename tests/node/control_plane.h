#pragma once
// The KubeFed control plane as a user installs it: `helm install` of charts/kubefed on the local
// clusters' host (which has a node), members joined with kubefedctl. Every helper waits on a
// condition with a deadline and reports what it saw when the deadline passes.

#include <chrono>
#include <string>
#include <vector>

#include "apis/meta/object.h"

namespace kf::node {

inline constexpr const char* kNamespace = "kube-federation-system";
inline constexpr const char* kRelease = "kubefed";

enum class Scope { kCluster, kNamespaced };

struct CommandResult {
  int status = 0;
  std::string output;  // stdout and stderr
};

// Shell commands, run inside the clusters' network namespace (the process entered it).
CommandResult helm(const std::string& arguments);
CommandResult kubectl(const std::string& context, const std::string& arguments);
CommandResult kubefedctl(const std::string& arguments);

// Creates the KubeFed namespace if needed and labels it: name=<namespace> (the webhooks'
// namespaceSelector in Namespaced scope) and Pod Security enforce=restricted, so that every pod
// of the chart must meet the restricted profile to run.
void prepareNamespace();
// Makes sure the chart is installed with `scope` and its pods run (installs, or uninstalls a
// release of the other scope first); then the members are joined. Fails the test on error.
void ensureInstalled(Scope scope);
// helm upgrade of the installed release with extra `--set` arguments; waits for the rollout.
void upgrade(const std::string& set_arguments);
// Deletes the FederatedTypeConfigs (their finalizer needs the controller), unjoins the members
// and runs `helm uninstall`; waits until the release's pods are gone.
void uninstall();

// The controller-manager pods' names (running ones) and the name of the one holding the lock.
std::vector<std::string> controllerPods();
std::string leaderPod();
// Logs of every current controller-manager pod, concatenated.
std::string controllerLogs();
// The leader's Prometheus metrics (its port 9090, through the host API server's pod proxy);
// "" when there is no leader or the request fails.
std::string leaderMetrics();
// controller_runtime_reconcile_duration_seconds_count{controller=`controller`} in the leader's
// metrics: how many reconciles that controller finished; -1 without metrics.
int64_t leaderReconciles(const std::string& controller);
// The host API server's own Prometheus metrics ("" on error).
std::string hostApiServerMetrics();

// GET of an object as JSON (null when absent or on error).
Json getObject(const std::string& context, const std::string& resource, const std::string& name,
               const std::string& ns = "");
// kubectl `verb` -f <a file holding `yaml`> (YAML or JSON), e.g. "create --dry-run=server".
CommandResult kubectlWithYaml(const std::string& context, const std::string& verb,
                              const std::string& yaml);
// kubectl apply of a YAML document; whether it succeeded, output in *out.
bool applyYaml(const std::string& context, const std::string& yaml, std::string* out = nullptr);

// Polls until `condition` holds or `timeout` passes.
bool waitFor(const std::function<bool()>& condition, std::chrono::seconds timeout);

}  // namespace kf::node
