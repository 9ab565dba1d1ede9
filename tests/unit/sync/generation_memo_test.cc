#include "sync/controller/generation_memo.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

TEST(GenerationMemoTest, FirstOncePerGenerationPerKey) {
  GenerationMemo memo;
  EXPECT_TRUE(memo.firstFor("ns/a", 1));
  EXPECT_FALSE(memo.firstFor("ns/a", 1));
  EXPECT_TRUE(memo.firstFor("ns/b", 1));  // another object
  EXPECT_TRUE(memo.firstFor("ns/a", 2));  // a new generation
  EXPECT_FALSE(memo.firstFor("ns/a", 2));
}

TEST(GenerationMemoTest, ForgottenKeyStartsOver) {
  GenerationMemo memo;
  ASSERT_TRUE(memo.firstFor("ns/a", 3));
  memo.forget("ns/a");
  EXPECT_TRUE(memo.firstFor("ns/a", 3));  // a new object of the same name
}

}  // namespace
}  // namespace kf::sync
