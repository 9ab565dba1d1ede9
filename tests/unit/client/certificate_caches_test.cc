// Concurrent handshakes verify against the certificates of one shared TLS context. OpenSSL 3.0
// races when they find a certificate's extension cache empty (openssl/openssl#32609); the
// context is therefore cached while it is configured. Under the tsan preset (which suppresses
// nothing inside OpenSSL) this test fails with a data race report when the cache is not filled.

#include "federation/client/certificate_caches.h"

#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <atomic>
#include <thread>
#include <vector>

#include "tests/support/test_certificates.h"

namespace kf {
namespace {

// A fresh certificate object from PEM: nothing cached yet, as after loading a kubeconfig.
X509* parsePem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return cert;
}

TEST(CertificateCachesTest, ConcurrentVerificationsAgainstACachedContextDoNotRace) {
  const test::Credential ca = test::makeCredential(
      {.common_name = "cache-ca", .is_ca = true, .key_identifiers = true}, nullptr);
  const test::Credential leaf = test::makeCredential(
      {.common_name = "leaf", .subject_alt_names = "DNS:leaf", .key_identifiers = true}, &ca);
  for (int round = 0; round < 20; ++round) {
    SSL_CTX* context = SSL_CTX_new(TLS_client_method());
    ASSERT_NE(context, nullptr);
    X509* ca_cert = parsePem(ca.cert_pem);
    ASSERT_EQ(X509_STORE_add_cert(SSL_CTX_get_cert_store(context), ca_cert), 1);
    X509_free(ca_cert);
    cacheCertificateExtensions(context);

    std::atomic<int> verified{0};
    std::vector<std::thread> handshakes;
    for (int i = 0; i < 4; ++i) {
      handshakes.emplace_back([&] {
        X509* presented = parsePem(leaf.cert_pem);
        X509_STORE_CTX* verification = X509_STORE_CTX_new();
        X509_STORE_CTX_init(verification, SSL_CTX_get_cert_store(context), presented, nullptr);
        if (X509_verify_cert(verification) == 1) ++verified;
        X509_STORE_CTX_free(verification);
        X509_free(presented);
      });
    }
    for (auto& handshake : handshakes) handshake.join();
    SSL_CTX_free(context);
    EXPECT_EQ(verified.load(), 4);
  }
}

}  // namespace
}  // namespace kf
