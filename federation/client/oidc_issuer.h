#pragma once
// The two requests the oidc auth provider makes of an OpenID Connect issuer, over HTTPS verified
// with the kubeconfig's idp-certificate-authority (else the system trust store): discovery of
// the token endpoint (<issuer>/.well-known/openid-configuration) and the OAuth 2 refresh-token
// grant there. The client's id and secret go in HTTP basic authentication first and in the form
// body when the endpoint refuses that, as golang.org/x/oauth2 (client-go's) does; the way that
// worked is kept. Tokens and the secret never appear in messages.

#include <string>

#include "apis/meta/api_error.h"
#include "federation/client/transport.h"

namespace kf {

struct RefreshedTokens {
  std::string id_token;
  std::string refresh_token;  // empty: the issuer did not send a new one
};

class OidcIssuer {
 public:
  OidcIssuer(std::string issuer_url, std::string ca_pem, std::string client_id,
             std::string client_secret);

  // Discovers the token endpoint and trades `refresh_token` there for a new id-token. Not
  // thread-safe: the caller serialises refreshes.
  Result<RefreshedTokens> refresh(const std::string& refresh_token);

 private:
  enum class ClientAuth { kUnknown, kBasicHeader, kFormBody };

  Result<std::string> tokenEndpoint() const;
  Result<RefreshedTokens> refreshAt(const std::string& token_url, const std::string& refresh_token,
                                    ClientAuth client_auth) const;
  Result<HttpResponse> send(const std::string& url, HttpRequest request) const;

  const std::string issuer_url_;
  const std::string ca_pem_;
  const std::string client_id_;
  const std::string client_secret_;
  ClientAuth client_auth_ = ClientAuth::kUnknown;
};

// application/x-www-form-urlencoded text of one value (Go's url.QueryEscape).
std::string formEncode(const std::string& value);

}  // namespace kf
