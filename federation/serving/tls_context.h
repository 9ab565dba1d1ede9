#pragma once
// The TLS side of HttpServer: a server context (TLS 1.2 or later only) built from a PEM
// certificate chain and key, and a holder that reads the files again for every new connection, so
// that a renewed certificate (cert-manager, or the kubelet swapping a Secret volume's symlinked
// directory) is served without a restart. Internal to federation/serving and its tests.

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string>

#include "apis/meta/api_error.h"
#include "federation/serving/http_server.h"

namespace kf::serving {

using TlsContextPtr = std::shared_ptr<boost::asio::ssl::context>;

// A server context for this certificate chain (leaf first) and key. Fails with kBadConfig naming
// `source` when the PEM text does not load or the key does not belong to the certificate.
Result<TlsContextPtr> makeServerTlsContext(const std::string& cert_pem, const std::string& key_pem,
                                           const std::string& source);

class ReloadingTlsContext {
 public:
  // Reads both files and builds the first context; fails with kBadConfig naming the file that is
  // missing, unreadable or invalid.
  static Result<std::unique_ptr<ReloadingTlsContext>> load(TlsFiles files);

  // The context for a new connection. Reads the files first: when their content changed and the
  // new pair loads, it becomes the current context; when it does not (say a certificate whose key
  // is not written yet), the previous one stays and a warning is logged once per such content.
  // Connections keep the context they started with. Not thread-safe: one caller (the server's
  // network thread).
  TlsContextPtr current();

 private:
  ReloadingTlsContext(TlsFiles files, std::string cert_pem, std::string key_pem,
                      TlsContextPtr context);

  // Logs `why` unless it is the warning logged last.
  void keepCurrent(const std::string& why);

  const TlsFiles files_;
  std::string cert_pem_;  // what the current context was built from
  std::string key_pem_;
  TlsContextPtr context_;
  std::string rejected_content_;  // a changed pair that did not load: not parsed again
  std::string last_warning_;
};

}  // namespace kf::serving
