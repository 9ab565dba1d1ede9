#pragma once
// A tiny HTTPS peer on 127.0.0.1 for TLS verification tests (certificates from
// tests/support/test_certificates.h): every request is answered "200 ok". Test support only: it
// serves one connection at a time.

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <string>
#include <thread>

#include "tests/support/test_certificates.h"

namespace kf::test {

class TlsTestServer {
 public:
  explicit TlsTestServer(const Credential& server) {
    namespace asio = boost::asio;
    context_.use_certificate_chain(asio::buffer(server.cert_pem));
    context_.use_private_key(asio::buffer(server.key_pem), asio::ssl::context::pem);
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~TlsTestServer() {
    ioc_.stop();
    thread_.join();
  }
  TlsTestServer(const TlsTestServer&) = delete;
  TlsTestServer& operator=(const TlsTestServer&) = delete;

  unsigned short port() const { return port_; }

 private:
  using Stream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;
  struct Session {
    explicit Session(Stream s) : stream(std::move(s)) {}
    Stream stream;
    boost::beast::flat_buffer buffer;
    boost::beast::http::request<boost::beast::http::string_body> request;
    boost::beast::http::response<boost::beast::http::string_body> response;
  };

  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, boost::asio::ip::tcp::socket s) {
      if (ec) return;
      serve(std::make_shared<Session>(Stream(std::move(s), context_)));
      accept();
    });
  }

  // Handshake, read one request, answer "ok" and close. Failed handshakes (the client
  // rejected our certificate) just end the session.
  static void serve(const std::shared_ptr<Session>& session) {
    namespace http = boost::beast::http;
    session->stream.async_handshake(
        boost::asio::ssl::stream_base::server, [session](boost::system::error_code ec) {
          if (ec) return;
          http::async_read(session->stream, session->buffer, session->request,
                           [session](boost::system::error_code read_ec, std::size_t) {
                             if (read_ec) return;
                             session->response.result(http::status::ok);
                             session->response.keep_alive(false);
                             session->response.body() = "ok";
                             session->response.prepare_payload();
                             http::async_write(session->stream, session->response,
                                               [session](boost::system::error_code, std::size_t) {
                                                 boost::system::error_code ignored;
                                                 session->stream.next_layer().close(ignored);
                                               });
                           });
        });
  }

  boost::asio::io_context ioc_;
  boost::asio::ssl::context context_{boost::asio::ssl::context::tls_server};
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  unsigned short port_ = 0;
  std::thread thread_;
};

}  // namespace kf::test
