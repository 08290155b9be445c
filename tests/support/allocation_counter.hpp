// Counts heap allocations (every operator new) made while alive; see
// allocation_counter.cpp, which replaces the global allocator of the binary
// it is linked into.
#pragma once
#include <cstdint>

class AllocationCounter {
 public:
  AllocationCounter();
  ~AllocationCounter();
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;
  // Allocations so far.
  std::uint64_t count() const;
  // Stops counting and returns the total.
  std::uint64_t stop();
};
