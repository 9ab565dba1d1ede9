#pragma once
// The candidate identity written into the lease: unique per process, readable by people.

#include <string>

namespace kf {

// "<hostname>_<random uuid>": the hostname says which pod leads, the uuid keeps two processes on
// one host (or a restarted pod with the same name) distinct.
std::string makeLeaderIdentity();

}  // namespace kf
