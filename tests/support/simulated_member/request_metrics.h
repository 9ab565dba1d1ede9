#pragma once
// A simulated member's /metrics: apiserver_request_total with the API server's labels (code,
// component, dry_run, group, resource, scope, subresource, verb, version), and
// apiserver_watch_events_total (group, kind, version), in the Prometheus text format.

#include <map>
#include <string>

#include "federation/runtime/thread_annotations.h"
#include "tests/support/simulated_member/served_resources.h"

namespace kf::sim {

struct RequestLabels {
  std::string verb;                          // GET, LIST, WATCH, POST, PUT, PATCH, DELETE
  const ServedResource* resource = nullptr;  // null: a non-resource path
  std::string subresource;  // "status", or the path of a non-resource request ("/healthz")
  std::string scope;        // resource, namespace, cluster; "" for a non-resource path
  bool dry_run = false;
};

class RequestMetrics {
 public:
  void countRequest(const RequestLabels& labels, int code) KF_EXCLUDES(mu_);
  void countWatchEvents(const ServedResource& resource, long events) KF_EXCLUDES(mu_);
  std::string text() const KF_EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::map<std::string, long> requests_ KF_GUARDED_BY(mu_);  // label set -> count
  std::map<std::string, long> watch_events_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::sim
