#include "federation/client/oidc_provider.h"

#include <spdlog/spdlog.h>

#include <map>
#include <nlohmann/json.hpp>

#include "apis/meta/time.h"
#include "federation/client/id_token.h"
#include "federation/client/kubeconfig_writer.h"

namespace kf {
namespace {

bool isNetworkProblem(Reason reason) {
  return reason == Reason::kConnectionFailed || reason == Reason::kClientTimeout;
}

}  // namespace

OidcProvider::OidcProvider(OidcConfig config, Clock& clock)
    : config_(std::move(config)),
      clock_(clock),
      issuer_(config_.issuer_url, config_.issuer_ca_pem, config_.client_id, config_.client_secret),
      refresh_token_(config_.refresh_token) {
  MutexLock lock(mu_);
  useIdTokenLocked(config_.id_token);
}

void OidcProvider::useIdTokenLocked(std::string id_token) {
  id_token_ = std::move(id_token);
  auto expiry = idTokenExpiry(id_token_);
  expiry_ = expiry ? expiry.value() : WallTime{};
  id_token_problem_ = expiry ? "" : expiry.error().message;
}

ApiError OidcProvider::failure(Reason reason, const std::string& problem) const {
  return makeError(reason, config_.origin + ": " + problem);
}

std::string OidcProvider::logInAgain() const {
  return "log in to " + config_.issuer_url + " again and give user \"" + config_.user_name +
         "\" the new tokens (kubectl config set-credentials " + config_.user_name +
         " --auth-provider=oidc --auth-provider-arg=id-token=<id-token> "
         "--auth-provider-arg=refresh-token=<refresh-token>)";
}

std::string OidcProvider::whatToDo(Reason refresh_failure) const {
  switch (refresh_failure) {
    case Reason::kConnectionFailed:
    case Reason::kClientTimeout:
      return "check that the issuer is reachable from here";
    case Reason::kTlsVerification:
      return "the issuer's CA goes in idp-certificate-authority or "
             "idp-certificate-authority-data";
    case Reason::kUnauthorized:  // the token endpoint refused the refresh-token
      return "the refresh-token may have expired or been revoked: " + logInAgain();
    default:
      return "check idp-issuer-url and the issuer's configuration";
  }
}

Status OidcProvider::refreshLocked() {
  if (refresh_token_.empty()) {
    return failure(Reason::kBadConfig,
                   "No valid id-token, and cannot refresh without refresh-token: " + logInAgain());
  }
  auto refreshed = issuer_.refresh(refresh_token_);
  if (!refreshed) {
    const ApiError& error = refreshed.error();
    return failure(isNetworkProblem(error.reason) ? error.reason : Reason::kBadConfig,
                   "refreshing the id-token: " + error.message + "; " + whatToDo(error.reason));
  }
  useIdTokenLocked(std::move(refreshed.value().id_token));
  if (!refreshed.value().refresh_token.empty()) {
    refresh_token_ = std::move(refreshed.value().refresh_token);
  }
  spdlog::info("{}: refreshed the id-token at {}{}", config_.origin, config_.issuer_url,
               id_token_problem_.empty() && expiry_ < WallTime::max()
                   ? " (valid until " + meta::formatTime(expiry_) + ")"
                   : "");
  writeBackLocked();
  return boost::outcome_v2::success();
}

void OidcProvider::writeBackLocked() const {
  if (config_.kubeconfig_file.empty()) return;
  std::map<std::string, std::string> values{{"id-token", id_token_}};
  if (!refresh_token_.empty()) values.emplace("refresh-token", refresh_token_);
  if (auto written = writeAuthProviderConfig(config_.kubeconfig_file, config_.user_name, values);
      !written) {
    spdlog::warn("{}: the refreshed tokens are used but were not saved: {}", config_.origin,
                 written.error().message);
  }
}

Result<std::string> OidcProvider::idToken() {
  MutexLock lock(mu_);
  if (!id_token_.empty()) {
    if (!id_token_problem_.empty()) {
      return failure(Reason::kBadConfig, "id-token: " + id_token_problem_ + "; " + logInAgain());
    }
    if (!idTokenExpiredAt(expiry_, clock_.wallNow())) return id_token_;
  }
  KF_TRYV(refreshLocked());
  return id_token_;
}

bool OidcProvider::renewAfterRejection(const std::string& rejected) {
  MutexLock lock(mu_);
  if (rejected != id_token_) return true;  // another request replaced it meanwhile
  if (rejected == refreshed_after_rejection_ || refresh_token_.empty()) return false;
  if (auto refreshed = refreshLocked(); !refreshed) {
    spdlog::error("refreshing credentials after the server rejected them: {}",
                  refreshed.error().message);
    return false;
  }
  refreshed_after_rejection_ = id_token_;
  return id_token_ != rejected;
}

std::shared_ptr<OidcProvider> sharedOidcProvider(const OidcConfig& config, Clock& clock) {
  static Mutex mu;
  static std::map<std::pair<std::string, const Clock*>, std::weak_ptr<OidcProvider>> providers;
  nlohmann::json key = {{"file", config.kubeconfig_file},
                        {"user", config.user_name},
                        {"issuer", config.issuer_url},
                        {"client", config.client_id},
                        {"origin", config.origin}};
  // Without a file to write them to, tokens are all that tells two configurations apart.
  if (config.kubeconfig_file.empty()) {
    key["tokens"] = {config.id_token, config.refresh_token};
  }
  MutexLock lock(mu);
  auto& slot = providers[{key.dump(), &clock}];
  if (auto existing = slot.lock()) return existing;
  auto created = std::make_shared<OidcProvider>(config, clock);
  slot = created;
  return created;
}

}  // namespace kf
