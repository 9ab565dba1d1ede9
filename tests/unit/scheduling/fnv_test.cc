#include "federation/scheduling/fnv.h"

#include <gtest/gtest.h>

#include <string>

namespace kf::scheduling {
namespace {

// Verifies the published FNV-1 32-bit test vectors (Landon Curt Noll's test suite).
TEST(Fnv1Hash32Test, MatchesPublishedVectors) {
  EXPECT_EQ(fnv1Hash32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1Hash32("a"), 0x050c5d7eu);
  EXPECT_EQ(fnv1Hash32("b"), 0x050c5d7du);
  EXPECT_EQ(fnv1Hash32("foo"), 0x408f5e13u);
  EXPECT_EQ(fnv1Hash32("foobar"), 0x31f0b262u);
  EXPECT_EQ(fnv1Hash32(std::string("\0", 1)), 0x050c5d1fu);
  EXPECT_EQ(fnv1Hash32(std::string("a\0", 2)), 0x70772d5au);
}

// Verifies that this is FNV-1 and not FNV-1a, whose hash of "a" is 0xe40c292c.
TEST(Fnv1Hash32Test, IsNotFnv1a) {
  EXPECT_NE(fnv1Hash32("a"), 0xe40c292cu);
  EXPECT_NE(fnv1Hash32("foobar"), 0xbf9cf968u);
}

// Verifies that hashing continues across calls, as Go's hasher does over two Write calls.
TEST(Fnv1Hash32Test, ContinuesFromAPreviousHash) {
  EXPECT_EQ(fnv1Hash32("bar", fnv1Hash32("foo")), fnv1Hash32("foobar"));
  EXPECT_EQ(fnv1Hash32("", fnv1Hash32("A")), fnv1Hash32("A"));
}

// Verifies that bytes above 0x7f are hashed as unsigned bytes.
TEST(Fnv1Hash32Test, HashesHighBytesUnsigned) {
  // 0x811c9dc5 * 16777619 mod 2^32 = 0x050c5d1f (the hash of "\0"); xor 0xff.
  EXPECT_EQ(fnv1Hash32("\xff"), 0x050c5d1fu ^ 0xffu);
}

}  // namespace
}  // namespace kf::scheduling
