#pragma once
// Lock discipline the compiler checks: Clang's -Wthread-safety reads these attributes; other
// compilers see nothing. A `...Locked` function name means the caller already holds the mutex.

#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define KF_THREAD_ATTRIBUTE(x) __attribute__((x))
#else
#define KF_THREAD_ATTRIBUTE(x)
#endif

#define KF_CAPABILITY(x) KF_THREAD_ATTRIBUTE(capability(x))
#define KF_SCOPED_CAPABILITY KF_THREAD_ATTRIBUTE(scoped_lockable)
#define KF_GUARDED_BY(x) KF_THREAD_ATTRIBUTE(guarded_by(x))
#define KF_REQUIRES(...) KF_THREAD_ATTRIBUTE(requires_capability(__VA_ARGS__))
#define KF_EXCLUDES(...) KF_THREAD_ATTRIBUTE(locks_excluded(__VA_ARGS__))
#define KF_ACQUIRE(...) KF_THREAD_ATTRIBUTE(acquire_capability(__VA_ARGS__))
#define KF_RELEASE(...) KF_THREAD_ATTRIBUTE(release_capability(__VA_ARGS__))
#define KF_NO_THREAD_SAFETY_ANALYSIS KF_THREAD_ATTRIBUTE(no_thread_safety_analysis)

namespace kf {

class KF_CAPABILITY("mutex") Mutex {
 public:
  void lock() KF_ACQUIRE() { mu_.lock(); }
  void unlock() KF_RELEASE() { mu_.unlock(); }
  std::mutex& native() { return mu_; }

 private:
  std::mutex mu_;
};

class KF_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) KF_ACQUIRE(mu) : lock_(mu.native()) {}
  ~MutexLock() KF_RELEASE() = default;
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // For condition variables: waits release and re-take the same mutex.
  std::unique_lock<std::mutex>& native() { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace kf
