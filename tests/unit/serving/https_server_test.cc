// The server with TLS on real loopback sockets (127.0.0.1 only): protocol versions, certificate
// files that change under it (in place, or swapped as the kubelet updates a Secret volume), and
// files that cannot be used.

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

#include "federation/client/transport.h"
#include "federation/serving/http_server.h"
#include "federation/serving/tls_context.h"
#include "tests/support/secret_volume.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_certificates.h"

namespace kf::serving {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using test::Credential;
using test::makeCa;
using test::makeCredential;
using test::SecretVolume;
using test::TempDir;

Credential servingCert(const Credential& ca, const std::string& name) {
  return makeCredential({.common_name = name, .subject_alt_names = "IP:127.0.0.1"}, &ca);
}

struct HandshakeResult {
  bool ok = false;
  std::string error;
  std::string peer_name;  // the common name of the certificate the server presented
  int version = 0;        // the protocol version agreed on
};

std::string commonName(X509* cert) {
  char name[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof(name));
  return name;
}

// One TLS handshake with the server, verifying it against `ca_pem`, offering only protocol
// versions min..max. The client allows every cipher and version its library has, so that only
// the server can refuse an old version.
HandshakeResult handshake(int port, const std::string& ca_pem, int min_version = TLS1_2_VERSION,
                          int max_version = TLS1_3_VERSION) {
  asio::io_context io;
  ssl::context context(ssl::context::tls_client);
  SSL_CTX_set_security_level(context.native_handle(), 0);
  SSL_CTX_set_cipher_list(context.native_handle(), "ALL:@SECLEVEL=0");
  SSL_CTX_set_min_proto_version(context.native_handle(), min_version);
  SSL_CTX_set_max_proto_version(context.native_handle(), max_version);
  context.add_certificate_authority(asio::buffer(ca_pem));
  context.set_verify_mode(ssl::verify_peer);
  ssl::stream<asio::ip::tcp::socket> stream(io, context);
  stream.next_layer().connect(
      {asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  boost::system::error_code ec;
  stream.handshake(ssl::stream_base::client, ec);
  if (ec) return {false, ec.message(), "", 0};
  X509* peer = SSL_get1_peer_certificate(stream.native_handle());
  HandshakeResult result{true, "", peer != nullptr ? commonName(peer) : "",
                         SSL_version(stream.native_handle())};
  X509_free(peer);
  stream.shutdown(ec);
  return result;
}

// GET over HTTPS with a fresh connection, verifying the server against `ca_pem`.
Result<HttpResponse> httpsGet(int port, const std::string& ca_pem, const std::string& target) {
  RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(port);
  config.tls.ca_pem = ca_pem;
  KF_TRY(transport, makeTransport(config));
  HttpRequest request;
  request.method = "GET";
  request.target = target;
  request.timeout = std::chrono::milliseconds(10'000);
  return transport->roundTrip(request);
}

Routes helloRoutes() {
  return {{"/hello", [](const ServerRequest&) {
             return ServerReply{200, "text/plain; charset=utf-8", "hello"};
           }}};
}

class HttpsServerTest : public testing::Test {
 protected:
  // Starts a server on the files of dir_, which must exist.
  std::unique_ptr<HttpServer> start() {
    auto server = HttpServer::start("127.0.0.1:0", helloRoutes(), ServerOptions{.tls = files()});
    EXPECT_TRUE(server) << (server ? "" : server.error().describe());
    return server ? std::move(server).value() : nullptr;
  }
  TlsFiles files() const { return {dir_.file("tls.crt"), dir_.file("tls.key")}; }
  void writeFiles(const Credential& credential) const {
    dir_.write("tls.crt", credential.cert_pem);
    dir_.write("tls.key", credential.key_pem);
  }

  TempDir dir_;
  Credential ca_ = makeCa("ca-one");
  Credential first_ = servingCert(ca_, "first");
};

// Verifies a route is answered over TLS to a client that verifies the server's certificate.
TEST_F(HttpsServerTest, ServesRoutesOverTls) {
  writeFiles(first_);
  auto server = start();
  ASSERT_TRUE(server);
  auto response = httpsGet(server->port(), ca_.cert_pem, "/hello");
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().status, 200);
  EXPECT_EQ(response.value().body, "hello");
}

// Verifies TLS 1.2 and 1.3 are accepted and TLS 1.1 (or older) is refused.
TEST_F(HttpsServerTest, AcceptsTls12And13AndRefusesTls11) {
  writeFiles(first_);
  auto server = start();
  ASSERT_TRUE(server);
  const auto tls13 = handshake(server->port(), ca_.cert_pem, TLS1_3_VERSION, TLS1_3_VERSION);
  EXPECT_TRUE(tls13.ok) << tls13.error;
  EXPECT_EQ(tls13.version, TLS1_3_VERSION);
  const auto tls12 = handshake(server->port(), ca_.cert_pem, TLS1_2_VERSION, TLS1_2_VERSION);
  EXPECT_TRUE(tls12.ok) << tls12.error;
  EXPECT_EQ(tls12.version, TLS1_2_VERSION);
  const auto tls11 = handshake(server->port(), ca_.cert_pem, TLS1_VERSION, TLS1_1_VERSION);
  EXPECT_FALSE(tls11.ok) << "a TLS 1.1 handshake succeeded";
  // The server still serves after refusing one.
  EXPECT_TRUE(handshake(server->port(), ca_.cert_pem).ok);
}

// Verifies the context itself demands TLS 1.2, whatever the system's OpenSSL defaults are (on
// Debian they already refuse TLS 1.1, which would hide a server that forgot to).
TEST(ServerTlsContextTest, RequiresTls12OrLater) {
  const Credential ca = makeCa("ca");
  const Credential cert = servingCert(ca, "server");
  auto context = makeServerTlsContext(cert.cert_pem, cert.key_pem, "test");
  ASSERT_TRUE(context) << context.error().describe();
  EXPECT_EQ(SSL_CTX_get_min_proto_version(context.value()->native_handle()), TLS1_2_VERSION);
}

// Verifies a client speaking plain HTTP to the TLS port is dropped and the server keeps serving.
TEST_F(HttpsServerTest, PlainHttpOnTheTlsPortIsDroppedAndServingGoesOn) {
  writeFiles(first_);
  auto server = start();
  ASSERT_TRUE(server);
  RestConfig plain;
  plain.server = "http://127.0.0.1:" + std::to_string(server->port());
  auto transport = makeTransport(plain);
  ASSERT_TRUE(transport);
  HttpRequest request;
  request.method = "GET";
  request.target = "/hello";
  request.timeout = std::chrono::milliseconds(10'000);
  auto response = transport.value()->roundTrip(request);
  EXPECT_FALSE(response && response.value().status == 200);
  auto https = httpsGet(server->port(), ca_.cert_pem, "/hello");
  ASSERT_TRUE(https) << https.error().describe();
  EXPECT_EQ(https.value().body, "hello");
}

// Verifies certificate files swapped as the kubelet updates a Secret volume are served on the
// next connection, with no restart: the new certificate (from another CA) verifies against the
// new CA, and no longer against the old one.
TEST_F(HttpsServerTest, ServesCertificateFilesSwappedLikeASecretVolume) {
  SecretVolume volume(dir_);
  volume.publish({{"tls.crt", first_.cert_pem}, {"tls.key", first_.key_pem}});
  auto server = start();
  ASSERT_TRUE(server);
  EXPECT_EQ(handshake(server->port(), ca_.cert_pem).peer_name, "first");

  const Credential other_ca = makeCa("ca-two");
  const Credential second = servingCert(other_ca, "second");
  volume.publish({{"tls.crt", second.cert_pem}, {"tls.key", second.key_pem}});

  const auto renewed = handshake(server->port(), other_ca.cert_pem);
  EXPECT_TRUE(renewed.ok) << renewed.error;
  EXPECT_EQ(renewed.peer_name, "second");
  EXPECT_FALSE(handshake(server->port(), ca_.cert_pem).ok);
  auto response = httpsGet(server->port(), other_ca.cert_pem, "/hello");
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().body, "hello");
}

// Verifies files overwritten in place (same paths, same inodes) are picked up too.
TEST_F(HttpsServerTest, ServesCertificateFilesOverwrittenInPlace) {
  writeFiles(first_);
  auto server = start();
  ASSERT_TRUE(server);
  const Credential second = servingCert(ca_, "second");
  writeFiles(second);
  EXPECT_EQ(handshake(server->port(), ca_.cert_pem).peer_name, "second");
}

// Verifies a replacement that does not load (a certificate whose key is not written yet, then no
// files at all) leaves the current certificate in service, and that the complete pair is taken
// once it is there.
TEST_F(HttpsServerTest, KeepsTheCurrentCertificateUntilTheReplacementLoads) {
  writeFiles(first_);
  auto server = start();
  ASSERT_TRUE(server);
  const Credential second = servingCert(ca_, "second");

  dir_.write("tls.crt", second.cert_pem);  // the new certificate with the old key
  auto mismatched = handshake(server->port(), ca_.cert_pem);
  EXPECT_TRUE(mismatched.ok) << mismatched.error;
  EXPECT_EQ(mismatched.peer_name, "first");

  std::filesystem::remove(dir_.file("tls.key"));
  EXPECT_EQ(handshake(server->port(), ca_.cert_pem).peer_name, "first");

  dir_.write("tls.key", second.key_pem);
  EXPECT_EQ(handshake(server->port(), ca_.cert_pem).peer_name, "second");
}

// Verifies connections keep working across a renewal: one opened before it still answers.
TEST_F(HttpsServerTest, AnOpenConnectionOutlivesARenewal) {
  writeFiles(first_);
  auto server = start();
  ASSERT_TRUE(server);
  RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(server->port());
  config.tls.ca_pem = ca_.cert_pem;
  auto transport = makeTransport(config);
  ASSERT_TRUE(transport);
  HttpRequest request;
  request.method = "GET";
  request.target = "/hello";
  request.timeout = std::chrono::milliseconds(10'000);
  ASSERT_TRUE(transport.value()->roundTrip(request));

  const Credential other_ca = makeCa("ca-two");
  writeFiles(servingCert(other_ca, "second"));
  auto again = transport.value()->roundTrip(request);  // the pooled connection, first certificate
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again.value().body, "hello");
}

// Verifies a server does not start on files it cannot use, and says which and why.
TEST_F(HttpsServerTest, StartFailsClearlyOnFilesItCannotUse) {
  auto missing = HttpServer::start("127.0.0.1:0", helloRoutes(), ServerOptions{.tls = files()});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().reason, Reason::kBadConfig);
  EXPECT_NE(missing.error().message.find(dir_.file("tls.crt")), std::string::npos)
      << missing.error().message;
  EXPECT_NE(missing.error().message.find("No such file or directory"), std::string::npos)
      << missing.error().message;

  dir_.write("tls.crt", first_.cert_pem);
  dir_.write("tls.key", servingCert(ca_, "other").key_pem);
  auto mismatched = HttpServer::start("127.0.0.1:0", helloRoutes(), ServerOptions{.tls = files()});
  ASSERT_FALSE(mismatched);
  EXPECT_NE(mismatched.error().message.find("private key"), std::string::npos)
      << mismatched.error().message;

  dir_.write("tls.crt", "not a certificate");
  auto garbage = HttpServer::start("127.0.0.1:0", helloRoutes(), ServerOptions{.tls = files()});
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().message.find("certificate chain"), std::string::npos)
      << garbage.error().message;
}

}  // namespace
}  // namespace kf::serving
