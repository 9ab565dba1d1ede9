#pragma once
// The controller manager's HTTP endpoints: /healthz and /readyz on --healthz-addr, /metrics on
// --metrics-addr (the same server when both addresses are equal).

#include <atomic>
#include <memory>
#include <vector>

#include "apis/meta/api_error.h"
#include "cmd/controller-manager/options.h"
#include "federation/serving/http_server.h"

namespace kf::manager {

class ReadinessFlag {
 public:
  void set(bool ready) { ready_ = ready; }
  bool get() const { return ready_; }

 private:
  std::atomic<bool> ready_{false};
};

class Servers {
 public:
  virtual ~Servers() = default;
};

// Binds both addresses, each tried again while it is in use as `bind_retry` allows (a replacement
// process may start before the one it replaces has released them); fails naming the address
// that could not be bound. `ready` must outlive the servers.
Result<std::unique_ptr<Servers>> startServers(const Options& options, const ReadinessFlag& ready,
                                              const serving::BindRetry& bind_retry);

}  // namespace kf::manager
