#pragma once
// The version every binary reports, shaped like KubeFed's Go %#v of version.Info, which scripts
// grep: version.Info{Version:"v0.1.0", GitCommit:"...", ...}.

#include <string>

namespace kf::cli {

std::string versionInfo();

}  // namespace kf::cli
