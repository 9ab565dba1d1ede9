#include "federation/client/client_certificate.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <vector>

namespace kf {
namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using CertPtr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

// The certificate chain and key, parsed from PEM.
struct ParsedCertificate {
  std::vector<CertPtr> chain;  // leaf first
  KeyPtr key;
};

std::unique_ptr<BIO, BioFree> memoryBio(const std::string& text) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// OpenSSL's reason for the last failure, and the error queue left empty for the next caller.
std::string lastSslError() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code == 0) return "not PEM data";
  char buffer[256];
  ERR_error_string_n(code, buffer, sizeof(buffer));
  return buffer;
}

ApiError certificateError(const std::string& problem) {
  return makeError(Reason::kBadConfig, "client certificate: " + problem);
}

Result<ParsedCertificate> parse(const ClientCertificate& certificate) {
  ParsedCertificate parsed;
  auto certs = memoryBio(certificate.cert_pem);
  while (X509* cert = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr)) {
    parsed.chain.emplace_back(cert);
  }
  ERR_clear_error();  // the loop ends on "no start line", which is no failure
  if (parsed.chain.empty()) return certificateError("the certificate PEM holds no certificate");
  auto key = memoryBio(certificate.key_pem);
  parsed.key.reset(PEM_read_bio_PrivateKey(key.get(), nullptr, nullptr, nullptr));
  if (!parsed.key) return certificateError("the private key cannot be read: " + lastSslError());
  if (X509_check_private_key(parsed.chain.front().get(), parsed.key.get()) != 1) {
    ERR_clear_error();
    return certificateError("the private key does not belong to the certificate");
  }
  return parsed;
}

}  // namespace

Status validateClientCertificate(const ClientCertificate& certificate) {
  KF_TRYV(parse(certificate));
  return boost::outcome_v2::success();
}

Status useClientCertificate(ssl_st* ssl, const ClientCertificate& certificate) {
  KF_TRY(parsed, parse(certificate));
  if (SSL_use_certificate(ssl, parsed.chain.front().get()) != 1 ||
      SSL_use_PrivateKey(ssl, parsed.key.get()) != 1) {
    return certificateError("cannot be used: " + lastSslError());
  }
  for (std::size_t i = 1; i < parsed.chain.size(); ++i) {
    // SSL_add1_chain_cert is a macro with a C cast; this is the call it expands to.
    if (SSL_ctrl(ssl, SSL_CTRL_CHAIN_CERT, 1, parsed.chain[i].get()) != 1) {
      return certificateError("intermediate certificate cannot be used: " + lastSslError());
    }
  }
  return boost::outcome_v2::success();
}

}  // namespace kf
