#pragma once
// An OpenID Connect issuer for tests, served over HTTPS on 127.0.0.1 (a certificate from
// tests/support/test_certificates.h; caPem() verifies it): discovery
// (<url>/.well-known/openid-configuration), its signing keys (<url>/keys, one RSA key) and a
// token endpoint (<url>/token) that answers the refresh-token grant as the test scripts it.
// idToken() signs tokens RS256, so a real kube-apiserver can verify them. Every request is
// recorded. One request per connection; test support only.

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "federation/client/base64.h"
#include "tests/support/test_certificates.h"

namespace kf::test {

class FakeOidcIssuer {
 public:
  // Where the token endpoint looks for the client's id and secret.
  enum class ClientAuth { kHeaderOrBody, kBodyOnly };

  struct Request {
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string body;
  };

  explicit FakeOidcIssuer(std::string path = "/realms/kubefed")
      : path_(std::move(path)),
        ca_(makeCa("oidc-test-ca")),
        server_(makeCredential({.common_name = "oidc-issuer", .subject_alt_names = "IP:127.0.0.1"},
                               &ca_)),
        signing_key_(sharedSigningKey()) {
    namespace asio = boost::asio;
    context_.use_certificate_chain(asio::buffer(server_.cert_pem));
    context_.use_private_key(asio::buffer(server_.key_pem), asio::ssl::context::pem);
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    url_ = "https://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path_;
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~FakeOidcIssuer() {
    ioc_.stop();
    thread_.join();
  }
  FakeOidcIssuer(const FakeOidcIssuer&) = delete;
  FakeOidcIssuer& operator=(const FakeOidcIssuer&) = delete;

  const std::string& url() const { return url_; }
  const std::string& caPem() const { return ca_.cert_pem; }

  // A token with these claims and iss = url(), signed with the issuer's key (kid "test-key").
  std::string idToken(nlohmann::json claims) const {
    claims["iss"] = url_;
    const std::string header = base64Url(R"({"alg":"RS256","kid":"test-key","typ":"JWT"})");
    const std::string signed_part = header + "." + base64Url(claims.dump());
    return signed_part + "." + base64Url(sign(signed_part));
  }

  // The client the token endpoint knows.
  void setClient(std::string id, std::string secret, ClientAuth where = ClientAuth::kHeaderOrBody) {
    std::lock_guard lock(mu_);
    client_id_ = std::move(id);
    client_secret_ = std::move(secret);
    client_auth_ = where;
  }
  // The refresh-token the endpoint accepts, and what it answers with: `id_token` (none when
  // empty) and `new_refresh_token`, which then replaces the accepted one (none: it stays).
  void setRefreshGrant(std::string accepted, std::string id_token,
                       std::string new_refresh_token = "") {
    std::lock_guard lock(mu_);
    accepted_refresh_token_ = std::move(accepted);
    issue_id_token_ = std::move(id_token);
    issue_refresh_token_ = std::move(new_refresh_token);
  }
  // Discovery answers `status` with `body` instead of the issuer's metadata.
  void breakDiscovery(int status, std::string body) {
    std::lock_guard lock(mu_);
    discovery_override_ = {status, std::move(body)};
  }

  std::vector<Request> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  std::vector<Request> tokenRequests() const {
    std::vector<Request> out;
    for (const Request& request : requests()) {
      if (request.target == path_ + "/token") out.push_back(request);
    }
    return out;
  }

  // application/x-www-form-urlencoded text into its fields.
  static std::map<std::string, std::string> formFields(const std::string& body) {
    std::map<std::string, std::string> fields;
    std::size_t start = 0;
    while (start < body.size()) {
      const std::size_t end = std::min(body.find('&', start), body.size());
      const std::string pair = body.substr(start, end - start);
      const std::size_t equals = pair.find('=');
      fields[unescape(pair.substr(0, equals))] =
          equals == std::string::npos ? "" : unescape(pair.substr(equals + 1));
      start = end + 1;
    }
    return fields;
  }

 private:
  using Stream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;
  struct Session {
    explicit Session(Stream s) : stream(std::move(s)) {}
    Stream stream;
    boost::beast::flat_buffer buffer;
    boost::beast::http::request<boost::beast::http::string_body> request;
    boost::beast::http::response<boost::beast::http::string_body> response;
  };
  struct Answer {
    int status = 200;
    std::string body;
  };

  // One RSA key for every issuer of the process: making one takes a while under the sanitizers.
  static EVP_PKEY* sharedSigningKey() {
    static const KeyPtr key(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", std::size_t{2048}));
    return key.get();
  }

  static std::string base64Url(const std::string& bytes) {
    std::string text = base64Encode(bytes);
    while (!text.empty() && text.back() == '=') text.pop_back();
    for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return text;
  }

  static std::string unescape(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '+') {
        out.push_back(' ');
      } else if (text[i] == '%' && i + 2 < text.size()) {
        out.push_back(static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16)));
        i += 2;
      } else {
        out.push_back(text[i]);
      }
    }
    return out;
  }

  std::string sign(const std::string& data) const {
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    EVP_DigestSignInit(context, nullptr, EVP_sha256(), nullptr, signing_key_);
    std::size_t size = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    EVP_DigestSign(context, nullptr, &size, bytes, data.size());
    std::string signature(size, '\0');
    EVP_DigestSign(context, reinterpret_cast<unsigned char*>(signature.data()), &size, bytes,
                   data.size());
    EVP_MD_CTX_free(context);
    signature.resize(size);
    return signature;
  }

  std::string keyParameter(const char* name) const {
    BIGNUM* number = nullptr;
    EVP_PKEY_get_bn_param(signing_key_, name, &number);
    std::string bytes(static_cast<std::size_t>(BN_num_bytes(number)), '\0');
    BN_bn2bin(number, reinterpret_cast<unsigned char*>(bytes.data()));
    BN_free(number);
    return base64Url(bytes);
  }

  Answer discovery() const {
    if (discovery_override_) return *discovery_override_;
    return {200, nlohmann::json{{"issuer", url_},
                                {"token_endpoint", url_ + "/token"},
                                {"jwks_uri", url_ + "/keys"},
                                {"authorization_endpoint", url_ + "/auth"},
                                {"response_types_supported", {"code"}},
                                {"subject_types_supported", {"public"}},
                                {"id_token_signing_alg_values_supported", {"RS256"}}}
                     .dump()};
  }

  Answer keys() const {
    return {200, nlohmann::json{{"keys",
                                 {{{"kty", "RSA"},
                                   {"alg", "RS256"},
                                   {"use", "sig"},
                                   {"kid", "test-key"},
                                   {"n", keyParameter(OSSL_PKEY_PARAM_RSA_N)},
                                   {"e", keyParameter(OSSL_PKEY_PARAM_RSA_E)}}}}}
                     .dump()};
  }

  static Answer oauthError(int status, const std::string& code, const std::string& description) {
    return {status, nlohmann::json{{"error", code}, {"error_description", description}}.dump()};
  }

  // The client's id and secret from the Authorization header (kHeaderOrBody) or the form.
  bool clientAuthenticated(const Request& request,
                           const std::map<std::string, std::string>& form) const {
    const auto header = request.headers.find("authorization");
    if (header != request.headers.end() && header->second.starts_with("Basic ")) {
      if (client_auth_ == ClientAuth::kBodyOnly) return false;
      const std::string decoded = base64Decode(header->second.substr(6)).value_or("");
      const std::size_t colon = decoded.find(':');
      return colon != std::string::npos && unescape(decoded.substr(0, colon)) == client_id_ &&
             unescape(decoded.substr(colon + 1)) == client_secret_;
    }
    const auto id = form.find("client_id");
    const auto secret = form.find("client_secret");
    return id != form.end() && id->second == client_id_ &&
           (secret != form.end() ? secret->second : "") == client_secret_;
  }

  Answer token(const Request& request) {
    const auto form = formFields(request.body);
    if (request.method != "POST" || form.count("grant_type") == 0 ||
        form.at("grant_type") != "refresh_token") {
      return oauthError(400, "unsupported_grant_type", "only refresh_token here");
    }
    if (!clientAuthenticated(request, form)) {
      return oauthError(401, "invalid_client", "client authentication failed");
    }
    if (form.count("refresh_token") == 0 || form.at("refresh_token") != accepted_refresh_token_) {
      return oauthError(400, "invalid_grant", "Token is not active");
    }
    nlohmann::json answer = {{"access_token", "access-" + std::to_string(requests_.size())},
                             {"token_type", "bearer"},
                             {"expires_in", 300}};
    if (!issue_id_token_.empty()) answer["id_token"] = issue_id_token_;
    if (!issue_refresh_token_.empty()) {
      answer["refresh_token"] = issue_refresh_token_;
      accepted_refresh_token_ = issue_refresh_token_;
    }
    return {200, answer.dump()};
  }

  Answer answer(const Request& request) {
    std::lock_guard lock(mu_);
    requests_.push_back(request);
    if (request.target == path_ + "/.well-known/openid-configuration") return discovery();
    if (request.target == path_ + "/keys") return keys();
    if (request.target == path_ + "/token") return token(request);
    return {404, "not found"};
  }

  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, boost::asio::ip::tcp::socket s) {
      if (ec) return;
      serve(std::make_shared<Session>(Stream(std::move(s), context_)));
      accept();
    });
  }

  void serve(const std::shared_ptr<Session>& session) {
    namespace http = boost::beast::http;
    session->stream.async_handshake(
        boost::asio::ssl::stream_base::server, [this, session](boost::system::error_code ec) {
          if (ec) return;
          http::async_read(session->stream, session->buffer, session->request,
                           [this, session](boost::system::error_code read_ec, std::size_t) {
                             if (read_ec) return;
                             Request request{std::string(session->request.method_string()),
                                             std::string(session->request.target()),
                                             {},
                                             session->request.body()};
                             for (const auto& field : session->request) {
                               std::string name(field.name_string());
                               for (char& c : name) c = static_cast<char>(std::tolower(c));
                               request.headers[name] = std::string(field.value());
                             }
                             const Answer reply = answer(request);
                             session->response.result(static_cast<unsigned>(reply.status));
                             session->response.set(http::field::content_type, "application/json");
                             session->response.keep_alive(false);
                             session->response.body() = reply.body;
                             session->response.prepare_payload();
                             http::async_write(session->stream, session->response,
                                               [session](boost::system::error_code, std::size_t) {
                                                 boost::system::error_code ignored;
                                                 session->stream.next_layer().close(ignored);
                                               });
                           });
        });
  }

  const std::string path_;
  const Credential ca_;
  const Credential server_;
  EVP_PKEY* const signing_key_;
  std::string url_;

  mutable std::mutex mu_;
  std::string client_id_;
  std::string client_secret_;
  ClientAuth client_auth_ = ClientAuth::kHeaderOrBody;
  std::string accepted_refresh_token_;
  std::string issue_id_token_;
  std::string issue_refresh_token_;
  std::optional<Answer> discovery_override_;
  std::vector<Request> requests_;

  boost::asio::io_context ioc_;
  boost::asio::ssl::context context_{boost::asio::ssl::context::tls_server};
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  std::thread thread_;
};

}  // namespace kf::test
