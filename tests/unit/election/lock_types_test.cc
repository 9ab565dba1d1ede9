// The lock types by name, as KubeFedConfig's spec.leaderElect.resourceLock gives them.

#include "federation/election/lock_types.h"

#include <gtest/gtest.h>

#include "federation/election/annotation_lock.h"
#include "federation/election/multi_lock.h"

namespace kf {
namespace {

std::unique_ptr<RestClient> unusedClient() {
  RestConfig config;
  config.server = "https://127.0.0.1:1";  // never contacted: building a lock sends nothing
  return RestClient::create(config, realClock()).value();
}

// Verifies each of client-go's names builds the lock of that kind on the named object.
TEST(LockTypesTest, EachNameBuildsItsLock) {
  auto client = unusedClient();
  struct Case {
    const char* type;
    bool (*is)(ResourceLock&);
  };
  const Case cases[] = {
      {"configmaps", [](ResourceLock& l) { return dynamic_cast<AnnotationLock*>(&l) != nullptr; }},
      {"endpoints", [](ResourceLock& l) { return dynamic_cast<AnnotationLock*>(&l) != nullptr; }},
      {"leases", [](ResourceLock& l) { return dynamic_cast<LeaseLock*>(&l) != nullptr; }},
      {"configmapsleases", [](ResourceLock& l) { return dynamic_cast<MultiLock*>(&l) != nullptr; }},
      {"endpointsleases", [](ResourceLock& l) { return dynamic_cast<MultiLock*>(&l) != nullptr; }},
  };
  for (const Case& c : cases) {
    auto lock = makeResourceLock(c.type, *client, "kube-federation-system",
                                 "kubefed-controller-manager", "me");
    ASSERT_TRUE(lock) << c.type << ": " << lock.error().describe();
    EXPECT_TRUE(c.is(*lock.value())) << c.type;
    EXPECT_EQ(lock.value()->describe(), "kube-federation-system/kubefed-controller-manager");
  }
}

// Verifies a name client-go does not know is refused with its message.
TEST(LockTypesTest, UnknownTypeIsRefused) {
  auto client = unusedClient();
  auto lock = makeResourceLock("secrets", *client, "ns", "kubefed-controller-manager", "me");
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().reason, Reason::kBadConfig);
  EXPECT_EQ(lock.error().message, "Invalid lock-type secrets");
}

}  // namespace
}  // namespace kf
