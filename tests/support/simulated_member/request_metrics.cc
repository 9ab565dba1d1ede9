#include "tests/support/simulated_member/request_metrics.h"

namespace kf::sim {

void RequestMetrics::countRequest(const RequestLabels& labels, int code) {
  const ServedResource* resource = labels.resource;
  // Labels in the API server's (alphabetical) order.
  std::string key =
      "code=\"" + std::to_string(code) + "\",component=\"" + (resource ? "apiserver" : "") +
      "\",dry_run=\"" + (labels.dry_run ? "All" : "") + "\",group=\"" +
      (resource ? resource->group : "") + "\",resource=\"" + (resource ? resource->plural : "") +
      "\",scope=\"" + labels.scope + "\",subresource=\"" + labels.subresource + "\",verb=\"" +
      labels.verb + "\",version=\"" + (resource ? resource->version : "") + "\"";
  MutexLock lock(mu_);
  ++requests_[key];
}

void RequestMetrics::countWatchEvents(const ServedResource& resource, long events) {
  const std::string key = "group=\"" + resource.group + "\",kind=\"" + resource.kind +
                          "\",version=\"" + resource.version + "\"";
  MutexLock lock(mu_);
  watch_events_[key] += events;
}

std::string RequestMetrics::text() const {
  std::string out =
      "# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, "
      "dry run value, group, version, resource, scope, component, and HTTP response code.\n"
      "# TYPE apiserver_request_total counter\n";
  MutexLock lock(mu_);
  for (const auto& [labels, count] : requests_) {
    out += "apiserver_request_total{" + labels + "} " + std::to_string(count) + "\n";
  }
  out +=
      "# HELP apiserver_watch_events_total Number of events sent in watch clients\n"
      "# TYPE apiserver_watch_events_total counter\n";
  for (const auto& [labels, count] : watch_events_) {
    out += "apiserver_watch_events_total{" + labels + "} " + std::to_string(count) + "\n";
  }
  return out;
}

}  // namespace kf::sim
