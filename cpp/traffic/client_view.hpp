// What the client sees of a simulation, per bucket of ARRIVAL: the requests
// it sent, the ones that failed to it, and how long it waited; and each
// attempt's latency per backend (latency_histograms.hpp turns both into
// p50 and p99).
//
// A request fails to the client when no backend takes it (it fails at once,
// with no latency), or when its last attempt times out: no retry left, or
// none allowed (Envoy's retry breaker, nginx's single server, past the end),
// or the retry found no backend. Its latency is the client's whole wait:
// every attempt before the last one lasted the timeout, then the last one's
// time (its response, or the timeout).
//
// A bucket's figures are written once no latency can still arrive in it:
// the arrivals have passed it and every request it sent has its answer.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/latency_histograms.hpp"
#include "traffic/result.hpp"

namespace slowstart {

class ClientView {
 public:
  // `latencies`: the service model runs (without it there are no latencies).
  ClientView(TrafficResult& r, bool latencies)
      : r_(r), histograms_(r.buckets, r.names.size()), unresolved_(latencies ? r.buckets : 0) {}

  // A request the client sent in bucket k: to a backend, or to none.
  void sent(std::size_t k, bool routed) {
    ++r_.client_requests[k];
    if (!routed) ++r_.client_failed[k];
    else if (!unresolved_.empty()) ++unresolved_[k];
  }
  // `count` requests sent in bucket k at once, `unrouted` of them to no backend.
  void sent(std::size_t k, std::uint32_t count, std::uint32_t unrouted) {
    r_.client_requests[k] += count;
    r_.client_failed[k] += unrouted;
  }
  // An attempt that arrived at backend `id` in bucket k took `ms` (its
  // timeout when it timed out).
  void attempt(std::size_t k, std::uint32_t id, double ms) {
    histograms_.add(k, id, ms);
  }
  // The answer to a request sent in bucket k, `ms` after it was sent.
  void answered(std::size_t k, double ms, bool failed) {
    if (failed) ++r_.client_failed[k];
    histograms_.add(k, static_cast<std::uint32_t>(r_.names.size()), ms);
    --unresolved_[k];
  }
  // The arrivals reached bucket k: the buckets before it whose requests all
  // have their answers are written. Returns the bins it looked at.
  std::size_t reached(std::size_t k) {
    while (resolved_ < k && resolved_ < unresolved_.size() && unresolved_[resolved_] == 0) ++resolved_;
    return histograms_.close_below(resolved_, r_);
  }
  // Every request has its answer: the rest, and the run's percentiles.
  std::size_t finish() { return histograms_.finish(r_); }

  std::size_t bins() const { return histograms_.bins(); }

 private:
  TrafficResult& r_;
  LatencyHistograms histograms_;
  std::vector<std::uint32_t> unresolved_;  // per bucket: requests sent, not answered yet
  std::size_t resolved_ = 0;               // the buckets below have all their answers
};

}  // namespace slowstart
