#include "federation/serving/kubefed_routes.h"

#include "federation/metrics/kubefed_metrics.h"

namespace kf::serving {

Handler healthzHandler() {
  return [](const ServerRequest&) { return ServerReply{200, "text/plain; charset=utf-8", "OK"}; };
}

Handler readyzHandler(ReadinessCheck check) {
  return [check = std::move(check)](const ServerRequest&) {
    const Readiness readiness = check();
    if (readiness.ready) return ServerReply{200, "text/plain; charset=utf-8", "ok"};
    const std::string reason = readiness.reason.empty() ? "unknown reason" : readiness.reason;
    return ServerReply{503, "text/plain; charset=utf-8", "not ready: " + reason + "\n"};
  };
}

Handler metricsHandler() {
  return [](const ServerRequest&) {
    return ServerReply{200, kPrometheusContentType, metrics::renderPrometheusText()};
  };
}

Routes healthRoutes(ReadinessCheck readiness) {
  Routes routes{{"/healthz", healthzHandler()}};
  if (readiness) routes.emplace("/readyz", readyzHandler(std::move(readiness)));
  return routes;
}

Routes metricsRoutes() { return {{"/metrics", metricsHandler()}}; }

}  // namespace kf::serving
