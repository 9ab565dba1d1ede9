#include "sync/io/federated_status_writer.h"

#include <optional>
#include <utility>

namespace kf::sync {

Result<FederatedStatusUpdate> writeFederatedStatus(ResourceClient& federated_objects,
                                                   Json federated_object,
                                                   const PropagationOutcome& outcome, Clock& clock,
                                                   WrittenObjects* written_objects,
                                                   int max_attempts) {
  const std::string key = objectKey(federated_object);
  ApiError last = makeError(Reason::kUnknown, "no attempt made");
  std::optional<WrittenObjects::PendingWrite> pending;  // from the first write to its answer
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    Result<FederatedStatusUpdate> update =
        computeFederatedStatus(federated_object, outcome, clock.wallNow());
    if (!update) {
      ApiError error = update.error();
      error.message = "computing the status of " + key + ": " + error.message;
      return error;
    }
    if (!update.value().changed) {
      return update;
    }
    const std::string replaced = objectResourceVersion(federated_object);
    federated_object["status"] = update.value().status;
    if (written_objects != nullptr && !pending) pending.emplace(*written_objects, key);
    Result<Json> written = federated_objects.updateStatus(federated_object);
    if (written) {
      update.value().rollout_pruned =
          outcome.rollout && nestedField(written.value(), {"status", "rollout"}) == nullptr;
      if (pending) {
        // After a conflict the status went onto a newer object that this reconcile did not
        // look at: its event must still queue a reconcile.
        pending->record(replaced, std::move(written.value()), /*acted_on=*/attempt == 0);
      }
      return update;
    }
    last = written.error();
    if (!isConflict(last)) {
      if (isNotFound(last)) {
        return update;  // deleted meanwhile: nothing left to describe
      }
      break;
    }
    Result<Json> current = federated_objects.get(objectName(federated_object));
    if (!current) {
      if (isNotFound(current.error())) {
        return update;
      }
      last = current.error();
      break;
    }
    federated_object = std::move(current.value());
  }
  last.message = "writing the status of " + key + ": " + last.message;
  return last;
}

}  // namespace kf::sync
