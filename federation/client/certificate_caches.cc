#include "federation/client/certificate_caches.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace kf {
namespace {

// X509_check_purpose with purpose -1 only computes the certificate's cached extension data.
void cacheExtensions(X509* cert) {
  if (cert != nullptr) X509_check_purpose(cert, -1, 0);
}

}  // namespace

void cacheCertificateExtensions(ssl_ctx_st* context) {
  cacheExtensions(SSL_CTX_get0_certificate(context));
  STACK_OF(X509)* chain = nullptr;
  // SSL_CTX_get0_chain_certs is a macro with a C cast; this is the call it expands to.
  if (SSL_CTX_ctrl(context, SSL_CTRL_GET_CHAIN_CERTS, 0, &chain) == 1 && chain != nullptr) {
    for (int i = 0; i < sk_X509_num(chain); ++i) cacheExtensions(sk_X509_value(chain, i));
  }
  X509_STORE* store = SSL_CTX_get_cert_store(context);
  if (store == nullptr) return;
  X509_STORE_lock(store);
  STACK_OF(X509_OBJECT)* objects = X509_STORE_get0_objects(store);
  for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) {
    cacheExtensions(X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i)));
  }
  X509_STORE_unlock(store);
}

}  // namespace kf
