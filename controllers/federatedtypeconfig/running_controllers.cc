#include "controllers/federatedtypeconfig/running_controllers.h"

#include <utility>

namespace kf {

const char* typeControllerKindName(TypeControllerKind kind) {
  return kind == TypeControllerKind::kSync ? "sync" : "status";
}

RunningControllers::~RunningControllers() { stopAll(); }

bool RunningControllers::isRunning(const std::string& ftc_name, TypeControllerKind kind) const {
  MutexLock lock(mu_);
  return controllers_.contains({ftc_name, kind});
}

std::optional<std::int64_t> RunningControllers::startedGeneration(const std::string& ftc_name,
                                                                  TypeControllerKind kind) const {
  MutexLock lock(mu_);
  auto it = controllers_.find({ftc_name, kind});
  if (it == controllers_.end()) return std::nullopt;
  return it->second.generation;
}

void RunningControllers::add(const std::string& ftc_name, TypeControllerKind kind,
                             std::unique_ptr<TypeController> controller, std::int64_t generation) {
  if (!controller) return;
  Entry replaced;
  {
    MutexLock lock(mu_);
    replaced =
        std::exchange(controllers_[{ftc_name, kind}], Entry{std::move(controller), generation});
  }
  if (replaced.controller) replaced.controller->stop();
}

bool RunningControllers::stop(const std::string& ftc_name, TypeControllerKind kind) {
  Entry stopped;
  {
    MutexLock lock(mu_);
    auto it = controllers_.find({ftc_name, kind});
    if (it == controllers_.end()) return false;
    stopped = std::move(it->second);
    controllers_.erase(it);
  }
  stopped.controller->stop();
  return true;
}

void RunningControllers::stopAll() {
  std::map<Key, Entry> controllers;
  {
    MutexLock lock(mu_);
    controllers.swap(controllers_);
  }
  for (auto& [key, entry] : controllers) entry.controller->stop();
}

std::vector<std::string> RunningControllers::names(TypeControllerKind kind) const {
  MutexLock lock(mu_);
  std::vector<std::string> out;
  for (const auto& [key, entry] : controllers_) {
    if (key.second == kind) out.push_back(key.first);
  }
  return out;  // the map orders by name first
}

}  // namespace kf
