#pragma once
// The per-type controllers the FTC reconciler has started, by FTC name: at most one sync and one
// status controller each. Thread-safe; stopping joins the controller outside the lock, so
// readers (tests, health checks) are never blocked by a controller shutting down. Logs each
// controller it takes and each it stops ("Started sync controller for \"configmaps\"").

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "federation/controller/runnable.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

enum class TypeControllerKind { kSync, kStatus };

// "sync" or "status", for logs and events.
const char* typeControllerKindName(TypeControllerKind kind);

class RunningControllers {
 public:
  RunningControllers() = default;
  // stopAll().
  ~RunningControllers();
  RunningControllers(const RunningControllers&) = delete;
  RunningControllers& operator=(const RunningControllers&) = delete;

  bool isRunning(const std::string& ftc_name, TypeControllerKind kind) const KF_EXCLUDES(mu_);
  // The FTC generation the running controller was started with; nullopt when none runs.
  std::optional<std::int64_t> startedGeneration(const std::string& ftc_name,
                                                TypeControllerKind kind) const KF_EXCLUDES(mu_);
  // Takes ownership of a controller started from generation `generation` of the FTC; one
  // already registered for the same FTC and kind is stopped.
  void add(const std::string& ftc_name, TypeControllerKind kind, RunnablePtr controller,
           std::int64_t generation = 0) KF_EXCLUDES(mu_);
  // Stops (and joins) the controller; false when none was running.
  bool stop(const std::string& ftc_name, TypeControllerKind kind) KF_EXCLUDES(mu_);
  // Stops every controller, one after the other.
  void stopAll() KF_EXCLUDES(mu_);
  // Names of the FTCs with a controller of `kind`, sorted.
  std::vector<std::string> names(TypeControllerKind kind) const KF_EXCLUDES(mu_);

 private:
  using Key = std::pair<std::string, TypeControllerKind>;
  struct Entry {
    RunnablePtr controller;
    std::int64_t generation = 0;
  };
  // Stops and drops the entry's controller, if it has one, and logs it.
  static void stopEntry(const Key& key, Entry& entry);

  mutable Mutex mu_;
  std::map<Key, Entry> controllers_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
