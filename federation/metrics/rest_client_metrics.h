#pragma once
// client-go's REST client metrics as KubeFed v0.8.1 exports them (client-go 0.21 through
// controller-runtime 0.9's adapter), for every API server the process talks to:
//   rest_client_requests_total{code,method,host}     counter: one per attempt sent; code is the
//       HTTP status, or "<error>" when no response came; host is host[:port] of the server URL
//   rest_client_request_latency_seconds{verb,url}    histogram (0.001 s to 0.512 s, doubling):
//       one per request, from before the client's rate limit to its last attempt's answer;
//       url is the request's URL with names, namespaces and query values replaced by
//       {name}, {namespace} and {value} (client-go's finalURLTemplate), so that its cardinality
//       is bounded by servers, resources and query parameter names. Watches are counted in
//       requests_total only, as in client-go.

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "federation/metrics/registry.h"
#include "federation/runtime/clock.h"

namespace kf::metrics {

using QueryParameter = std::pair<std::string, std::string>;

// client-go's URL template of a request to `server` ("https://host:6443[/prefix]"), appended to
// `out`:
// "https://host:6443/api/v1/namespaces/%7Bnamespace%7D/configmaps/%7Bname%7D?limit=%7Bvalue%7D".
// `path` is the request's path below the server's prefix ("/api/v1/...").
void appendUrlTemplate(std::string_view server, std::string_view path,
                       std::span<const QueryParameter> query, std::string& out);

class RestClientMetrics {
 public:
  // The series of requests to `server`, a RestConfig's server URL.
  explicit RestClientMetrics(std::string server, Registry& registry = defaultRegistry());

  // One attempt and its answer: an HTTP status, or 0 when none came.
  void countAttempt(std::string_view method, int status) const;
  // One whole request, `elapsed` from its start to its end.
  void observeRequest(std::string_view method, std::string_view path,
                      std::span<const QueryParameter> query, Duration elapsed) const;

 private:
  std::string server_;
  std::string host_;  // the host label: host[:port] as written in the server URL
  Counter& requests_;
  Histogram& latency_;
};

}  // namespace kf::metrics
