#include "federation/controller/runnable.h"

#include <utility>

namespace kf {

Status startInOrder(const std::vector<Runnable*>& group) {
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (Status started = group[i]->start(); !started) {
      stopInReverse(
          std::vector<Runnable*>(group.begin(), group.begin() + static_cast<long>(i) + 1));
      return started;
    }
  }
  return boost::outcome_v2::success();
}

void stopInReverse(const std::vector<Runnable*>& group) {
  for (auto it = group.rbegin(); it != group.rend(); ++it) (*it)->stop();
}

namespace {

std::vector<Runnable*> pointersTo(const std::vector<RunnablePtr>& members) {
  std::vector<Runnable*> out;
  for (const RunnablePtr& member : members) out.push_back(member.get());
  return out;
}

}  // namespace

RunnableGroup::RunnableGroup(std::vector<RunnablePtr> members) : members_(std::move(members)) {}

RunnableGroup::~RunnableGroup() { stop(); }

Status RunnableGroup::start() { return startInOrder(pointersTo(members_)); }

void RunnableGroup::stop() {
  if (std::exchange(stopped_, true)) return;
  stopInReverse(pointersTo(members_));
}

}  // namespace kf
