#pragma once
// The routes KubeFed's controller manager serves: /healthz (and /readyz) on --healthz-addr,
// /metrics on --metrics-addr.

#include <functional>
#include <string>

#include "federation/serving/http_server.h"

namespace kf::serving {

// The Content-Type of the Prometheus text exposition format.
inline constexpr char kPrometheusContentType[] = "text/plain; version=0.0.4; charset=utf-8";

struct Readiness {
  bool ready = false;
  std::string reason;  // why not ready, for people (shown in the 503 body)

  static Readiness ok() { return {true, ""}; }
  static Readiness notReady(std::string why) { return {false, std::move(why)}; }
};
// Called on every /readyz request, on the server's network thread: must be quick.
using ReadinessCheck = std::function<Readiness()>;

// Always 200 "OK", as KubeFed's /healthz: the process is alive.
Handler healthzHandler();
// 200 "ok" while `check` says ready, else 503 "not ready: <reason>".
Handler readyzHandler(ReadinessCheck check);
// The process-wide metrics registry (kubefed_metrics.h) in the Prometheus text format.
Handler metricsHandler();

// {"/healthz"} plus {"/readyz"} when `readiness` is set.
Routes healthRoutes(ReadinessCheck readiness = nullptr);
// {"/metrics"}.
Routes metricsRoutes();

}  // namespace kf::serving
