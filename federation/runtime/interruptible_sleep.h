#pragma once
// The one way to wait: a period on the injected clock that a stop request cuts short. Lease
// renewal, the reflector's backoff, the REST client's retries and its rate limit wait this way,
// so stopping never waits out a period and tests move time with a FakeClock. Pass an empty
// std::stop_token{} where nothing can stop the wait.

#include <functional>
#include <stop_token>

#include "federation/runtime/clock.h"

namespace kf {

// Blocks until `delay` has passed on `clock` or `stop` is requested; false when stopped.
bool sleepUnlessStopped(Clock& clock, const std::stop_token& stop, Duration delay);

// client-go's wait.PollImmediate on `clock`: `done` is asked at once, then every `interval`,
// until it returns true (then true) or `timeout` has passed since the first ask (then false).
bool pollImmediate(Clock& clock, Duration interval, Duration timeout,
                   const std::function<bool()>& done);

}  // namespace kf
