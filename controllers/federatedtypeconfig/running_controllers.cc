#include "controllers/federatedtypeconfig/running_controllers.h"

#include <spdlog/spdlog.h>

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

void RunningControllers::stopEntry(const Key& key, Entry& entry) {
  if (!entry.controller) return;
  entry.controller->stop();
  entry.controller.reset();
  spdlog::info("Stopped {} controller for \"{}\"", typeControllerKindName(key.second), key.first);
}

void RunningControllers::add(const std::string& ftc_name, TypeControllerKind kind,
                             RunnablePtr controller, std::int64_t generation) {
  if (!controller) return;
  spdlog::info("Started {} controller for \"{}\"", typeControllerKindName(kind), ftc_name);
  const Key key{ftc_name, kind};
  Entry replaced;
  {
    MutexLock lock(mu_);
    replaced = std::exchange(controllers_[key], Entry{std::move(controller), generation});
  }
  stopEntry(key, replaced);
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
  stopEntry({ftc_name, kind}, stopped);
  return true;
}

void RunningControllers::stopAll() {
  std::map<Key, Entry> controllers;
  {
    MutexLock lock(mu_);
    controllers.swap(controllers_);
  }
  for (auto& [key, entry] : controllers) stopEntry(key, entry);
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
