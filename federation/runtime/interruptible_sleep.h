#pragma once
// Waiting for a period on the injected clock that a stop request cuts short: the loops of
// controllers (health checks, lease renewal) wait this way so that stopping never waits out a
// period.

#include <stop_token>

#include "federation/runtime/clock.h"

namespace kf {

// Blocks until `delay` has passed on `clock` or `stop` is requested; false when stopped.
bool sleepUnlessStopped(Clock& clock, const std::stop_token& stop, Duration delay);

}  // namespace kf
