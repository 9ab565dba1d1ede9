#include "tests/integration/federated_types.h"

#include "federation/client/discovery.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/target_schema.h"
#include "federation/crdgen/type_config.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {

Result<Json> installFederatedType(RestClient& host, const std::string& name) {
  DiscoveryClient discovery(host);
  KF_TRY(target, lookupApiResource(discovery, name, ""));
  KF_TRY(schema, fetchTargetSchema(host, target));
  EnableTypeDirective directive;
  directive.target_name = name;
  const EnableResources generated = generateEnableResources(target, schema, directive);
  Json crd = Json::parse(generated.crd.dump());
  ResourceClient crds(host, kCrds);
  Result<Json> applied = crds.create(crd);
  if (!applied && isAlreadyExists(applied.error())) {
    KF_TRY(existing, crds.get(objectName(crd)));
    crd["metadata"]["resourceVersion"] = objectResourceVersion(existing);
    applied = crds.update(crd);
  }
  if (!applied) return applied.error();
  if (!eventually([&] {
        auto current = crds.get(objectName(crd));
        return current && isEstablished(current.value());
      })) {
    return makeError(Reason::kTimeout, objectName(crd) + " did not become Established");
  }
  return Json::parse(generated.type_config.dump());
}

}  // namespace kf::integration
