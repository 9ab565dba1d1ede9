// The work queue's two priorities (priority.h): normal keys before backlog keys, dedup kept, a
// backlog key that a change concerns too moving up, in a plain and in a delaying queue.

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "federation/workqueue/delaying_queue.h"
#include "federation/workqueue/queue.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::seconds;

// Takes every queued key (the queue must not be empty when called for more than it holds).
std::vector<std::string> takeAll(Queue& queue) {
  std::vector<std::string> keys;
  while (queue.len() > 0) {
    std::optional<std::string> key = queue.get();
    queue.done(*key);
    keys.push_back(*key);
  }
  return keys;
}

// Verifies that a normal key is handed out before backlog keys queued earlier, and the backlog
// then in the order it was queued.
TEST(QueuePriorityTest, NormalKeysGoBeforeTheBacklog) {
  Queue queue;
  queue.add("b1", Priority::kBacklog);
  queue.add("b2", Priority::kBacklog);
  queue.add("n1");
  queue.add("b3", Priority::kBacklog);
  queue.add("n2", Priority::kNormal);
  EXPECT_EQ(takeAll(queue), (std::vector<std::string>{"n1", "n2", "b1", "b2", "b3"}));
}

// Verifies that a backlog key added again as normal is stored once and moves up, behind the
// normal keys already waiting.
TEST(QueuePriorityTest, BacklogKeyAddedAsNormalMovesUpOnce) {
  Queue queue;
  queue.add("b1", Priority::kBacklog);
  queue.add("b2", Priority::kBacklog);
  queue.add("b3", Priority::kBacklog);
  queue.add("n1");
  queue.add("b2");
  EXPECT_EQ(queue.len(), 4U);
  EXPECT_EQ(takeAll(queue), (std::vector<std::string>{"n1", "b2", "b1", "b3"}));
}

// Verifies that adding a normal key again as backlog does not move it down.
TEST(QueuePriorityTest, NormalKeyAddedAsBacklogStaysNormal) {
  Queue queue;
  queue.add("b1", Priority::kBacklog);
  queue.add("n1");
  queue.add("n1", Priority::kBacklog);
  EXPECT_EQ(queue.len(), 2U);
  EXPECT_EQ(takeAll(queue), (std::vector<std::string>{"n1", "b1"}));
}

// Verifies that getWithPriority() tells the priority the key was handed out at.
TEST(QueuePriorityTest, GetTellsThePriority) {
  Queue queue;
  queue.add("b", Priority::kBacklog);
  queue.add("n");
  const std::optional<QueuedKey> first = queue.getWithPriority();
  const std::optional<QueuedKey> second = queue.getWithPriority();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->key, "n");
  EXPECT_EQ(first->priority, Priority::kNormal);
  EXPECT_EQ(second->key, "b");
  EXPECT_EQ(second->priority, Priority::kBacklog);
}

// Verifies that a key raised while it is processed is requeued by done() at the raised
// priority, ahead of the backlog.
TEST(QueuePriorityTest, KeyRaisedWhileProcessedIsRequeuedRaised) {
  Queue queue;
  queue.add("a", Priority::kBacklog);
  ASSERT_EQ(queue.get(), "a");
  queue.add("a", Priority::kBacklog);
  queue.add("b", Priority::kBacklog);
  queue.add("a");
  queue.done("a");
  const std::optional<QueuedKey> next = queue.getWithPriority();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->key, "a");
  EXPECT_EQ(next->priority, Priority::kNormal);
  queue.done("a");
  EXPECT_EQ(takeAll(queue), (std::vector<std::string>{"b"}));
}

// Verifies that done() of a key that was queued, not handed out, leaves it queued once: a key
// queued twice would be handed out twice, and its second place would name no waiting key.
TEST(QueuePriorityTest, DoneOfAQueuedKeyLeavesItQueuedOnce) {
  Queue queue;
  queue.add("a", Priority::kBacklog);
  queue.done("a");
  EXPECT_EQ(queue.len(), 1U);
  EXPECT_EQ(takeAll(queue), (std::vector<std::string>{"a"}));
}

class DelayingQueuePriorityTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  DelayingQueue queue_{clock_};
};

// Verifies that a delayed key arrives at the priority it was added with: a normal one goes
// before a backlog key queued before it arrived, a backlog one after a normal one.
TEST_F(DelayingQueuePriorityTest, DelayedKeysKeepTheirPriority) {
  queue_.add("b1", Priority::kBacklog);
  queue_.addAfter("n1", seconds(1));
  queue_.addAfter("b2", seconds(1), Priority::kBacklog);
  clock_.advance(seconds(1));
  queue_.add("n2");
  EXPECT_EQ(takeAll(queue_), (std::vector<std::string>{"n1", "n2", "b1", "b2"}));
}

// Verifies that a key waiting for its delay keeps the earlier deadline and the more pressing
// priority of two adds.
TEST_F(DelayingQueuePriorityTest, WaitingKeyKeepsEarlierDeadlineAndMorePressingPriority) {
  queue_.add("b", Priority::kBacklog);
  queue_.addAfter("k", seconds(2));
  queue_.addAfter("k", seconds(1), Priority::kBacklog);
  EXPECT_EQ(queue_.numWaiting(), 1U);
  clock_.advance(seconds(1));
  EXPECT_EQ(queue_.numWaiting(), 0U);
  EXPECT_EQ(takeAll(queue_), (std::vector<std::string>{"k", "b"}));
}

// Verifies that a delayed normal add of a key queued as backlog raises it only once its delay
// is over.
TEST_F(DelayingQueuePriorityTest, DelayedNormalAddRaisesAQueuedKeyWhenDue) {
  queue_.add("b1", Priority::kBacklog);
  queue_.add("b2", Priority::kBacklog);
  queue_.addAfter("b2", seconds(1));
  queue_.add("n");
  {
    const std::optional<QueuedKey> first = queue_.getWithPriority();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->key, "n");
    queue_.done("n");
  }
  clock_.advance(seconds(1));
  EXPECT_EQ(queue_.len(), 2U);
  EXPECT_EQ(takeAll(queue_), (std::vector<std::string>{"b2", "b1"}));
}

}  // namespace
}  // namespace kf
