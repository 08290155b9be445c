// The balancers' own least-connections picks, one function each, over the
// candidates the event loop gives (available, not yet tried, positions
// ascending): nginx's least_conn (docs/proxy-rules.md N3) and HAProxy's
// leastconn (H11). Caddy's least_conn (fewest active, no weights, ties at
// random) is policies.hpp's pick_least_conn. Which one `--policy least-conn`
// means is names.hpp's resolve_policy.
#pragma once
#include <cstdint>
#include <vector>

#include "spec/pick.hpp"

namespace slowstart {

__extension__ using LeastConnWide = __int128;  // conns x weight: both may pass 32 bits

// nginx's least_conn (`ngx_http_upstream_get_least_conn_peer`,
// ngx_http_upstream_least_conn_module.c, 1.22.1 to 1.31.4): the smallest
// conns / weight, compared by cross-multiplication
// (`peer->conns * best->weight < best->conns * peer->weight`, the configured
// weight, not the effective one); when several tie with the best, nginx runs
// its smooth weighted round-robin (effective weights) among the tied ones
// only: `tie_pick(ties)`, which sees them in pool order. A lone best is
// taken without touching the round-robin's counters.
// `conns(i)`: attempts in flight at candidate i; `weight(i)`: 0 leaves it out.
template <typename Conns, typename Weight, typename TiePick>
std::int32_t pick_nginx_least_conn(const std::vector<std::uint32_t>& candidates, Conns conns, Weight weight,
                                   std::vector<std::uint32_t>& ties, TiePick tie_pick) {
  ties.clear();
  LeastConnWide best_conns = 0, best_weight = 1;
  for (const std::uint32_t i : candidates) {
    const LeastConnWide c = conns(i), w = weight(i);
    if (w <= 0) continue;  // no weight yet (a ramp's first moment): the round-robin would give it nothing
    if (ties.empty() || c * best_weight < best_conns * w) {
      ties.assign(1, i);
      best_conns = c, best_weight = w;
    } else if (c * best_weight == best_conns * w) {
      ties.push_back(i);
    }
  }
  if (ties.empty()) return kNone;
  if (ties.size() == 1) return static_cast<std::int32_t>(ties[0]);
  const std::int32_t p = tie_pick(ties);
  return p == kNone ? static_cast<std::int32_t>(ties[0]) : p;  // every effective weight 0: the first stays best
}

// HAProxy's SRV_EWGHT_MAX: the largest user weight (256) in sixteenths
// (BE_WEIGHT_SCALE), server-t.h and backend-t.h.
inline constexpr std::uint64_t kHAProxyEweightMax = 256 * 16;

// HAProxy's leastconn key (`fwlc_queue_srv`, lb_fwlc.c, 2.1 to 3.4):
// `inflight ? (inflight + 1) * SRV_EWGHT_MAX / eweight : 0`, in integers;
// an idle server's key is 0 whatever its weight. `eweight`: the weight in
// sixteenths, slowstart's ramp included (H10), above 0.
inline std::uint64_t haproxy_leastconn_key(std::uint64_t inflight, std::uint64_t eweight) {
  return inflight ? (inflight + 1) * kHAProxyEweightMax / eweight : 0;
}

// HAProxy keeps its servers in a tree by key; a server is taken out and put
// back (after the others of its key: `eb32_insert` appends duplicates) when
// its key changes (`fwlc_srv_reposition`), so among equal keys the one
// queued first wins (2.6; 3.2 spreads equal keys over several lists and
// starts at a random one: the share is the same, docs/proxy-rules.md H11).
class LeastconnQueue {
 public:
  void resize(std::size_t ids) { key_.resize(ids, kUnqueued), order_.resize(ids, 0), eweight_.resize(ids, 0); }
  // Server `id` has `inflight` attempts at `eweight` now: re-queued behind
  // its equals if its key changed. Returns the key.
  std::uint64_t update(std::uint32_t id, std::uint64_t inflight, std::uint64_t eweight) {
    eweight_[id] = eweight;
    const std::uint64_t key = haproxy_leastconn_key(inflight, eweight);
    if (key_[id] != key) key_[id] = key, order_[id] = ++clock_;
    return key;
  }
  // Its attempts in flight changed (a pick or an answer): re-queued at the
  // eweight it was last picked at (its weight's own changes are seen at the next pick).
  void inflight_changed(std::uint32_t id, std::uint64_t inflight) {
    if (eweight_[id] > 0) update(id, inflight, eweight_[id]);
  }
  // When it was queued: lower is earlier.
  std::uint64_t order(std::uint32_t id) const { return order_[id]; }

 private:
  static constexpr std::uint64_t kUnqueued = ~std::uint64_t{0};
  std::vector<std::uint64_t> key_, order_, eweight_;  // by id
  std::uint64_t clock_ = 0;
};

// HAProxy's leastconn pick (`fwlc_get_next_server`): the candidate with the
// smallest key, the one queued first among equals. `eweight(i)`: 0 leaves
// it out (no weight: not in the tree); `inflight(i)`: its attempts in flight.
template <typename Eweight, typename Inflight>
std::int32_t pick_haproxy_leastconn(const std::vector<std::uint32_t>& candidates, Eweight eweight, Inflight inflight,
                                    LeastconnQueue& queue, const std::vector<std::uint32_t>& pos_id) {
  std::int32_t best = kNone;
  std::uint64_t best_key = 0, best_order = 0;
  for (const std::uint32_t i : candidates) {
    const std::uint64_t w = eweight(i);
    if (w == 0) continue;
    const std::uint32_t id = pos_id[i];
    const std::uint64_t key = queue.update(id, inflight(i), w);
    const std::uint64_t order = queue.order(id);
    if (best == kNone || key < best_key || (key == best_key && order < best_order))
      best = static_cast<std::int32_t>(i), best_key = key, best_order = order;
  }
  return best;
}

}  // namespace slowstart
