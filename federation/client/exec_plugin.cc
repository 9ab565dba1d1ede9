#include "federation/client/exec_plugin.h"

#include <spdlog/spdlog.h>

#include <map>

#include "apis/meta/time.h"

namespace kf {
namespace {

// Renewed this long before it expires, so that no request leaves with a credential that expires
// on its way (client-go waits for the expiry itself).
constexpr auto kRenewBeforeExpiry = std::chrono::seconds(10);

constexpr const char* kPluginDocs =
    "https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
    "#client-go-credential-plugins";

bool sameCredential(const ExecCredential& a, const ExecCredential& b) {
  return a.token == b.token && a.certificate == b.certificate;
}

}  // namespace

ExecPlugin::ExecPlugin(ExecConfig config, PluginRunnerPtr runner, Clock& clock)
    : config_(std::move(config)), runner_(std::move(runner)), clock_(clock) {}

ApiError ExecPlugin::failure(const std::string& problem) const {
  return makeError(Reason::kBadConfig, config_.origin + ": getting credentials: " + problem);
}

bool ExecPlugin::usableLocked() const {
  if (!cached_) return false;
  return !cached_->expiry || clock_.wallNow() + kRenewBeforeExpiry < *cached_->expiry;
}

Status ExecPlugin::runLocked() {
  auto interactive = execInteractive(config_);
  if (!interactive) return failure(interactive.error().message);
  PluginCommand command{config_.command, config_.args, config_.env};
  command.env.emplace_back(kExecInfoEnv, execInfo(config_, interactive.value()));
  auto exit = runner_->run(command);
  if (!exit) {
    if (exit.error().reason != Reason::kNotFound) return failure("exec: " + exit.error().message);
    std::string message =
        "exec: " + exit.error().message +
        "\n\nIt looks like you are trying to use a client-go credential plugin that is not "
        "installed.\n\nTo learn more about this feature, consult the documentation available "
        "at:\n      " +
        kPluginDocs;
    if (!config_.install_hint.empty()) message += "\n\n" + config_.install_hint;
    return failure(message);
  }
  if (exit.value().signal != 0) {
    return failure("exec: executable " + config_.command + " was killed by signal " +
                   std::to_string(exit.value().signal));
  }
  if (exit.value().exit_code != 0) {
    return failure("exec: executable " + config_.command + " failed with exit code " +
                   std::to_string(exit.value().exit_code));
  }
  auto parsed = parseExecCredential(exit.value().output, config_);
  if (!parsed) return failure(parsed.error().message);
  cached_ = std::move(parsed).value();
  spdlog::debug("{}: the exec plugin {} issued a {}{}", config_.origin, config_.command,
                cached_->certificate ? "client certificate" : "token",
                cached_->expiry ? " valid until " + meta::formatTime(*cached_->expiry) : "");
  return boost::outcome_v2::success();
}

Result<ExecCredential> ExecPlugin::credential() {
  MutexLock lock(mu_);
  if (usableLocked()) return *cached_;
  auto ran = runLocked();
  if (ran) return *cached_;
  // One that expires within moments still serves while the plugin fails to renew it.
  if (cached_ && cached_->expiry && clock_.wallNow() < *cached_->expiry) {
    spdlog::warn("renewing credentials: {}", ran.error().message);
    return *cached_;
  }
  return ran.error();
}

bool ExecPlugin::renewAfterRejection(const ExecCredential& rejected) {
  MutexLock lock(mu_);
  if (cached_ && !sameCredential(*cached_, rejected)) return true;  // replaced meanwhile
  if (auto ran = runLocked(); !ran) {
    spdlog::error("refreshing credentials: {}", ran.error().message);
    return false;
  }
  return !sameCredential(*cached_, rejected);
}

std::shared_ptr<ExecPlugin> sharedExecPlugin(const ExecConfig& config, Clock& clock) {
  static Mutex mu;
  static std::map<std::pair<std::string, const Clock*>, std::weak_ptr<ExecPlugin>> plugins;
  nlohmann::json key = {{"command", config.command},
                        {"args", config.args},
                        {"env", config.env},
                        {"apiVersion", config.api_version},
                        {"interactiveMode", config.interactive_mode},
                        {"cluster", config.cluster.dump()},
                        {"origin", config.origin}};
  MutexLock lock(mu);
  auto& slot = plugins[{key.dump(), &clock}];
  if (auto existing = slot.lock()) return existing;
  auto created = std::make_shared<ExecPlugin>(config, processPluginRunner(), clock);
  slot = created;
  return created;
}

}  // namespace kf
