// The imperative API: the same operations as the script commands, for
// programs that drive the engine directly (the WASM bindings, simulations).
// Every check is the script's own, so a bad argument throws slowstart::Error
// with exactly the message a script line would get.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "command.hpp"
#include "pool.hpp"

namespace slowstart {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Balancer {
 public:
  // POOL. Each entry is a name and a weight.
  void set_pool(const std::vector<std::pair<std::string, std::int64_t>>& entries);
  void set_now(std::int64_t seconds);
  void add(std::string_view name, std::int64_t weight, std::int64_t ramp);
  void down(std::string_view name);
  void up(std::string_view name, std::int64_t ramp);

  // The same, with numbers as decimal text exactly as a script would write
  // them ("5", not "5.0"): what a front end with no 64-bit integers uses.
  void set_pool_text(const std::vector<std::pair<std::string, std::string>>& entries);
  void set_now_text(std::string_view seconds);
  void add_text(std::string_view name, std::string_view weight, std::string_view ramp);
  void up_text(std::string_view name, std::string_view ramp);

  // WEIGHTS: the line, and the same as (name, weight) pairs sorted by name.
  std::string weights_line() const { return pool_.weights_line(); }
  std::vector<std::pair<std::string, std::int64_t>> weights() const;

  // PICK: the winner's pool index, or kNone. The name is pool().backend(i).
  std::int32_t pick() { return pool_.pick(); }
  // n picks in a row, winners' pool indices (or kNone) written to out[0..n).
  void pick_many(std::size_t n, std::int32_t* out);

  const Pool& pool() const { return pool_; }

 private:
  void run(Command& cmd);
  Pool pool_;
};

}  // namespace slowstart
