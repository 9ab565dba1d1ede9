#include "federation/election/identity.h"

#include <unistd.h>

#include <array>
#include <fstream>
#include <random>
#include <sstream>

namespace kf {
namespace {

std::string hostName() {
  std::array<char, 256> buffer{};
  if (gethostname(buffer.data(), buffer.size() - 1) != 0) return "unknown";
  return buffer.data();
}

// A version-4 UUID built from std::random_device, for kernels without the procfs file.
std::string fallbackUuid() {
  std::random_device device;
  std::array<unsigned, 16> bytes{};
  for (unsigned& byte : bytes) byte = device() & 0xffU;
  bytes[6] = (bytes[6] & 0x0fU) | 0x40U;
  bytes[8] = (bytes[8] & 0x3fU) | 0x80U;
  std::ostringstream out;
  out << std::hex;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out << '-';
    out << ((bytes[i] >> 4) & 0xfU) << (bytes[i] & 0xfU);
  }
  return out.str();
}

std::string randomUuid() {
  std::ifstream file("/proc/sys/kernel/random/uuid");
  std::string uuid;
  if (file && std::getline(file, uuid) && !uuid.empty()) return uuid;
  return fallbackUuid();
}

}  // namespace

std::string makeLeaderIdentity() { return hostName() + "_" + randomUuid(); }

}  // namespace kf
