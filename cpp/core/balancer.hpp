// The imperative API: the same operations as the script commands, for
// programs that drive the engine directly (the WASM bindings, simulations).
// Every check is the script's own: a bad argument returns the Problem a
// script line would get, and changes nothing. The engine uses no C++
// exceptions, so it builds with -fno-exceptions for WebAssembly.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fast/cold.hpp"
#include "core/command.hpp"
#include "core/pool.hpp"

namespace slowstart {

// (Changes are compiled for size: they are calls from JavaScript, each far
// dearer than its work; the picks are what runs often.)
class Balancer {
 public:
  // POOL. Each entry is a name and a weight.
  [[nodiscard]] SLOWSTART_COLD Problem set_pool(const std::vector<std::pair<std::string, std::int64_t>>& entries);
  [[nodiscard]] SLOWSTART_COLD Problem set_now(std::int64_t seconds);
  [[nodiscard]] SLOWSTART_COLD Problem add(std::string_view name, std::int64_t weight, std::int64_t ramp);
  [[nodiscard]] SLOWSTART_COLD Problem down(std::string_view name);
  [[nodiscard]] SLOWSTART_COLD Problem up(std::string_view name, std::int64_t ramp);

  // The same, with numbers as decimal text exactly as a script would write
  // them ("5", not "5.0"): what a front end with no 64-bit integers uses.
  // POOL's fields: name, weight, name, weight, ... (an odd last one is left out).
  [[nodiscard]] SLOWSTART_COLD Problem set_pool_text(std::span<const std::string_view> fields);
  [[nodiscard]] SLOWSTART_COLD Problem set_now_text(std::string_view seconds);
  [[nodiscard]] SLOWSTART_COLD Problem add_text(std::string_view name, std::string_view weight, std::string_view ramp);
  [[nodiscard]] SLOWSTART_COLD Problem up_text(std::string_view name, std::string_view ramp);

  // WEIGHTS: the line, and the same as (name, weight) pairs in its order
  // (byte order of name); by_name() is that order as pool positions.
  std::string weights_line() const { return pool_.weights_line(); }
  std::vector<std::pair<std::string, std::int64_t>> weights() const;
  const std::vector<std::uint32_t>& by_name() const { return pool_.by_name(); }

  // PICK: the winner's pool index, or kNone. The name is pool().backend(i).
  std::int32_t pick() { return pool_.pick(); }
  // n picks in a row, winners' pool indices (or kNone) written to out[0..n).
  void pick_many(std::size_t n, std::int32_t* out);

  const Pool& pool() const { return pool_; }

  // POOL of names and weights that are all valid: applied, true; anything
  // else changes nothing and is false (then set_pool_text words the
  // problem). What set_pool_text tries first, and JavaScript's setPool with
  // plain numbers (see balancer.cpp).
  [[nodiscard]] SLOWSTART_COLD bool set_plain_pool(std::span<const std::string_view> names, std::span<const std::int64_t> weights);

 private:
  bool set_plain_pool(std::span<const std::string_view> fields);

  Pool pool_;
  // set_plain_pool's entries and their names' index, their memory kept.
  std::vector<PoolEntryView> plain_views_;
  NameTable plain_names_;
  std::vector<std::string_view> plain_fields_;
  std::vector<std::int64_t> plain_weights_;
};

}  // namespace slowstart
