#pragma once
// One kubeconfig user's exec credential plugin: runs it when a credential is needed and none is
// cached, again shortly before the cached one expires, and again when the server rejects it
// (401). Thread-safe; one run at a time. Clients built from the same kubeconfig user share one
// instance (sharedExecPlugin), so a controller manager with many clients runs the plugin once.

#include <memory>

#include "federation/client/exec_credential.h"
#include "federation/client/plugin_runner.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class ExecPlugin {
 public:
  ExecPlugin(ExecConfig config, PluginRunnerPtr runner, Clock& clock);

  // The cached credential, or a fresh one when there is none or it expires within a few seconds.
  // Errors name the kubeconfig entry and say what went wrong (never the credential).
  Result<ExecCredential> credential();

  // The server answered 401 to a request sent with `rejected`. Unless the plugin already
  // replaced it, runs the plugin again now; true when the next credential() differs, so that the
  // request is worth sending again. A failed run keeps the old credential and is logged.
  bool renewAfterRejection(const ExecCredential& rejected);

 private:
  bool usableLocked() const KF_REQUIRES(mu_);
  Status runLocked() KF_REQUIRES(mu_);
  ApiError failure(const std::string& problem) const;

  const ExecConfig config_;
  const PluginRunnerPtr runner_;
  Clock& clock_;
  Mutex mu_;
  std::optional<ExecCredential> cached_ KF_GUARDED_BY(mu_);
};

// The process-wide instance for this plugin configuration (command, arguments, environment,
// version, cluster information) and clock, created on first use and kept while a client uses it.
std::shared_ptr<ExecPlugin> sharedExecPlugin(const ExecConfig& config, Clock& clock);

}  // namespace kf
