#pragma once
// The contract between a controller's logic and the controller runtime: a Reconciler decides and
// acts for one key; the Controller (controller.h) decides when, how often and on which thread.

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>

#include "apis/meta/api_error.h"
#include "federation/runtime/clock.h"

namespace kf {

// What a reconcile that did not fail asks for next (KubeFed's ReconciliationStatus, its Error
// being a failed Result instead, plus controller-runtime's Result{RequeueAfter}). Every one of
// them lets the key's failure backoff start over.
class ReconcileStatus {
 public:
  enum class Kind { kOk, kNeedsRecheck, kNotSynced, kRequeueAfter };

  static const ReconcileStatus kOk;            // done (AllOK)
  static const ReconcileStatus kNeedsRecheck;  // look again after the controller's retry delay
  // Caches not complete yet: again after the controller's cluster sync delay.
  static const ReconcileStatus kNotSynced;
  // Look again after `delay`, a delay of the reconciler's own (a health period, say).
  static constexpr ReconcileStatus requeueAfter(Duration delay) {
    return {Kind::kRequeueAfter, delay};
  }

  constexpr Kind kind() const { return kind_; }
  // For kRequeueAfter: how long; zero otherwise.
  constexpr Duration delay() const { return delay_; }
  friend constexpr bool operator==(const ReconcileStatus&, const ReconcileStatus&) = default;

 private:
  constexpr ReconcileStatus(Kind kind, Duration delay) : kind_(kind), delay_(delay) {}

  Kind kind_;
  Duration delay_;
};

inline constexpr ReconcileStatus ReconcileStatus::kOk{Kind::kOk, Duration::zero()};
inline constexpr ReconcileStatus ReconcileStatus::kNeedsRecheck{Kind::kNeedsRecheck,
                                                                Duration::zero()};
inline constexpr ReconcileStatus ReconcileStatus::kNotSynced{Kind::kNotSynced, Duration::zero()};

// "Ok", "NeedsRecheck", "NotSynced" or "RequeueAfter(1500ms)": for logs and test failures.
std::ostream& operator<<(std::ostream& out, const ReconcileStatus& status);

using ReconcileResult = Result<ReconcileStatus>;

class Reconciler {
 public:
  virtual ~Reconciler() = default;
  // Drives what `key` ("namespace/name", or "name" for cluster-scoped objects) names toward its
  // desired state. Level-based: it may be called any number of times, at any time, and is never
  // called for one key on two threads at once (other keys may be reconciled meanwhile). A failure
  // is logged by the controller and the key is retried after its backoff (initial, doubling, at
  // most max); the reconciler itself only reports what users must see (events, status).
  virtual ReconcileResult reconcile(const std::string& key) = 0;

  // The controller is stopping: the reconciles in progress should return soon, writing nothing
  // they cannot finish (controller-runtime cancels the context they run in). Called once, after
  // the controller's sources stopped and before it waits for its workers.
  virtual void cancel() {}
};
using ReconcilerPtr = std::unique_ptr<Reconciler>;

// A Reconciler from a function.
class ReconcilerFunc final : public Reconciler {
 public:
  explicit ReconcilerFunc(std::function<ReconcileResult(const std::string&)> fn)
      : fn_(std::move(fn)) {}
  ReconcileResult reconcile(const std::string& key) override { return fn_(key); }

 private:
  std::function<ReconcileResult(const std::string&)> fn_;
};

}  // namespace kf
