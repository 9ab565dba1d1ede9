// The controller manager's health and metrics servers on 127.0.0.1: a replacement started
// while the process it replaces still holds the addresses waits for them (on the injected
// clock) instead of exiting.

#include "cmd/controller-manager/servers.h"

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <future>
#include <string>

#include "federation/client/transport.h"
#include "tests/support/fake_clock.h"

namespace kf::manager {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// A free port of 127.0.0.1, held by a listening socket until release().
class HeldPort {
 public:
  HeldPort() {
    acceptor_.open(tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
  }
  std::string address() const {
    return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }
  void release() { acceptor_.close(); }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_{io_};
};

int statusOf(const std::string& address, const std::string& target) {
  RestConfig config;
  config.server = "http://" + address;
  auto transport = makeTransport(config);
  if (!transport) return -1;
  auto response = transport.value()->roundTrip({.method = "GET", .target = target});
  return response ? response.value().status : -1;
}

// Verifies that both servers wait for addresses still held by another process, and serve on
// them once released.
TEST(ServersTest, HealthAndMetricsWaitForTheirAddressesToBeReleased) {
  HeldPort healthz;
  HeldPort metrics;
  Options options;
  options.healthz_addr = healthz.address();
  options.metrics_addr = metrics.address();
  ReadinessFlag ready;
  ready.set(true);
  test::FakeClock clock;
  const serving::BindRetry retry{.clock = &clock};
  auto starting =
      std::async(std::launch::async, [&] { return startServers(options, ready, retry); });

  ASSERT_TRUE(clock.waitUntilPending()) << "the health server did not wait for its address";
  healthz.release();
  clock.advance(retry.interval);
  ASSERT_TRUE(clock.waitUntilPending()) << "the metrics server did not wait for its address";
  metrics.release();
  clock.advance(retry.interval);

  ASSERT_EQ(starting.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto servers = starting.get();
  ASSERT_TRUE(servers) << servers.error().describe();
  EXPECT_EQ(statusOf(options.healthz_addr, "/healthz"), 200);
  EXPECT_EQ(statusOf(options.metrics_addr, "/metrics"), 200);
}

}  // namespace
}  // namespace kf::manager
