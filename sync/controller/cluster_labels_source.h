#pragma once
// A source that fires when a member cluster's labels change (not KubeFed's: its sync controller
// only reacts to clusters becoming ready or unready). Override policies select clusters and fill
// their variables by label, so a relabelled cluster must re-propagate the objects they select.
// It fires with no object; the handler decides which keys (none while no policy exists).

#include <map>
#include <optional>
#include <string>

#include "federation/cluster/cluster_registry.h"
#include "federation/controller/source.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

class ClusterLabelsSource final : public Source {
 public:
  // `clusters` must outlive the source.
  explicit ClusterLabelsSource(ClusterRegistry& clusters) : clusters_(clusters) {}
  // stop().
  ~ClusterLabelsSource() override;
  ClusterLabelsSource(const ClusterLabelsSource&) = delete;
  ClusterLabelsSource& operator=(const ClusterLabelsSource&) = delete;

  void start(EnqueueTarget& target, Handler handler) override KF_EXCLUDES(mu_);
  void stop() override KF_EXCLUDES(mu_);
  bool synced() const override { return true; }

 private:
  // Whether `event` changes the labels last seen for its cluster; remembers the new ones.
  bool labelsChanged(const ClusterEvent& event) KF_EXCLUDES(mu_);

  ClusterRegistry& clusters_;
  Mutex mu_;
  std::map<std::string, std::map<std::string, std::string>> labels_ KF_GUARDED_BY(mu_);
  std::optional<ListenerId> listener_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf::sync
