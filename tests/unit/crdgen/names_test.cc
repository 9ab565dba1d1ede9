#include "federation/crdgen/names.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

TEST(GroupQualifiedNameTest, OmitsTheCoreGroup) {
  EXPECT_EQ(groupQualifiedName("configmaps", ""), "configmaps");
  EXPECT_EQ(groupQualifiedName("deployments", "apps"), "deployments.apps");
}

}  // namespace
}  // namespace kf
