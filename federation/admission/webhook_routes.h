#pragma once
// The routes of KubeFed's webhook server (spec §2.10).

#include "federation/serving/http_server.h"

namespace kf::admission {

// /validate-federatedtypeconfigs, /validate-kubefedcluster, /validate-kubefedconfig,
// /default-kubefedconfig, and /readyz (also as /readyz/, the path KubeFed registers) answering
// "ok" while the server serves.
serving::Routes kubefedWebhookRoutes();

}  // namespace kf::admission
