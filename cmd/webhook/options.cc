#include "cmd/webhook/options.h"

#include <charconv>
#include <sstream>

#include "cmd/cli/command.h"
#include "cmd/cli/flags.h"
#include "cmd/cli/version.h"

namespace kf::webhook {
namespace {

ApiError badFlag(const std::string& flag, const std::string& value, const std::string& why) {
  return makeError(Reason::kBadConfig,
                   "invalid value \"" + value + "\" for flag --" + flag + ": " + why);
}

Result<int> parseInt(const std::string& flag, const std::string& text, int min, int max) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return badFlag(flag, text, "expected an integer");
  }
  if (value < min || value > max) {
    return badFlag(flag, text,
                   "must be from " + std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

struct RawFlags {
  std::string secure_port = "8443";
  cli::LogOptions log;
};

void declare(cli::FlagSet& flags, Options& o, RawFlags& raw) {
  flags.addString("secure-port", 0, &raw.secure_port,
                  "The port on which to serve HTTPS (0: any free port, logged at startup).");
  flags.addString("cert-dir", 0, &o.cert_dir,
                  "The directory where the TLS certs are located (tls.crt and tls.key); they are "
                  "read again when they change. Default: k8s-webhook-server/serving-certs under "
                  "$TMPDIR (or /tmp).");
  flags.addString("kubeconfig", 0, &o.kubeconfig,
                  "Path to a kubeconfig. Only required if out-of-cluster. Checked at startup; the "
                  "webhook sends no request to the API server.");
  flags.addString("master", 0, &o.master,
                  "The address of the Kubernetes API server. Overrides any value in kubeconfig. "
                  "Only required if out-of-cluster.");
  flags.addBool("version", 0, &o.print_version, "Prints the version info of webhook.");
  raw.log.addTo(flags);
}

}  // namespace

std::string defaultCertDir(const char* tmpdir) {
  const std::string base = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  return base + "/k8s-webhook-server/serving-certs";
}

Result<Options> parseOptions(const std::vector<std::string>& args) {
  Options o;
  RawFlags raw;
  cli::FlagSet flags;
  declare(flags, o, raw);
  std::ostringstream warnings;
  if (!flags.parse(args, warnings)) return makeError(Reason::kBadConfig, flags.error());
  o.help = flags.helpRequested();
  if (!flags.positional().empty()) {
    return makeError(Reason::kBadConfig, "unexpected argument \"" + flags.positional().front() +
                                             "\": the webhook takes flags only (see --help)");
  }
  KF_TRY(port, parseInt("secure-port", raw.secure_port, 0, 65535));
  KF_TRY(logging, cli::logSettings(raw.log));
  o.secure_port = port;
  o.verbosity = logging.verbosity;
  o.logging = std::move(logging);
  return o;
}

std::string describeFlags(const Options& o) {
  std::ostringstream out;
  out << "--secure-port=" << o.secure_port << " --cert-dir=" << o.cert_dir
      << " --kubeconfig=" << o.kubeconfig << " --master=" << o.master << " --v=" << o.verbosity;
  return out.str();
}

std::string usage() {
  Options o;
  RawFlags raw;
  cli::FlagSet flags;
  flags.setCommandName("webhook");
  declare(flags, o, raw);
  std::ostringstream out;
  cli::printHelp("webhook", {"", "", "Start a kubefed webhook server", ""}, flags, out);
  return out.str();
}

std::string versionLine() { return "KubeFed webhook version: " + cli::versionInfo(); }

}  // namespace kf::webhook
