#pragma once
// Certificates made in memory for TLS tests: a CA, and certificates it signs with chosen
// subjectAltNames and validity window, each with PEM text for the certificate and the key.

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>

namespace kf::test {

struct KeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct CertDeleter {
  void operator()(X509* cert) const { X509_free(cert); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyDeleter>;
using CertPtr = std::unique_ptr<X509, CertDeleter>;

// A key and its certificate, with PEM text for both.
struct Credential {
  KeyPtr key;
  CertPtr cert;
  std::string cert_pem;
  std::string key_pem;
};

inline std::string drainBio(BIO* bio) {
  std::string out(BIO_ctrl_pending(bio), '\0');
  const int read = BIO_read(bio, out.data(), static_cast<int>(out.size()));
  out.resize(read > 0 ? static_cast<std::size_t>(read) : 0);
  BIO_free(bio);
  return out;
}

inline std::string certPem(X509* cert) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  return drainBio(bio);
}

inline std::string keyPem(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  return drainBio(bio);
}

inline void addExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX context;
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str());
  X509_add_ext(cert, extension, -1);
  X509_EXTENSION_free(extension);
}

struct CertificateSpec {
  std::string common_name;
  std::string subject_alt_names;   // "IP:127.0.0.1,DNS:localhost"; empty for a CA
  long not_before_offset = -3600;  // seconds from now
  long not_after_offset = 3600;
  bool is_ca = false;
  bool key_identifiers = false;  // subject and authority key identifiers, as openssl req adds
};

// Signed by `issuer` (nullptr: self-signed).
inline Credential makeCredential(const CertificateSpec& spec, const Credential* issuer) {
  Credential made;
  made.key.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  made.cert.reset(X509_new());
  X509* cert = made.cert.get();
  X509_set_version(cert, 2);
  static long serial = 1;
  ASN1_INTEGER_set(X509_get_serialNumber(cert), ++serial);
  X509_gmtime_adj(X509_getm_notBefore(cert), spec.not_before_offset);
  X509_gmtime_adj(X509_getm_notAfter(cert), spec.not_after_offset);
  X509_set_pubkey(cert, made.key.get());
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(spec.common_name.c_str()), -1,
                             -1, 0);
  X509* issuer_cert = issuer != nullptr ? issuer->cert.get() : cert;
  X509_set_issuer_name(cert, X509_get_subject_name(issuer_cert));
  if (spec.is_ca) {
    addExtension(cert, issuer_cert, NID_basic_constraints, "critical,CA:TRUE");
    addExtension(cert, issuer_cert, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    addExtension(cert, issuer_cert, NID_basic_constraints, "CA:FALSE");
    addExtension(cert, issuer_cert, NID_ext_key_usage, "serverAuth");
    addExtension(cert, issuer_cert, NID_subject_alt_name, spec.subject_alt_names);
  }
  if (spec.key_identifiers) {
    addExtension(cert, issuer_cert, NID_subject_key_identifier, "hash");
    addExtension(cert, issuer_cert, NID_authority_key_identifier, "keyid:always");
  }
  X509_sign(cert, issuer != nullptr ? issuer->key.get() : made.key.get(), EVP_sha256());
  made.cert_pem = certPem(cert);
  made.key_pem = keyPem(made.key.get());
  return made;
}

inline Credential makeCa(const std::string& name) {
  return makeCredential({.common_name = name, .is_ca = true}, nullptr);
}

}  // namespace kf::test
