#pragma once
// A bearer token in a file that something else rewrites (a projected service-account token, a
// kubeconfig tokenFile refreshed by a login tool). Re-read once a minute, as client-go does, and
// at once after the server rejected the token; a failed read keeps the last token read.

#include <string>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class TokenFile {
 public:
  // `initial`: the token to use until the file is first read (the kubeconfig's inline token, or
  // the file's contents as read when the config was loaded).
  TokenFile(std::string path, std::string initial, Clock& clock);

  // The token to send now.
  std::string token();
  // Reads the file now because the server answered 401 to `rejected`; true when it holds
  // another token, so that the request is worth sending again.
  bool rereadAfterRejection(const std::string& rejected);

 private:
  void rereadLocked() KF_REQUIRES(mu_);

  const std::string path_;
  Clock& clock_;
  Mutex mu_;
  std::string token_ KF_GUARDED_BY(mu_);
  SteadyTime read_at_ KF_GUARDED_BY(mu_){};
  bool ever_read_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf
