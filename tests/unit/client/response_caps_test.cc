// The caps on what one server can make the client hold (RestConfig::max_response_body_bytes and
// max_watch_event_bytes), against a server on 127.0.0.1 that never ends its body: a list whose
// items never close, and a watch event line that never ends. The request must end with an error
// naming the server and the limit, having hung up on the server long before it gave up.

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "federation/client/resource_client.h"
#include "federation/client/rest_client.h"
#include "federation/client/transport.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

constexpr std::size_t kLimit = 1 << 20;
// The server's own bound, so that a client without a cap ends too (with another error) instead
// of filling the machine's memory: far more than kLimit and than the kernel's socket buffers,
// so a client that stops at kLimit hangs up long before the server stops.
constexpr std::size_t kServerBudget = 64 * kLimit;

// Serves one connection on 127.0.0.1: reads the request, answers 200 with a chunked body of
// `head` and then `filler` again and again, until the client hangs up or kServerBudget bytes were
// sent (then it closes the connection without ending the body).
class EndlessServer {
 public:
  EndlessServer(std::string head, std::string filler)
      : head_(std::move(head)), filler_(chunk(filler)) {
    acceptor_.open(tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (ec) return finish(false);
      socket_.emplace(std::move(socket));
      readRequest();
    });
    thread_ = std::thread([this] { io_.run(); });
  }
  ~EndlessServer() {
    io_.stop();
    thread_.join();
  }
  EndlessServer(const EndlessServer&) = delete;
  EndlessServer& operator=(const EndlessServer&) = delete;

  std::string server() const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }
  std::string authority() const { return server().substr(std::string("http://").size()); }

  // Once the connection ended (at most 30 s): whether the client hung up first.
  bool clientHungUp() {
    MutexLock lock(mu_);
    ended_cv_.wait_for(lock.native(), std::chrono::seconds(30),
                       [this]() KF_NO_THREAD_SAFETY_ANALYSIS { return ended_.has_value(); });
    return ended_.value_or(false);
  }

 private:
  static std::string chunk(const std::string& data) {
    char size[32];
    std::snprintf(size, sizeof(size), "%zx\r\n", data.size());
    return size + data + "\r\n";
  }

  void readRequest() {
    asio::async_read_until(*socket_, request_, "\r\n\r\n",
                           [this](boost::system::error_code ec, std::size_t) {
                             if (ec) return finish(false);
                             const std::string start =
                                 "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                 "Transfer-Encoding: chunked\r\n\r\n" +
                                 chunk(head_);
                             write(start);
                           });
  }

  void write(const std::string& bytes) {
    asio::async_write(*socket_, asio::buffer(bytes),
                      [this](boost::system::error_code ec, std::size_t written) {
                        if (ec) return finish(true);  // the client hung up
                        sent_ += written;
                        if (sent_ >= kServerBudget) return finish(false);
                        write(filler_);
                      });
  }

  void finish(bool client_hung_up) {
    if (socket_) {
      boost::system::error_code ignored;
      socket_->close(ignored);
    }
    MutexLock lock(mu_);
    ended_ = client_hung_up;
    ended_cv_.notify_all();
  }

  const std::string head_;
  const std::string filler_;  // one chunk, framed
  asio::io_context io_{1};
  tcp::acceptor acceptor_{io_};
  std::optional<tcp::socket> socket_;
  asio::streambuf request_;
  std::size_t sent_ = 0;
  std::thread thread_;
  Mutex mu_;
  std::condition_variable ended_cv_;
  std::optional<bool> ended_ KF_GUARDED_BY(mu_);
};

RestConfig cappedConfig(const EndlessServer& server) {
  RestConfig config;
  config.server = server.server();
  config.max_response_body_bytes = kLimit;
  config.max_watch_event_bytes = kLimit;
  return config;
}

const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};

// Verifies that a list whose body never ends fails once it passes the body limit, naming the
// server and the limit, and that the client hung up rather than waiting for the server to stop.
TEST(ResponseCapsTest, AnEndlessListBodyEndsTheRequestAtTheLimit) {
  EndlessServer server(R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[)",
                       std::string(64 * 1024 - 32, ' ') + R"({"metadata":{"name":"x"}},)");
  const RestConfig config = cappedConfig(server);
  auto transport = makeTransport(config);
  ASSERT_TRUE(transport) << transport.error().describe();
  RestClient client(config, std::move(transport).value(), realClock(),
                    RetryPolicy{.max_attempts = 1});

  auto listed = ResourceClient(client, kConfigMaps).list({});

  ASSERT_FALSE(listed) << "an endless body was read to its end";
  EXPECT_EQ(listed.error().reason, Reason::kBadResponse) << listed.error().describe();
  const std::string& message = listed.error().message;
  EXPECT_NE(message.find("API server " + server.authority()), std::string::npos) << message;
  EXPECT_NE(message.find("1048576 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("max_response_body_bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("GET /api/v1/configmaps"), std::string::npos) << message;
  EXPECT_TRUE(server.clientHungUp()) << "the server sent its whole budget";
}

// Verifies that a watch whose event line never ends is ended once the line passes the limit,
// with an error naming the server and the limit.
TEST(ResponseCapsTest, AnEndlessWatchLineEndsTheWatchAtTheLimit) {
  EndlessServer server(R"({"type":"ADDED","object":{"metadata":{"name":")",
                       std::string(64 * 1024, 'a'));
  const RestConfig config = cappedConfig(server);
  auto client = RestClient::create(config, realClock());
  ASSERT_TRUE(client) << client.error().describe();
  auto watch = ResourceClient(*client.value(), kConfigMaps).watch({});
  ASSERT_TRUE(watch) << watch.error().describe();

  std::promise<Status> ended;
  int events = 0;
  watch.value()->consume({.on_event = [&events](WatchEvent) { ++events; },
                          .on_end = [&ended](Status status) { ended.set_value(status); }});
  auto end = ended.get_future();
  ASSERT_EQ(end.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  const Status status = end.get();

  ASSERT_FALSE(status) << "an endless line ended cleanly";
  EXPECT_EQ(status.error().reason, Reason::kBadResponse) << status.error().describe();
  const std::string& message = status.error().message;
  EXPECT_NE(message.find("API server " + server.server()), std::string::npos) << message;
  EXPECT_NE(message.find("1048576 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("max_watch_event_bytes"), std::string::npos) << message;
  EXPECT_EQ(events, 0);
  watch.value().reset();
  EXPECT_TRUE(server.clientHungUp()) << "the server sent its whole budget";
}

}  // namespace
}  // namespace kf
