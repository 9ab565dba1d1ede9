#pragma once
// How urgently a queued key wants a worker (controller-runtime's priority queue, two levels).
// A key from a bulk look at many objects (an informer's initial list, everything after a cluster
// became ready) is a backlog; a key from a change someone just made is normal and is handed out
// before every backlog key, so that a user's edit does not wait behind a restart's re-check.

namespace kf {

enum class Priority { kBacklog = 0, kNormal = 1 };
inline constexpr int kPriorityLevels = 2;

// The more urgent of the two: a backlog key that a change concerns too is no longer a backlog.
constexpr Priority morePressing(Priority a, Priority b) { return a < b ? b : a; }

}  // namespace kf
