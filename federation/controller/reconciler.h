#pragma once
// The contract between a controller's logic and the controller runtime: a Reconciler decides and
// acts for one key; the Controller (controller.h) decides when, how often and on which thread.

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "apis/meta/api_error.h"

namespace kf {

// What a reconcile that did not fail asks for next (KubeFed's ReconciliationStatus; its Error is
// a failed Result instead).
enum class ReconcileStatus {
  kOk,            // done (AllOK): the key's backoff starts over
  kNeedsRecheck,  // look again after the controller's retry delay
  kNotSynced,     // caches not complete yet: again after the controller's cluster sync delay
};
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
