#pragma once
// Server-side apply to member objects (opt-in: kubefed-cpp.io/apply: ServerSide, member_policy.h)
// that yields to the member's own controllers. The controller applies what the federated object
// sets for the cluster (template and overrides, no retained fields: what it does not send it does
// not own) under one field manager, never forced over another manager. A field the template sets
// that the member holds differently and that only other managers own there (an HPA's or `kubectl
// scale`'s spec.replicas, a webhook's value, a hand edit) is theirs: it is left out of the apply
// (yielded) and reported (Event FieldOwnedElsewhere), and the rest is still propagated.
//
// Whether to write is decided as without apply, from the fields that differ, yielded ones aside:
// a member changed only in yielded fields gets no write, and its new version is recorded. Pure.

#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "sync/plan/field_diff.h"

namespace kf::sync {

// The field manager of the controller's applies.
inline constexpr char kApplyFieldManager[] = "kubefed";
inline constexpr char kFieldOwnedElsewhereReason[] = "FieldOwnedElsewhere";

struct OwnedField {
  std::string path;     // a JSON pointer
  std::string manager;  // the manager that owns it in the member (the most recent of them)

  bool operator==(const OwnedField&) const = default;
};

// Of `differences` between the controller's intent and `live`, those that in `live` (read with
// its metadata.managedFields) only managers other than `own_managers` own. A field nobody owns (a
// field removed) is not yielded: it is the controller's to put back.
std::vector<OwnedField> fieldsOwnedElsewhere(const std::vector<FieldDifference>& differences,
                                             const Json& live,
                                             const std::vector<std::string>& own_managers);

// The apply patch: `intent` without the `yielded` fields and without what the API server sets
// (metadata other than name, namespace, labels and annotations; status).
Json applyPatch(const Json& intent, const std::vector<OwnedField>& yielded);

// Whether every cause of a refused apply is a conflict with one of `own_managers` (the message
// `conflict with "<manager>"...`): fields the controller itself wrote before with updates.
bool conflictsOnlyWith(const std::vector<StatusCause>& causes,
                       const std::vector<std::string>& own_managers);

// `Cluster "member1": /spec/replicas is owned by "kube-controller-manager"; the controller does
// not send it there`. At most 10 fields named, the rest counted.
std::string fieldOwnedElsewhereMessage(const std::string& cluster,
                                       const std::vector<OwnedField>& yielded);

}  // namespace kf::sync
