#pragma once
// client-go's LeaderElectionRecord as ConfigMap and Endpoints locks store it: JSON in the
// annotation control-plane.alpha.kubernetes.io/leader. KubeFed's Go replicas read and write
// exactly this, so ours must too for the two never to lead at once.

#include <string>

#include "federation/election/lease_lock.h"

namespace kf {

inline constexpr char kLeaderAnnotation[] = "control-plane.alpha.kubernetes.io/leader";

// {"holderIdentity":"h","leaseDurationSeconds":15,"acquireTime":"2021-06-29T10:00:00Z",
//  "renewTime":"2021-06-29T10:00:05Z","leaderTransitions":0}: Go's field order, and times as
// metav1.Time writes them (RFC 3339 UTC, whole seconds; null when unset).
std::string encodeLeaderRecord(const LeaseRecord& record);

// The record in an annotation's text, as Go's json.Unmarshal reads it: missing fields are zero,
// null times unset, fractional seconds accepted. kBadResponse when it is not such a record.
Result<LeaseRecord> decodeLeaderRecord(const std::string& text);

}  // namespace kf
