#pragma once
// A TypeControllerFactory that builds nothing real: it counts the controllers it builds (as starts)
// and their stops per FTC and controller kind, knows which controllers are live, remembers the FTC
// each was built with, and can be told to fail builds. Thread-safe; controllers it made stay safe
// to stop after the factory is gone.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "controllers/federatedtypeconfig/running_controllers.h"
#include "controllers/federatedtypeconfig/type_controllers.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

class RecordingTypeControllerFactory final : public TypeControllerFactory {
 public:
  RecordingTypeControllerFactory() : state_(std::make_shared<State>()) {}

  Result<RunnablePtr> syncController(const core::FederatedTypeConfig& ftc) override {
    return start(ftc, TypeControllerKind::kSync);
  }
  Result<RunnablePtr> statusController(const core::FederatedTypeConfig& ftc) override {
    return start(ftc, TypeControllerKind::kStatus);
  }

  // Starts of `kind` for FTC `name` fail with `error` until cleared.
  void failStarts(const std::string& name, TypeControllerKind kind, ApiError error) {
    MutexLock lock(state_->mu);
    state_->failures[{name, kind}] = std::move(error);
  }
  void clearFailures() {
    MutexLock lock(state_->mu);
    state_->failures.clear();
  }

  int starts(const std::string& name, TypeControllerKind kind) const {
    MutexLock lock(state_->mu);
    return valueOr(state_->starts, {name, kind});
  }
  int stops(const std::string& name, TypeControllerKind kind) const {
    MutexLock lock(state_->mu);
    return valueOr(state_->stops, {name, kind});
  }
  // Controllers started and not yet stopped, of every FTC and kind.
  int live() const {
    MutexLock lock(state_->mu);
    int total = 0;
    for (const auto& [key, count] : state_->live) total += count;
    return total;
  }
  int live(const std::string& name, TypeControllerKind kind) const {
    MutexLock lock(state_->mu);
    return valueOr(state_->live, {name, kind});
  }
  // The FTC the last start of `kind` for `name` was given.
  std::optional<core::FederatedTypeConfig> lastStarted(const std::string& name,
                                                       TypeControllerKind kind) const {
    MutexLock lock(state_->mu);
    auto it = state_->last_started.find({name, kind});
    if (it == state_->last_started.end()) return std::nullopt;
    return it->second;
  }

 private:
  using Key = std::pair<std::string, TypeControllerKind>;

  struct State {
    Mutex mu;
    std::map<Key, ApiError> failures KF_GUARDED_BY(mu);
    std::map<Key, int> starts KF_GUARDED_BY(mu);
    std::map<Key, int> stops KF_GUARDED_BY(mu);
    std::map<Key, int> live KF_GUARDED_BY(mu);
    std::map<Key, core::FederatedTypeConfig> last_started KF_GUARDED_BY(mu);
  };

  class Controller final : public Runnable {
   public:
    Controller(std::shared_ptr<State> state, Key key)
        : state_(std::move(state)), key_(std::move(key)) {}
    ~Controller() override { stop(); }
    Status start() override { return boost::outcome_v2::success(); }
    void stop() override {
      MutexLock lock(state_->mu);
      if (stopped_) return;
      stopped_ = true;
      ++state_->stops[key_];
      --state_->live[key_];
    }

   private:
    std::shared_ptr<State> state_;
    Key key_;
    bool stopped_ = false;  // only under state_->mu
  };

  static int valueOr(const std::map<Key, int>& counts, const Key& key) {
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
  }

  Result<RunnablePtr> start(const core::FederatedTypeConfig& ftc, TypeControllerKind kind) {
    Key key{ftc.name(), kind};
    MutexLock lock(state_->mu);
    if (auto failure = state_->failures.find(key); failure != state_->failures.end()) {
      return failure->second;
    }
    ++state_->starts[key];
    ++state_->live[key];
    state_->last_started.insert_or_assign(key, ftc);
    return RunnablePtr(std::make_unique<Controller>(state_, key));
  }

  std::shared_ptr<State> state_;
};

}  // namespace kf::test
