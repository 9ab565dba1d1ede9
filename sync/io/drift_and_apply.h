#pragma once
// What a drift policy and server-side apply (sync/plan/member_policy.h) add to the update of a
// member object: the reports (DriftDetected, FieldOwnedElsewhere) and the apply itself.

#include <string>
#include <vector>

#include "sync/io/member_operations.h"

namespace kf::sync {

// A DriftDetected Warning event on the federated object and the drift metric. The caches hold no
// managedFields, so who changed the fields is read from the member object itself: `read` when
// the update read it already, else one GET.
void reportDrift(const MemberObjectContext& context, RestClient& client, const std::string& cluster,
                 const std::vector<FieldDifference>& drift, const Json* read);

// A Warning event FieldOwnedElsewhere on the federated object naming the fields left to other
// managers in `cluster`.
void reportFieldsOwnedElsewhere(const MemberObjectContext& context, const std::string& cluster,
                                const std::vector<OwnedField>& yielded);

// The apply of `patch` (server_side_apply.h) under the controller's field manager. A conflict
// only with the controller's own earlier updates (the object was written with PUT before
// ServerSide was chosen) takes those fields back with force; any other conflict fails, and the
// update is retried with a fresh read of the owners.
Result<Json> applyToMember(const MemberObjectContext& context, RestClient& client,
                           const Json& patch);

}  // namespace kf::sync
