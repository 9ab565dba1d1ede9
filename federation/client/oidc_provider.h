#pragma once
// One kubeconfig user's oidc auth-provider, as client-go's behaves: its id-token is the bearer
// token until 10 s before the token's exp, then the refresh-token buys a new one at the issuer's
// token endpoint, and the new tokens are written back into the kubeconfig file so that the next
// process (or kubectl) starts from them. Beyond client-go: a token the API server rejects (401)
// is refreshed once, and tokens that cannot be written back are still used (with a warning).
// Thread-safe, one refresh at a time. Clients built from the same kubeconfig user share one
// instance (sharedOidcProvider): an issuer that rotates refresh-tokens sees one refresh, not one
// per client.

#include <memory>

#include "federation/client/id_token.h"
#include "federation/client/oidc_issuer.h"
#include "federation/client/rest_config.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class OidcProvider {
 public:
  OidcProvider(OidcConfig config, Clock& clock);

  // The id-token to send now. Errors name the kubeconfig user, say what went wrong and what to
  // do (never a token).
  Result<std::string> idToken();

  // The server answered 401 to a request sent with `rejected`. Unless another request already
  // replaced it, refreshes now; true when the next idToken() differs, so that the request is
  // worth sending again. A token that itself came from such a refresh is not refreshed again: a
  // server that rejects fresh tokens would otherwise have every request refresh.
  bool renewAfterRejection(const std::string& rejected);

 private:
  void useIdTokenLocked(std::string id_token) KF_REQUIRES(mu_);
  Status refreshLocked() KF_REQUIRES(mu_);
  void writeBackLocked() const KF_REQUIRES(mu_);
  ApiError failure(Reason reason, const std::string& problem) const;
  std::string logInAgain() const;
  // What the user can do about a refresh that failed for this reason.
  std::string whatToDo(Reason refresh_failure) const;

  const OidcConfig config_;  // as loaded; the tokens in use are below
  Clock& clock_;
  Mutex mu_;
  OidcIssuer issuer_ KF_GUARDED_BY(mu_);
  std::string id_token_ KF_GUARDED_BY(mu_);
  WallTime expiry_ KF_GUARDED_BY(mu_);               // read from id_token_ once
  std::string id_token_problem_ KF_GUARDED_BY(mu_);  // why id_token_ is not a JWT, or ""
  std::string refresh_token_ KF_GUARDED_BY(mu_);
  std::string refreshed_after_rejection_ KF_GUARDED_BY(mu_);
};

// The process-wide instance for this kubeconfig file and user (and issuer, client and clock),
// created on first use and kept while a client uses it.
std::shared_ptr<OidcProvider> sharedOidcProvider(const OidcConfig& config, Clock& clock);

}  // namespace kf
