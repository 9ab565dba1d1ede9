#include "federation/runtime/thread_name.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <array>
#include <string>
#include <string_view>
#include <thread>

namespace kf {
namespace {

// The name a new thread has after naming itself `name`.
std::string nameAfterNaming(std::string_view name) {
  std::string seen;
  std::thread thread([name, &seen] {
    nameThisThread(name);
    std::array<char, 16> buffer{};
    pthread_getname_np(pthread_self(), buffer.data(), buffer.size());
    seen = buffer.data();
  });
  thread.join();
  return seen;
}

// Linux refuses a name longer than 15 characters outright; the thread keeps the first 15.
TEST(ThreadNameTest, ALongNameIsCutToTheFifteenCharactersLinuxKeeps) {
  EXPECT_EQ(nameAfterNaming("client-io"), "client-io");
  EXPECT_EQ(nameAfterNaming("federatedconfigmap"), "federatedconfig");
}

}  // namespace
}  // namespace kf
