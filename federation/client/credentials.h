#pragma once
// What authenticates each request to one API server, asked for per request so that credentials
// can change while a client lives: a rotated token file, an exec plugin's renewed token or
// certificate, an oidc auth-provider's refreshed id-token. Precedence as in client-go: a token
// (the token file wins over the inline token), else basic authentication, else the oidc
// id-token, else the exec plugin, which is not used when the config has a token, basic
// authentication or a client certificate of its own. Impersonation headers go with any of them.

#include <memory>
#include <string>

#include "federation/client/client_certificate.h"
#include "federation/client/exec_plugin.h"
#include "federation/client/impersonation.h"
#include "federation/client/rest_config.h"
#include "federation/runtime/clock.h"

namespace kf {

struct RequestCredentials {
  std::string authorization;  // the Authorization header ("Bearer ...", "Basic ..."), or ""
  // Set when an exec plugin issued a client certificate: the transport presents it instead of
  // the config's.
  std::shared_ptr<const ClientCertificate> client_certificate;
  HeaderList impersonation;  // Impersonate-* headers, possibly repeated

  bool operator==(const RequestCredentials&) const = default;
};

class Credentials {
 public:
  virtual ~Credentials() = default;
  // Fails when they cannot be obtained (an exec plugin that is missing, fails or prints
  // something else than an ExecCredential); the error says which and why.
  virtual Result<RequestCredentials> forRequest() = 0;
  // The server answered 401 to a request sent with `rejected`: obtain fresh ones where they can
  // change (re-read the token file, re-run the exec plugin). True when the next forRequest()
  // returns different credentials, so that the request is worth sending once more.
  virtual bool renewAfterRejection(const RequestCredentials& rejected) = 0;
};
using CredentialsPtr = std::shared_ptr<Credentials>;

// The credentials `config` describes. Its exec plugin is the process-wide one for that plugin
// configuration (sharedExecPlugin).
CredentialsPtr credentialsFor(const RestConfig& config, Clock& clock);

// The same with a given exec plugin instance (tests, or no plugin: null).
CredentialsPtr credentialsFor(const RestConfig& config, Clock& clock,
                              std::shared_ptr<ExecPlugin> exec_plugin);

}  // namespace kf
