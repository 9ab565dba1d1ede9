#include "cmd/controller-manager/servers.h"

#include <spdlog/spdlog.h>

#include "federation/serving/http_server.h"
#include "federation/serving/kubefed_routes.h"

namespace kf::manager {
namespace {

class RunningServers final : public Servers {
 public:
  std::vector<std::unique_ptr<serving::HttpServer>> servers;
};

Result<std::unique_ptr<serving::HttpServer>> serve(const std::string& what,
                                                   const std::string& address,
                                                   serving::Routes routes,
                                                   const serving::BindRetry& bind_retry) {
  auto server = serving::HttpServer::start(address, std::move(routes), {.bind_retry = bind_retry});
  if (!server) {
    return makeError(server.error().reason,
                     "cannot serve " + what + " on " + address + ": " + server.error().message);
  }
  // The bound port matters when the address asked for port 0 (tests run several processes).
  spdlog::info("Serving {} on {} (port {})", what, address, server.value()->port());
  return std::move(server).value();
}

}  // namespace

Result<std::unique_ptr<Servers>> startServers(const Options& options, const ReadinessFlag& ready,
                                              const serving::BindRetry& bind_retry) {
  auto readiness = [&ready] {
    return ready.get() ? serving::Readiness::ok()
                       : serving::Readiness::notReady("the KubeFedConfig is not loaded yet");
  };
  auto running = std::make_unique<RunningServers>();
  serving::Routes health = serving::healthRoutes(readiness);
  if (options.healthz_addr == options.metrics_addr &&
      options.healthz_addr.find(":0") == std::string::npos) {
    health.merge(serving::metricsRoutes());
    KF_TRY(both, serve("/healthz, /readyz and /metrics", options.healthz_addr, std::move(health),
                       bind_retry));
    running->servers.push_back(std::move(both));
    return std::unique_ptr<Servers>(std::move(running));
  }
  KF_TRY(healthz,
         serve("/healthz and /readyz", options.healthz_addr, std::move(health), bind_retry));
  running->servers.push_back(std::move(healthz));
  KF_TRY(metrics, serve("/metrics", options.metrics_addr, serving::metricsRoutes(), bind_retry));
  running->servers.push_back(std::move(metrics));
  return std::unique_ptr<Servers>(std::move(running));
}

}  // namespace kf::manager
