#pragma once
// An admission webhook that holds the API server's requests: its endpoint, in this process,
// accepts the API server's connections and never answers until release(). Its failurePolicy is
// Ignore, so a released request (or one held for the webhook's 30 s timeout) goes on as if there
// were no webhook. The node tests use it to stall one step of a `helm install` on the API server
// while the rest of the cluster (the node starting pods) goes on.

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace kf::node {

class HeldAdmission {
 public:
  HeldAdmission() = default;
  // Releases and deletes the webhook configuration.
  ~HeldAdmission();
  HeldAdmission(const HeldAdmission&) = delete;
  HeldAdmission& operator=(const HeldAdmission&) = delete;

  // Holds every CREATE of `resource` (plural) of API group `group` in the KubeFed namespace from
  // now on. Returns once the API server calls the webhook (a probe shows it); fails the test if
  // it does not within a minute.
  void hold(const std::string& group, const std::string& resource);
  // How many requests were held so far (the probe's included).
  int held() const { return held_.load(); }
  // Lets every held request, and every later one, through (the endpoint is gone: the API server
  // fails open at once).
  void release();

 private:
  void accept();
  bool probeHeld();

  int listener_ = -1;
  int wake_[2] = {-1, -1};
  std::atomic<int> held_{0};
  std::vector<int> connections_;  // owned by the accepting thread until it is joined
  std::thread accepting_;
};

}  // namespace kf::node
