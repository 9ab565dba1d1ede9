#include "cmd/webhook/run.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "cmd/cli/command.h"
#include "cmd/cli/logging.h"
#include "cmd/cli/process_config.h"
#include "cmd/cli/process_start.h"
#include "cmd/webhook/options.h"
#include "federation/admission/webhook_routes.h"
#include "federation/serving/http_server.h"

namespace kf::webhook {
namespace {

constexpr int kExitFatal = cli::kExitFailure;
// An AdmissionReview carries the object and, on UPDATE, the old one; the API server accepts
// objects of up to 3 MiB. Bigger bodies get 413.
constexpr std::size_t kMaxReviewBytes = 7 * 1024 * 1024;

int fatal(const std::string& message) {
  spdlog::critical("{}", message);
  return kExitFatal;
}

// The validators read no other object, so the webhook never calls the API server. The flags are
// still KubeFed's, and a kubeconfig that cannot be used is still fatal at startup, as in KubeFed
// (whose manager builds a client from it): a broken deployment shows at once.
Result<RestConfig> checkedRestConfig(const Options& options) {
  if (options.kubeconfig.empty() && options.master.empty()) {
    spdlog::warn(
        "Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might "
        "not work.");
  }
  return cli::processRestConfig(options.kubeconfig, options.master);
}

Result<std::unique_ptr<serving::HttpServer>> serve(const Options& options) {
  const std::string cert_dir =
      options.cert_dir.empty() ? defaultCertDir(std::getenv("TMPDIR")) : options.cert_dir;
  serving::ServerOptions server_options;
  server_options.tls = serving::TlsFiles{cert_dir + "/tls.crt", cert_dir + "/tls.key"};
  server_options.max_request_body = kMaxReviewBytes;
  serving::Routes routes = admission::kubefedWebhookRoutes();
  for (const auto& [path, handler] : routes) {
    if (path.rfind("/readyz", 0) != 0) spdlog::info("Registering webhook path={}", path);
  }
  const std::string address = ":" + std::to_string(options.secure_port);
  KF_TRY(server, serving::HttpServer::start(address, std::move(routes), std::move(server_options)));
  spdlog::info("Serving webhook server on {} (port {}) with the certificate in {}", address,
               server->port(), cert_dir);
  return std::move(server);
}

}  // namespace

int runWebhook(const std::vector<std::string>& args) {
  cli::StopSignals signals;  // first, so that every later thread inherits the blocked mask
  auto parsed = parseOptions(args);
  if (auto exit = cli::startUp(parsed, {usage(), versionLine(), /*usage_after_error=*/false})) {
    return *exit;
  }
  const Options options = std::move(parsed).value();

  auto config = checkedRestConfig(options);
  if (!config) return fatal("error setting up webhook's config: " + config.error().message);
  spdlog::info("API server {} (the validators need no requests to it)", config.value().server);

  auto server = serve(options);
  if (!server) return fatal("unable to run the webhook server: " + server.error().message);
  signals.wait();
  server.value()->stop();
  spdlog::info("Webhook server stopped");
  return 0;
}

}  // namespace kf::webhook
