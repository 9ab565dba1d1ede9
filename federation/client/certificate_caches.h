#pragma once
// Filling OpenSSL's per-certificate caches before a TLS context is shared between connections.
//
// OpenSSL 3.0 computes a certificate's cached extension data (key identifiers, purpose flags) on
// first use, under a lock it drops and re-takes without checking again: when two handshakes
// verify against the same uncached certificate together, the later one rewrites those fields
// while the earlier one already compares them (openssl/openssl#32609; ThreadSanitizer reports
// ASN1_STRING_set against ASN1_STRING_cmp). A context whose certificates are cached while it is
// configured leaves nothing for concurrent handshakes to compute.

struct ssl_ctx_st;  // OpenSSL's SSL_CTX, kept out of this header

namespace kf {

// Caches the extensions of the context's own certificate, its chain and every certificate in
// its verification store. Call once the certificates are loaded, before the first handshake.
void cacheCertificateExtensions(ssl_ctx_st* context);

}  // namespace kf
