// The server on real loopback sockets (127.0.0.1 only), requested through the project's client
// transport or, where the test needs the connection itself, a plain Beast client.

#include "federation/serving/http_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <future>
#include <stdexcept>
#include <thread>

#include "federation/client/transport.h"
#include "tests/support/fake_clock.h"

namespace kf::serving {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

std::unique_ptr<HttpServer> startOrFail(Routes routes) {
  auto server = HttpServer::start("127.0.0.1:0", std::move(routes));
  EXPECT_TRUE(server) << (server ? "" : server.error().describe());
  return server ? std::move(server).value() : nullptr;
}

Result<HttpResponse> get(int port, const std::string& target, const std::string& method = "GET") {
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  KF_TRY(transport, makeTransport(config));
  HttpRequest request;
  request.method = method;
  request.target = target;
  request.timeout = std::chrono::milliseconds(10'000);
  return transport->roundTrip(request);
}

Handler reply(int status, std::string body) {
  return [status, body](const ServerRequest&) {
    return ServerReply{status, "text/plain; charset=utf-8", body};
  };
}

// A raw keep-alive connection to the server.
class RawClient {
 public:
  explicit RawClient(int port) : socket_(io_) {
    socket_.connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  }
  http::response<http::string_body> request(http::verb method, const std::string& target) {
    http::request<http::empty_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(true);
    http::write(socket_, req);
    http::response_parser<http::string_body> parser;
    parser.skip(method == http::verb::head);  // a HEAD reply announces a length it does not send
    http::read(socket_, buffer_, parser);
    return parser.release();
  }
  // What the next read from the server sees: end of stream once the server closed.
  beast::error_code readError() {
    char byte;
    beast::error_code ec;
    socket_.read_some(asio::buffer(&byte, 1), ec);
    return ec;
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

// Verifies a route answers with its handler's status, content type and body.
TEST(HttpServerTest, AnswersARouteWithItsHandlersReply) {
  auto server = startOrFail({{"/hello", [](const ServerRequest&) {
                                return ServerReply{201, "application/json", R"({"a":1})"};
                              }}});
  ASSERT_TRUE(server);
  auto response = get(server->port(), "/hello");
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().status, 201);
  EXPECT_EQ(response.value().header("content-type"), "application/json");
  EXPECT_EQ(response.value().body, R"({"a":1})");
}

// Verifies paths match exactly and everything else is 404.
TEST(HttpServerTest, UnknownPathIs404) {
  auto server = startOrFail({{"/healthz", reply(200, "OK")}});
  ASSERT_TRUE(server);
  for (const char* target : {"/", "/healthz/", "/health", "/healthzz", "/other"}) {
    auto response = get(server->port(), target);
    ASSERT_TRUE(response) << target;
    EXPECT_EQ(response.value().status, 404) << target;
    EXPECT_EQ(response.value().body, "404 page not found\n");
  }
}

// Verifies the handler sees the method, the path without the query, and the query.
TEST(HttpServerTest, HandlerSeesMethodPathAndQuery) {
  ServerRequest seen;
  auto server = startOrFail({{"/metrics", [&seen](const ServerRequest& request) {
                                seen = request;
                                return ServerReply{};
                              }}});
  ASSERT_TRUE(server);
  ASSERT_TRUE(get(server->port(), "/metrics?name=x&y=1", "POST"));
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.path, "/metrics");
  EXPECT_EQ(seen.query, "name=x&y=1");
}

// Verifies the handler sees the request's body and Content-Type.
TEST(HttpServerTest, HandlerSeesBodyAndContentType) {
  ServerRequest seen;
  auto server = startOrFail({{"/review", [&seen](const ServerRequest& request) {
                                seen = request;
                                return ServerReply{};
                              }}});
  ASSERT_TRUE(server);
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(server->port());
  auto transport = makeTransport(config);
  ASSERT_TRUE(transport);
  HttpRequest request;
  request.method = "POST";
  request.target = "/review";
  request.headers = {{"Content-Type", "application/json"}};
  request.body = R"({"kind":"AdmissionReview"})";
  ASSERT_TRUE(transport.value()->roundTrip(request));
  EXPECT_EQ(seen.content_type, "application/json");
  EXPECT_EQ(seen.body, R"({"kind":"AdmissionReview"})");
}

// Verifies a body over the server's limit is answered 413 and the server keeps serving.
TEST(HttpServerTest, BodyOverTheLimitGets413) {
  bool called = false;
  auto server = HttpServer::start("127.0.0.1:0",
                                  {{"/in",
                                    [&called](const ServerRequest&) {
                                      called = true;
                                      return ServerReply{};
                                    }}},
                                  ServerOptions{.max_request_body = 16});
  ASSERT_TRUE(server) << server.error().describe();
  const int port = server.value()->port();
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  auto transport = makeTransport(config);
  ASSERT_TRUE(transport);
  HttpRequest request;
  request.method = "POST";
  request.target = "/in";
  request.body = std::string(17, 'x');
  auto response = transport.value()->roundTrip(request);
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().status, 413);
  EXPECT_FALSE(called);
  request.body = std::string(16, 'x');
  auto fits = transport.value()->roundTrip(request);
  ASSERT_TRUE(fits) << fits.error().describe();
  EXPECT_EQ(fits.value().status, 200);
  EXPECT_TRUE(called);
}

// Verifies port 0 binds an ephemeral port and that two servers get different ones.
TEST(HttpServerTest, PortZeroPicksAnEphemeralPort) {
  auto first = startOrFail({});
  auto second = startOrFail({});
  ASSERT_TRUE(first && second);
  EXPECT_GT(first->port(), 0);
  EXPECT_GT(second->port(), 0);
  EXPECT_NE(first->port(), second->port());
}

// Verifies an empty host (":port", KubeFed's default form) listens on every interface, so
// loopback reaches it.
TEST(HttpServerTest, EmptyHostListensOnEveryInterface) {
  auto server = HttpServer::start(":0", {{"/a", reply(200, "x")}});
  ASSERT_TRUE(server) << server.error().describe();
  auto response = get(server.value()->port(), "/a");
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().body, "x");
}

// Verifies a host name is resolved (localhost, from the hosts file: no network needed).
TEST(HttpServerTest, ListensOnAResolvedHostName) {
  auto server = HttpServer::start("localhost:0", {{"/a", reply(200, "x")}});
  ASSERT_TRUE(server) << server.error().describe();
  EXPECT_GT(server.value()->port(), 0);
}

// Verifies a bad address and a port in use fail with clear errors instead of a server.
TEST(HttpServerTest, BadAddressAndBusyPortFail) {
  auto bad = HttpServer::start("localhost", {});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().reason, Reason::kBadConfig);
  EXPECT_NE(bad.error().message.find("\"localhost\""), std::string::npos);

  auto first = startOrFail({});
  ASSERT_TRUE(first);
  const std::string taken = "127.0.0.1:" + std::to_string(first->port());
  auto busy = HttpServer::start(taken, {});
  ASSERT_FALSE(busy);
  EXPECT_EQ(busy.error().reason, Reason::kConnectionFailed);
  EXPECT_NE(busy.error().message.find(taken), std::string::npos) << busy.error().message;
}

// A port of 127.0.0.1 held by a listening socket of the test's, until release().
class HeldPort {
 public:
  HeldPort() {
    acceptor_.open(tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  void release() { acceptor_.close(); }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_{io_};
  int port_ = 0;
};

// Verifies that a bind that finds the address in use is tried again, on the injected clock,
// and succeeds once the holder released the address: the server then serves on it.
TEST(HttpServerTest, AnAddressInUseIsTriedAgainUntilItIsReleased) {
  HeldPort held;
  test::FakeClock clock;
  const BindRetry retry{.clock = &clock,
                        .interval = std::chrono::milliseconds(250),
                        .timeout = std::chrono::seconds(5)};
  auto starting = std::async(std::launch::async, [&] {
    return HttpServer::start(held.address(), {{"/a", reply(200, "x")}}, {.bind_retry = retry});
  });
  // The first attempt failed: the retry waits on the clock.
  ASSERT_TRUE(clock.waitUntilPending()) << "no retry was scheduled";
  held.release();
  clock.advance(retry.interval);
  ASSERT_EQ(starting.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto server = starting.get();
  ASSERT_TRUE(server) << server.error().describe();
  EXPECT_EQ(server.value()->port(), held.port());
  auto response = get(server.value()->port(), "/a");
  ASSERT_TRUE(response) << response.error().describe();
  EXPECT_EQ(response.value().body, "x");
}

// Verifies that the retry gives up once its timeout has passed, saying for how long it tried.
TEST(HttpServerTest, AnAddressStillInUseAfterTheRetryTimeoutFails) {
  HeldPort held;
  test::FakeClock clock;
  const BindRetry retry{.clock = &clock,
                        .interval = std::chrono::milliseconds(250),
                        .timeout = std::chrono::seconds(1)};
  auto starting = std::async(std::launch::async, [&] {
    return HttpServer::start(held.address(), {}, {.bind_retry = retry});
  });
  // Attempts at 0, 250, 500 and 750 ms, each followed by a wait; the last at 1 s gives up.
  for (int wait = 0; wait < 4; ++wait) {
    ASSERT_TRUE(clock.advanceWhenPending(retry.interval)) << "wait " << wait;
  }
  ASSERT_EQ(starting.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto failed = starting.get();
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().reason, Reason::kConnectionFailed);
  EXPECT_EQ(failed.error().message,
            "cannot listen on \"" + held.address() +
                "\": Address already in use for 1s (another process listens there; stop it or "
                "choose another port)");
}

// Verifies one connection serves several requests (keep-alive), and HEAD gets no body.
TEST(HttpServerTest, KeepAliveServesSeveralRequestsAndHeadHasNoBody) {
  auto server = startOrFail({{"/a", reply(200, "first")}, {"/b", reply(200, "second")}});
  ASSERT_TRUE(server);
  RawClient client(server->port());
  EXPECT_EQ(client.request(http::verb::get, "/a").body(), "first");
  EXPECT_EQ(client.request(http::verb::get, "/b").body(), "second");
  auto head = client.request(http::verb::head, "/a");
  EXPECT_EQ(head.result_int(), 200);
  EXPECT_EQ(head[http::field::content_length], "5");
  EXPECT_EQ(client.request(http::verb::get, "/a").body(), "first");  // the stream is still in step
}

// Verifies an exception from a handler becomes a 500 and the server keeps serving.
TEST(HttpServerTest, ThrowingHandlerGives500) {
  auto server = startOrFail(
      {{"/boom", [](const ServerRequest&) -> ServerReply { throw std::runtime_error("x"); }},
       {"/ok", reply(200, "fine")}});
  ASSERT_TRUE(server);
  auto boom = get(server->port(), "/boom");
  ASSERT_TRUE(boom);
  EXPECT_EQ(boom.value().status, 500);
  auto ok = get(server->port(), "/ok");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok.value().body, "fine");
}

// Verifies stop() closes idle keep-alive connections, joins, refuses new connections, and can
// be called again.
TEST(HttpServerTest, StopClosesConnectionsAndJoins) {
  auto server = startOrFail({{"/a", reply(200, "x")}});
  ASSERT_TRUE(server);
  const int port = server->port();
  RawClient client(port);
  ASSERT_EQ(client.request(http::verb::get, "/a").body(), "x");  // now idle, kept alive

  server->stop();
  const auto ec = client.readError();
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_FALSE(get(port, "/a"));
  server->stop();
}

// Verifies stop() waits for a running handler to finish before it returns.
TEST(HttpServerTest, StopWaitsForARunningHandler) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> finished{false};
  auto server = startOrFail({{"/slow", [&](const ServerRequest&) {
                                entered.set_value();
                                released.wait();
                                finished = true;
                                return ServerReply{};
                              }}});
  ASSERT_TRUE(server);
  std::jthread caller([port = server->port()] { (void)get(port, "/slow"); });
  entered.get_future().wait();
  std::jthread stopper([&] { server->stop(); });
  release.set_value();
  stopper.join();
  EXPECT_TRUE(finished);
}

}  // namespace
}  // namespace kf::serving
