#pragma once
// A TLS client certificate that arrives at run time (an exec credential plugin's
// clientCertificateData/clientKeyData) rather than with the kubeconfig's TLS settings. Requests
// carry it by shared pointer: a new pointer means the credential rotated, and the transport then
// stops reusing connections made with the old one.

#include <string>

#include "apis/meta/api_error.h"

struct ssl_st;  // OpenSSL's SSL, kept out of this header

namespace kf {

struct ClientCertificate {
  std::string cert_pem;  // the leaf first, then any intermediates
  std::string key_pem;
};

// Whether the PEM holds a certificate and a private key that belong together; the error says
// which part is wrong (never the key's contents).
Status validateClientCertificate(const ClientCertificate& certificate);

// Presents `certificate` on one TLS connection, before its handshake.
Status useClientCertificate(ssl_st* ssl, const ClientCertificate& certificate);

}  // namespace kf
