#pragma once
// One simulated member's HTTP API without the network: a request in, an answer (or a watch to
// start) out. Bearer-token authentication (a wrong token is 401; none is system:anonymous, who
// may read /healthz, /livez, /readyz and /version and is refused anything else with 403, as
// RBAC's default roles do), the URL layout of the Kubernetes API, discovery, /version,
// /metrics, and the store's answers as JSON.

#include <chrono>
#include <string>
#include <variant>

#include "tests/support/simulated_member/member_store.h"
#include "tests/support/simulated_member/request_metrics.h"

namespace kf::sim {

struct ApiRequest {
  std::string method;
  std::string path;   // without the query
  std::string query;  // after '?', undecoded
  std::string content_type;
  std::string authorization;  // the Authorization header
  std::string body;
};

struct HttpAnswer {
  int code = 200;
  std::string content_type = "application/json";
  std::string body;
};

// A watch the transport is to stream: the store's watch() with these arguments.
struct WatchStart {
  const ServedResource* resource = nullptr;
  std::string ns;
  Selectors selectors;
  std::string resource_version;
  bool bookmarks = false;
  std::chrono::seconds timeout{0};
};

using ApiOutcome = std::variant<HttpAnswer, WatchStart>;

class MemberApi {
 public:
  MemberApi(MemberStore& store, RequestMetrics& metrics, std::string token,
            std::string server_address);

  ApiOutcome handle(const ApiRequest& request);

  MemberStore& store() { return store_; }
  RequestMetrics& metrics() { return metrics_; }

 private:
  struct Target;
  ApiOutcome handleResource(const ApiRequest& request, const Target& target);
  std::optional<HttpAnswer> handleNonResource(const ApiRequest& request);
  ApiOutcome resourceOperation(const ApiRequest& request, const Target& target);

  MemberStore& store_;
  RequestMetrics& metrics_;
  const std::string token_;
  const std::string server_address_;
};

// The text of a JSON reply.
HttpAnswer jsonAnswer(const Reply& reply);

}  // namespace kf::sim
