#include "cmd/controller-manager/config_change_watch.h"

#include <spdlog/spdlog.h>

#include <atomic>

#include "apis/core/validation.h"
#include "cmd/controller-manager/kubefed_config_source.h"
#include "federation/client/resource_client.h"

namespace kf::manager {
namespace {

std::string nameOf(const Json& stored) {
  const Json& metadata = stored.value("metadata", Json::object());
  return metadata.value("namespace", "") + "/" + metadata.value("name", "");
}

}  // namespace

bool specChanged(const core::KubeFedConfig& running, const Json& stored) {
  auto parsed = core::KubeFedConfig::fromJson(stored);
  if (!parsed) {
    spdlog::warn(
        "KubeFedConfig \"{}\" changed but cannot be read: {}; still running with the one read "
        "at start (correct it with kubectl edit)",
        nameOf(stored), parsed.error().message);
    return false;
  }
  if (parsed.value().spec.toJson() == running.spec.toJson()) return false;
  if (auto errors = core::validateKubeFedConfig(parsed.value(), nullptr); !errors.empty()) {
    spdlog::warn(
        "KubeFedConfig \"{}\" changed to an invalid spec: {}; still running with the one read "
        "at start (correct it with kubectl edit)",
        nameOf(stored), errors.front().message());
    return false;
  }
  return true;
}

struct ConfigChangeWatch::State {
  core::KubeFedConfig running;
  std::stop_source stop;
  std::string name;
  std::atomic<bool> changed{false};

  void seen(const ObjectPtr& object) {
    if (changed || !object || !specChanged(running, *object)) return;
    changed = true;
    spdlog::info(
        "KubeFedConfig \"{}\" changed since it was read; stopping so that the restarted "
        "controller manager applies it",
        name);
    stop.request_stop();
  }
};

ConfigChangeWatch::ConfigChangeWatch(RestClient& host, const std::string& ns,
                                     core::KubeFedConfig running, std::stop_source stop,
                                     Clock& clock, TaskPools pools)
    : state_(std::make_shared<State>()),
      informer_(makeListerWatcher(host, kKubeFedConfigs, ns, "",
                                  std::string("metadata.name=") + kKubeFedConfigName),
                clock,
                SharedInformerOptions{.reflector = {.pool = pools.member_io},
                                      .dispatch = pools.dispatch}) {
  state_->running = std::move(running);
  state_->stop = std::move(stop);
  state_->name = ns + "/" + kKubeFedConfigName;
  auto handler = std::make_shared<EventHandlerFuncs>();
  handler->on_add = [state = state_](const ObjectPtr& object, bool) { state->seen(object); };
  handler->on_update = [state = state_](const ObjectPtr&, const ObjectPtr& object) {
    state->seen(object);
  };
  informer_.addEventHandler(handler);
  informer_.start();
}

ConfigChangeWatch::~ConfigChangeWatch() { informer_.stop(); }

}  // namespace kf::manager
