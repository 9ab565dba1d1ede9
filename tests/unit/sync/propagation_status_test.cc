#include "sync/plan/propagation_status.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

// Verifies the names written to the API, and that parsing inverts them.
TEST(PropagationStatusTest, NamesRoundTrip) {
  EXPECT_EQ(propagationStatusName(PropagationStatus::kOk), "");
  EXPECT_EQ(propagationStatusName(PropagationStatus::kLabelRemovalTimedOut),
            "LabelRemovalTimedOut");
  EXPECT_EQ(propagationStatusName(PropagationStatus::kManagedLabelFalse), "ManagedLabelFalse");
  for (int i = 0; i <= static_cast<int>(PropagationStatus::kLabelRemovalTimedOut); ++i) {
    const auto status = static_cast<PropagationStatus>(i);
    EXPECT_EQ(parsePropagationStatus(propagationStatusName(status)), status);
  }
  EXPECT_FALSE(parsePropagationStatus("Bogus"));
  EXPECT_EQ(aggregateReasonName(AggregateReason::kSuccess), "");
  EXPECT_EQ(aggregateReasonName(AggregateReason::kNamespaceNotFederated), "NamespaceNotFederated");
  EXPECT_EQ(aggregateReasonName(AggregateReason::kCheckClusters), "CheckClusters");
}

// Verifies the recoverable set (retry with backoff).
TEST(PropagationStatusTest, RecoverableSet) {
  for (auto status : {PropagationStatus::kCreationFailed, PropagationStatus::kUpdateFailed,
                      PropagationStatus::kDeletionFailed, PropagationStatus::kLabelRemovalFailed,
                      PropagationStatus::kRetrievalFailed, PropagationStatus::kCreationTimedOut,
                      PropagationStatus::kUpdateTimedOut, PropagationStatus::kDeletionTimedOut,
                      PropagationStatus::kLabelRemovalTimedOut}) {
    EXPECT_TRUE(isRecoverable(status)) << propagationStatusName(status);
  }
  for (auto status :
       {PropagationStatus::kOk, PropagationStatus::kClusterNotReady,
        PropagationStatus::kAlreadyExists, PropagationStatus::kApplyOverridesFailed,
        PropagationStatus::kManagedLabelFalse, PropagationStatus::kWaitingForRemoval}) {
    EXPECT_FALSE(isRecoverable(status)) << propagationStatusName(status);
  }
}

// Verifies how provisional timed-out statuses resolve after a wait without timeout.
TEST(PropagationStatusTest, StatusAfterWait) {
  EXPECT_EQ(statusAfterWait(PropagationStatus::kCreationTimedOut), PropagationStatus::kOk);
  EXPECT_EQ(statusAfterWait(PropagationStatus::kUpdateTimedOut), PropagationStatus::kOk);
  EXPECT_EQ(statusAfterWait(PropagationStatus::kDeletionTimedOut),
            PropagationStatus::kWaitingForRemoval);
  EXPECT_EQ(statusAfterWait(PropagationStatus::kLabelRemovalTimedOut), std::nullopt);
  EXPECT_EQ(statusAfterWait(PropagationStatus::kUpdateFailed), PropagationStatus::kUpdateFailed);
}

}  // namespace
}  // namespace kf::sync
