#include "federation/serving/tls_context.h"

#include <openssl/ssl.h>
#include <spdlog/spdlog.h>

#include <boost/asio/buffer.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "federation/client/certificate_caches.h"

namespace kf::serving {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;

Result<std::string> readPemFile(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return makeError(Reason::kBadConfig, std::string("cannot read the TLS ") + what + " file \"" +
                                             path + "\": " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ApiError loadError(const std::string& source, const char* what,
                   const boost::system::error_code& ec) {
  return makeError(Reason::kBadConfig, source + ": cannot load the " + what + ": " + ec.message());
}

std::string describeTlsFiles(const TlsFiles& files) {
  return "\"" + files.cert_file + "\" and \"" + files.key_file + "\"";
}

}  // namespace

Result<TlsContextPtr> makeServerTlsContext(const std::string& cert_pem, const std::string& key_pem,
                                           const std::string& source) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  boost::system::error_code ec;
  context->set_options(ssl::context::default_workarounds | ssl::context::no_compression, ec);
  // Go's webhook servers accept TLS 1.2 and 1.3 only; so do we, whatever the system default.
  SSL_CTX* native = context->native_handle();
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) {
    return makeError(Reason::kBadConfig, source + ": cannot require TLS 1.2 or later");
  }
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION);
  if (context->use_certificate_chain(asio::buffer(cert_pem), ec); ec) {
    return loadError(source, "certificate chain", ec);
  }
  // OpenSSL checks here that the key belongs to the certificate ("key values mismatch").
  if (context->use_private_key(asio::buffer(key_pem), ssl::context::pem, ec); ec) {
    return loadError(source, "private key", ec);
  }
  cacheCertificateExtensions(native);
  return context;
}

Result<std::unique_ptr<ReloadingTlsContext>> ReloadingTlsContext::load(TlsFiles files) {
  KF_TRY(cert_pem, readPemFile(files.cert_file, "certificate"));
  KF_TRY(key_pem, readPemFile(files.key_file, "key"));
  KF_TRY(context, makeServerTlsContext(cert_pem, key_pem, describeTlsFiles(files)));
  return std::unique_ptr<ReloadingTlsContext>(new ReloadingTlsContext(
      std::move(files), std::move(cert_pem), std::move(key_pem), std::move(context)));
}

ReloadingTlsContext::ReloadingTlsContext(TlsFiles files, std::string cert_pem, std::string key_pem,
                                         TlsContextPtr context)
    : files_(std::move(files)),
      cert_pem_(std::move(cert_pem)),
      key_pem_(std::move(key_pem)),
      context_(std::move(context)) {}

TlsContextPtr ReloadingTlsContext::current() {
  auto cert_pem = readPemFile(files_.cert_file, "certificate");
  auto key_pem = readPemFile(files_.key_file, "key");
  if (!cert_pem || !key_pem) {  // mid-swap or removed: keep serving what we have
    keepCurrent((!cert_pem ? cert_pem : key_pem).error().message);
    return context_;
  }
  if (cert_pem.value() == cert_pem_ && key_pem.value() == key_pem_) return context_;
  std::string content = cert_pem.value() + key_pem.value();
  if (content == rejected_content_) return context_;
  auto replaced = makeServerTlsContext(cert_pem.value(), key_pem.value(), describeTlsFiles(files_));
  if (!replaced) {
    rejected_content_ = std::move(content);
    keepCurrent(replaced.error().message);
    return context_;
  }
  cert_pem_ = std::move(cert_pem).value();
  key_pem_ = std::move(key_pem).value();
  context_ = std::move(replaced).value();
  rejected_content_.clear();
  last_warning_.clear();
  spdlog::info("Updated current TLS certificate from {}", describeTlsFiles(files_));
  return context_;
}

void ReloadingTlsContext::keepCurrent(const std::string& why) {
  if (why == last_warning_) return;
  spdlog::warn("Keeping the current TLS certificate: {}", why);
  last_warning_ = why;
}

}  // namespace kf::serving
