#include "federation/client/credentials.h"

#include <optional>

#include "federation/client/base64.h"
#include "federation/client/oidc_provider.h"
#include "federation/client/token_file.h"

namespace kf {
namespace {

constexpr std::string_view kBearerPrefix = "Bearer ";

std::string bearer(const std::string& token) {
  return token.empty() ? std::string() : std::string(kBearerPrefix) + token;
}

// client-go's order: a token or basic authentication is sent instead of the auth-provider's
// id-token; a client certificate goes with it.
bool usesOidc(const RestConfig& config) {
  const bool own_authorization = !config.bearer_token.empty() ||
                                 !config.bearer_token_file.empty() || !config.username.empty() ||
                                 !config.password.empty();
  return config.oidc.has_value() && !own_authorization;
}

bool usesExecPlugin(const RestConfig& config) {
  const bool own_credentials = !config.bearer_token.empty() || !config.bearer_token_file.empty() ||
                               !config.username.empty() || !config.password.empty() ||
                               !config.tls.client_cert_pem.empty();
  return config.exec.has_value() && !own_credentials;
}

class ConfiguredCredentials final : public Credentials {
 public:
  ConfiguredCredentials(const RestConfig& config, Clock& clock,
                        std::shared_ptr<ExecPlugin> exec_plugin, std::shared_ptr<OidcProvider> oidc)
      : static_authorization_(staticAuthorization(config)),
        impersonation_(impersonationHeaders(config.impersonate)),
        exec_plugin_(std::move(exec_plugin)),
        oidc_(std::move(oidc)) {
    if (!config.bearer_token_file.empty()) {
      token_file_.emplace(config.bearer_token_file, config.bearer_token, clock);
    }
  }

  Result<RequestCredentials> forRequest() override {
    RequestCredentials out;
    out.impersonation = impersonation_;
    if (token_file_) {
      out.authorization = bearer(token_file_->token());
    } else if (oidc_) {
      KF_TRY(id_token, oidc_->idToken());
      out.authorization = bearer(id_token);
    } else if (!static_authorization_.empty() || !exec_plugin_) {
      out.authorization = static_authorization_;
    } else {
      KF_TRY(credential, exec_plugin_->credential());
      out.authorization = bearer(credential.token);
      out.client_certificate = std::move(credential.certificate);
    }
    return out;
  }

  bool renewAfterRejection(const RequestCredentials& rejected) override {
    if (token_file_) {
      return token_file_->rereadAfterRejection(tokenOf(rejected.authorization));
    }
    if (oidc_) return oidc_->renewAfterRejection(tokenOf(rejected.authorization));
    if (!static_authorization_.empty() || !exec_plugin_) return false;
    return exec_plugin_->renewAfterRejection(
        ExecCredential{tokenOf(rejected.authorization), rejected.client_certificate, {}});
  }

 private:
  static std::string staticAuthorization(const RestConfig& config) {
    if (!config.bearer_token.empty()) return bearer(config.bearer_token);
    if (config.username.empty() && config.password.empty()) return "";
    return "Basic " + base64Encode(config.username + ":" + config.password);
  }

  static std::string tokenOf(const std::string& authorization) {
    return authorization.starts_with(kBearerPrefix) ? authorization.substr(kBearerPrefix.size())
                                                    : std::string();
  }

  const std::string static_authorization_;
  const HeaderList impersonation_;
  const std::shared_ptr<ExecPlugin> exec_plugin_;
  const std::shared_ptr<OidcProvider> oidc_;  // null unless the config's id-token is sent
  std::optional<TokenFile> token_file_;
};

}  // namespace

CredentialsPtr credentialsFor(const RestConfig& config, Clock& clock,
                              std::shared_ptr<ExecPlugin> exec_plugin) {
  if (!usesExecPlugin(config)) exec_plugin = nullptr;
  std::shared_ptr<OidcProvider> oidc;
  if (usesOidc(config)) oidc = sharedOidcProvider(*config.oidc, clock);
  return std::make_shared<ConfiguredCredentials>(config, clock, std::move(exec_plugin),
                                                 std::move(oidc));
}

CredentialsPtr credentialsFor(const RestConfig& config, Clock& clock) {
  std::shared_ptr<ExecPlugin> exec_plugin;
  if (usesExecPlugin(config)) exec_plugin = sharedExecPlugin(*config.exec, clock);
  return credentialsFor(config, clock, std::move(exec_plugin));
}

}  // namespace kf
