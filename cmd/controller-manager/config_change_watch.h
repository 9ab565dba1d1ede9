#pragma once
// Stops the controller manager when the spec of its KubeFedConfig changes after it was read, so
// that the restarted process (the kubelet restarts the container) runs with the new one. The
// chart's checksum annotation alone cannot promise that: Helm applies the Deployment before custom
// resources, so a pod of the new template can start and read the old KubeFedConfig.

#include <memory>
#include <stop_token>
#include <string>

#include "apis/core/kubefed_config.h"
#include "federation/client/rest_client.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"

namespace kf::manager {

// Whether `stored` (a KubeFedConfig as the API serves it) holds a spec other than `running`'s that
// the controller manager would start with: it parses and validates. An invalid one is ignored
// (with a warning): restarting on it would stop a working control plane until someone fixes it.
bool specChanged(const core::KubeFedConfig& running, const Json& stored);

class ConfigChangeWatch {
 public:
  // Watches `ns`/kubefed through `host` from now on, on `pools`; requests `stop` on the first
  // change.
  ConfigChangeWatch(RestClient& host, const std::string& ns, core::KubeFedConfig running,
                    std::stop_source stop, Clock& clock, TaskPools pools);
  ~ConfigChangeWatch();
  ConfigChangeWatch(const ConfigChangeWatch&) = delete;
  ConfigChangeWatch& operator=(const ConfigChangeWatch&) = delete;

 private:
  struct State;
  std::shared_ptr<State> state_;
  SharedInformer informer_;
};

}  // namespace kf::manager
