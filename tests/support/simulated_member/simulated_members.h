#pragma once
// Simulated member clusters for tests and the fleet benchmark: one process serves N members,
// each an HTTPS server on its own 127.0.0.1 port with its own bearer token and its own store.
//
// What a member does, as kube-apiserver v1.33 does it (tests/integration's
// SimulatedMemberConformanceTest runs the same cases against a real one and against this):
//   * discovery (/api, /apis, /api/v1, /apis/apps/v1) of namespaces, configmaps, secrets,
//     serviceaccounts, podtemplates and deployments; /healthz, /livez, /readyz, /version;
//     /metrics with apiserver_request_total (verb, resource, scope, code, ...) and
//     apiserver_watch_events_total;
//   * get, list (labelSelector, fieldSelector on metadata.name/namespace, limit and continue,
//     resourceVersion "0" ignoring the limit as the watch cache does), create (generateName;
//     404 in a missing namespace, 403 in a terminating one; 409 AlreadyExists; 422 for an
//     invalid or missing name), update (409 Conflict on a stale resourceVersion; a write that
//     changes nothing stores nothing), JSON merge patch, delete (preconditions; finalizers keep
//     an object until they are gone; a Namespace's deletion removes what it holds), the status
//     subresource of Namespaces and Deployments, dryRun=All;
//   * watch from a resourceVersion with the kept history of changes (410 Expired as an ERROR
//     event once it is older than that history: MemberStore::compact forgets it), without one
//     an ADDED per existing object; label-selected watches see an object ADDED or DELETED when
//     the selector starts or stops matching it; BOOKMARKs with allowWatchBookmarks at
//     min(a minute, timeoutSeconds - 2 s) when the resource changed since the watch's
//     resourceVersion; the stream ends at timeoutSeconds;
//   * server-set fields: uid, creationTimestamp, resourceVersion (one counter per member, as
//     etcd's revision), metadata.generation for Deployments and PodTemplates (raised when
//     anything outside metadata and status changes), a Namespace's finalizer, phase and
//     kubernetes.io/metadata.name label, a Secret's stringData folded into data and its type.
//
// What it does not do, and why the controller's behaviour against it still means something:
//   * no admission beyond namespace lifecycle, no RBAC (one token, all rights; no token: what
//     system:anonymous may do), no validation beyond names, no defaults beyond the above (a
//     Deployment is stored as sent), no managedFields, no server-side apply, no strategic merge
//     or JSON patch (415): the sync controller writes members with create, update, merge patch
//     and delete of objects it built itself, and decides from resourceVersions and generations,
//     which are kept as a real server keeps them;
//   * no controllers: nothing runs a Deployment, no garbage collection of owner references, no
//     ServiceAccount tokens (so `kubefedctl join` cannot run against it: the fleet benchmark
//     creates KubeFedClusters and their Secrets itself); a Namespace's deletion completes at
//     once instead of through the namespace controller;
//   * continue pages after the first show the current state, not a snapshot at the first
//     page's resourceVersion; resourceVersionMatch=Exact is refused (400); a watch from a
//     resourceVersion newer than the member's starts from now (a real server waits for it);
//   * HTTP/1.1 only (the project's client speaks nothing else); a watch's connection closes
//     when its stream ends; a watch whose client reads too slowly is ended (as the API server
//     ends a watcher that falls behind).

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "tests/support/simulated_member/member_store.h"
#include "tests/support/simulated_member/request_metrics.h"

namespace kf::sim {

struct SimulatedMembersOptions {
  int members = 1;
  std::string name_prefix = "member";  // member1 .. memberN
  // The serving certificate (for IP:127.0.0.1) and its key, PEM.
  std::string cert_pem;
  std::string key_pem;
  // Network threads shared by every member.
  int threads = 1;
  // Changes kept per member for watches from an older resourceVersion.
  std::size_t history_limit = 10000;
  WriteObserver observer;
};

struct SimulatedMember {
  std::string name;
  int port = 0;
  std::string token;
  std::string server() const { return "https://127.0.0.1:" + std::to_string(port); }
};

class SimulatedMembers {
 public:
  // Listens on a free 127.0.0.1 port per member. Fails with kBadConfig when the certificate or
  // key does not load, kConnectionFailed when a port cannot be bound.
  static Result<std::unique_ptr<SimulatedMembers>> start(SimulatedMembersOptions options);
  ~SimulatedMembers();  // stop()
  SimulatedMembers(const SimulatedMembers&) = delete;
  SimulatedMembers& operator=(const SimulatedMembers&) = delete;

  const std::vector<SimulatedMember>& members() const;
  MemberStore& store(std::size_t index);
  RequestMetrics& metrics(std::size_t index);
  // Closes every listener and connection (watches end) and joins the network threads.
  void stop();

  struct State;

 private:
  explicit SimulatedMembers(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// A CA and a serving certificate it signs for IP:127.0.0.1 and localhost, valid for a day.
struct ServingCertificate {
  std::string ca_pem;
  std::string cert_pem;
  std::string key_pem;
};
ServingCertificate makeServingCertificate();

}  // namespace kf::sim
