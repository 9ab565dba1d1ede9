#pragma once
// The webhook's command line (spec §2.10): KubeFed's flags, parsed and checked.

#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "cmd/cli/logging.h"

namespace kf::webhook {

struct Options {
  int secure_port = 8443;
  // tls.crt and tls.key; "" is controller-runtime's default directory (defaultCertDir()).
  std::string cert_dir;
  std::string kubeconfig;
  std::string master;
  int verbosity = 0;
  cli::LogSettings logging;  // klog's flags (-v, --logtostderr, --log-file, ...)
  bool print_version = false;
  bool help = false;
};

// Parses argv (without the program name). Errors name the flag and the bad value.
Result<Options> parseOptions(const std::vector<std::string>& args);

// controller-runtime's default certificate directory: <TMPDIR or /tmp>/k8s-webhook-server/
// serving-certs. `tmpdir` is the TMPDIR value (nullptr when unset).
std::string defaultCertDir(const char* tmpdir);

// "--name=value" for every flag, for the V(1) startup log line (no secrets are flags).
std::string describeFlags(const Options& options);

// The --help text.
std::string usage();

// The line printed first: "KubeFed webhook version: version.Info{...}".
std::string versionLine();

}  // namespace kf::webhook
