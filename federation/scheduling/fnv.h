#pragma once
// FNV-1, 32 bits (Go's hash/fnv New32; not FNV-1a): the planner breaks weight ties with it, so
// the order must be bit-exact for plans to match KubeFed's.

#include <cstdint>
#include <string_view>

namespace kf::scheduling {

inline constexpr std::uint32_t kFnv32OffsetBasis = 2166136261u;
inline constexpr std::uint32_t kFnv32Prime = 16777619u;

// Continues an FNV-1 hash over `bytes`: hashing "ab" equals hashing "b" from the hash of "a".
constexpr std::uint32_t fnv1Hash32(std::string_view bytes, std::uint32_t hash = kFnv32OffsetBasis) {
  for (const char c : bytes) {
    hash *= kFnv32Prime;  // multiply first, then xor: that order is what makes it FNV-1
    hash ^= static_cast<unsigned char>(c);
  }
  return hash;
}

}  // namespace kf::scheduling
