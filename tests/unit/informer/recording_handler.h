#pragma once
// An EventHandler that writes down every call as a line of text, for tests to compare.

#include <memory>
#include <string>
#include <vector>

#include "federation/informer/shared_informer.h"
#include "federation/runtime/thread_annotations.h"
#include "tests/unit/informer/fake_lister_watcher.h"

namespace kf::test {

class RecordingHandler final : public EventHandler {
 public:
  // "add ns/a 5 initial", "update ns/a 5->6", "delete ns/b 7", "delete ns/b 7 unknown"
  void onAdd(const ObjectPtr& object, bool is_initial_list) override {
    record("add " + objectKey(*object) + " " + objectResourceVersion(*object) +
           (is_initial_list ? " initial" : ""));
  }
  void onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) override {
    record("update " + objectKey(*new_object) + " " + objectResourceVersion(*old_object) + "->" +
           objectResourceVersion(*new_object));
  }
  void onDelete(const DeletedObject& deleted) override {
    record("delete " + deleted.key + " " + objectResourceVersion(*deleted.last_known) +
           (deleted.final_state_unknown ? " unknown" : ""));
  }

  std::vector<std::string> events() const {
    MutexLock lock(mu_);
    return events_;
  }
  std::size_t count() const {
    MutexLock lock(mu_);
    return events_.size();
  }
  // Waits until at least `n` calls were recorded.
  bool waitForCount(std::size_t n) const {
    return waitUntil([&] { return count() >= n; });
  }
  std::vector<std::string> take() {
    MutexLock lock(mu_);
    return std::exchange(events_, {});
  }

 private:
  void record(std::string line) {
    MutexLock lock(mu_);
    events_.push_back(std::move(line));
  }

  mutable Mutex mu_;
  std::vector<std::string> events_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::test
