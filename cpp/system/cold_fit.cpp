#include "system/cold_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/split_mix64.hpp"

namespace slowstart::system {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// One model's least squares: y ~ a + b * max(0, 1 - x / W), x ascending,
// with a weight per row. For a given W, a and b come from running sums up to
// the first row at or past W, so trying a warm-up costs a binary search.
class WarmupSearch {
 public:
  WarmupSearch(const std::vector<double>& x, const std::vector<double>& y) : x_(x), y_(y) {}

  struct Line {
    double a = 0, b = 0, warmup = 0, rss = 0;
  };

  Line best(const std::vector<double>& w) {
    sums(w);
    const double last = x_.back();
    double lo = last * 1e-3;
    for (const double v : x_)
      if (v > 0) {
        lo = std::max(lo, v);
        break;
      }
    const double hi = 2 * last;  // past the end: "still cold at the end" is a possible answer
    if (!(lo < hi)) lo = hi / 1000;
    // Denser near the start, in plain arithmetic (no pow: the same grid in
    // every libm, so both CLIs print the same digits).
    constexpr int kGrid = 240;
    int j_best = 0;
    Line found = at(lo);
    std::vector<double> grid(kGrid);
    for (int j = 0; j < kGrid; ++j) {
      const double u = static_cast<double>(j) / (kGrid - 1);
      grid[static_cast<std::size_t>(j)] = lo + (hi - lo) * u * u * u;
      const Line l = at(grid[static_cast<std::size_t>(j)]);
      if (l.rss < found.rss) found = l, j_best = j;
    }
    // Golden sections between the neighbours of the best grid point.
    double a = grid[static_cast<std::size_t>(std::max(0, j_best - 1))];
    double b = grid[static_cast<std::size_t>(std::min(kGrid - 1, j_best + 1))];
    constexpr double kPhi = 0.6180339887498949;
    double c = b - kPhi * (b - a), d = a + kPhi * (b - a);
    Line lc = at(c), ld = at(d);
    for (int k = 0; k < 60; ++k) {
      if (lc.rss <= ld.rss) {
        b = d, d = c, ld = lc;
        c = b - kPhi * (b - a);
        lc = at(c);
      } else {
        a = c, c = d, lc = ld;
        d = a + kPhi * (b - a);
        ld = at(d);
      }
    }
    const Line& refined = lc.rss <= ld.rss ? lc : ld;
    return refined.rss <= found.rss ? refined : found;
  }

  // The model's values for every row.
  void predict(const Line& l, std::vector<double>& out) const {
    out.resize(x_.size());
    for (std::size_t i = 0; i < x_.size(); ++i) out[i] = l.a + l.b * std::max(0.0, 1 - x_[i] / l.warmup);
  }

 private:
  void sums(const std::vector<double>& w) {
    const std::size_t n = x_.size();
    for (auto* v : {&sw_, &swx_, &swxx_, &swy_, &swxy_}) v->assign(n + 1, 0.0);
    swyy_ = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double wi = w[i], xi = x_[i], yi = y_[i];
      sw_[i + 1] = sw_[i] + wi;
      swx_[i + 1] = swx_[i] + wi * xi;
      swxx_[i + 1] = swxx_[i] + wi * xi * xi;
      swy_[i + 1] = swy_[i] + wi * yi;
      swxy_[i + 1] = swxy_[i] + wi * xi * yi;
      swyy_ += wi * yi * yi;
    }
  }

  Line at(double warmup) const {
    const std::size_t n = x_.size();
    const auto k = static_cast<std::size_t>(std::lower_bound(x_.begin(), x_.end(), warmup) - x_.begin());
    const double N = sw_[n], Y = swy_[n];
    const double sc = sw_[k] - swx_[k] / warmup;
    const double scc = sw_[k] - 2 * swx_[k] / warmup + swxx_[k] / (warmup * warmup);
    const double scy = swy_[k] - swxy_[k] / warmup;
    const double det = N * scc - sc * sc;
    Line l;
    l.warmup = warmup;
    l.b = det > 1e-12 * N * N ? (N * scy - sc * Y) / det : 0.0;
    if (l.b < 0) l.b = 0;  // warming never makes a backend slower
    l.a = (Y - l.b * sc) / N;
    if (l.a <= 0) {  // a warm time of 0 or less is no answer: the best with b alone
      l.a = 1e-9;
      l.b = scc > 0 ? std::max(0.0, (scy - l.a * sc) / scc) : 0.0;
    }
    l.rss = swyy_ - 2 * l.a * Y - 2 * l.b * scy + l.a * l.a * N + 2 * l.a * l.b * sc + l.b * l.b * scc;
    return l;
  }

  const std::vector<double>& x_;
  const std::vector<double>& y_;
  std::vector<double> sw_, swx_, swxx_, swy_, swxy_;
  double swyy_ = 0;
};

// Two passes: plain least squares, then relative errors (weights 1 / m^2
// from the first pass's model); `counts` are the rows' multiplicities (1,
// or a bootstrap resample's).
WarmupSearch::Line fit_line(WarmupSearch& search, const std::vector<double>& counts, std::vector<double>& m,
                            std::vector<double>& w) {
  WarmupSearch::Line l = search.best(counts);
  search.predict(l, m);
  w.resize(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) w[i] = counts[i] / (m[i] * m[i]);
  l = search.best(w);
  return l;
}

// Log-likelihood of the rows under the model with relative normal errors.
double log_likelihood(const std::vector<double>& y, const std::vector<double>& m) {
  const double n = static_cast<double>(y.size());
  double s2 = 0, logs = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double r = (y[i] - m[i]) / m[i];
    s2 += r * r;
    logs += std::log(m[i]);
  }
  s2 = std::max(s2 / n, 1e-300);
  return -n / 2 * (std::log(kTwoPi * s2) + 1) - logs;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<std::size_t>(std::floor(at));
  const double f = at - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

ModelFit model_of(const WarmupSearch::Line& l) {
  ModelFit m;
  m.service_ms = l.a;
  m.cold_factor = 1 + l.b / l.a;
  m.warmup = l.warmup;
  return m;
}

// The correlation between the fit's relative residuals and the in-flight
// requests' departure from their local level (their mean over the 50
// neighbouring rows): without a queue a request's own noise is independent
// of how many others are running; with one, more in flight means a wait.
double queue_correlation(const CanaryLog& log, const std::vector<double>& m) {
  const std::size_t n = log.rows.size();
  std::vector<double> f(n), prefix(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) f[i] = log.rows[i].in_flight, prefix[i + 1] = prefix[i] + f[i];
  constexpr std::size_t kHalf = 25;
  double sr = 0, sd = 0, srr = 0, sdd = 0, srd = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = i >= kHalf ? i - kHalf : 0, b = std::min(n, i + kHalf + 1);
    const double d = f[i] - (prefix[b] - prefix[a]) / static_cast<double>(b - a);
    const double r = (log.rows[i].latency_ms - m[i]) / m[i];
    sr += r, sd += d, srr += r * r, sdd += d * d, srd += r * d;
  }
  const double N = static_cast<double>(n);
  const double cov = srd / N - sr / N * sd / N;
  const double vr = srr / N - sr / N * sr / N, vd = sdd / N - sd / N * sd / N;
  return vr > 0 && vd > 0 ? cov / std::sqrt(vr * vd) : 0.0;
}

}  // namespace

ColdFit fit_cold_start(const CanaryLog& log, std::uint64_t seed, int resamples) {
  ColdFit fit;
  const std::size_t n = log.rows.size();
  fit.rows = n;
  if (n < kMinFitRows) {
    fit.refused = "too few rows (" + std::to_string(n) + "): the fit needs at least " + std::to_string(kMinFitRows) +
                  " requests, many of them after the warm-up";
    return fit;
  }
  fit.span = log.rows.back().t - log.rows.front().t;
  if (!(fit.span > 0)) {
    fit.refused = "every row has the same t: nothing to fit over";
    return fit;
  }
  std::vector<double> t(n), k(n), y(n), ones(n, 1.0), m, w;
  for (std::size_t i = 0; i < n; ++i) t[i] = log.rows[i].t, k[i] = static_cast<double>(i), y[i] = log.rows[i].latency_ms;
  WarmupSearch by_time(t, y), by_requests(k, y);
  std::vector<double> m_time, m_req;
  const WarmupSearch::Line lt = fit_line(by_time, ones, m, w);
  by_time.predict(lt, m_time);
  const WarmupSearch::Line lr = fit_line(by_requests, ones, m, w);
  by_requests.predict(lr, m_req);
  fit.time = model_of(lt);
  fit.requests = model_of(lr);
  fit.time.log_likelihood = log_likelihood(y, m_time);
  fit.requests.log_likelihood = log_likelihood(y, m_req);
  fit.by_requests = fit.requests.log_likelihood > fit.time.log_likelihood;
  fit.likelihood_gap = std::fabs(fit.requests.log_likelihood - fit.time.log_likelihood);
  fit.decided = fit.likelihood_gap >= 2;
  if (!fit.decided) fit.by_requests = false;  // undecided: by time, the simulator's default
  const ModelFit& best = fit.best();
  const std::vector<double>& m_best = fit.by_requests ? m_req : m_time;
  if (log.has_in_flight) fit.queue_correlation = queue_correlation(log, m_best);

  // Bootstrap: the rows resampled, both models refitted.
  fit.resamples = resamples > 0 ? resamples : static_cast<int>(std::clamp<std::size_t>(40'000'000 / n, 40, 200));
  SplitMix64 rng(seed);
  std::vector<double> counts(n);
  std::vector<double> ts, tc, tw, rs, rc, rw;
  for (int r = 0; r < fit.resamples; ++r) {
    std::fill(counts.begin(), counts.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) counts[static_cast<std::size_t>(rng.below(n))] += 1;
    const ModelFit a = model_of(fit_line(by_time, counts, m, w));
    const ModelFit b = model_of(fit_line(by_requests, counts, m, w));
    ts.push_back(a.service_ms), tc.push_back(a.cold_factor), tw.push_back(a.warmup);
    rs.push_back(b.service_ms), rc.push_back(b.cold_factor), rw.push_back(b.warmup);
  }
  const auto band = [](const std::vector<double>& v) { return Band{quantile(v, 0.025), quantile(v, 0.975)}; };
  fit.time.service_band = band(ts), fit.time.cold_band = band(tc), fit.time.warmup_band = band(tw);
  fit.requests.service_band = band(rs), fit.requests.cold_band = band(rc), fit.requests.warmup_band = band(rw);

  // A cold start at all: the model must beat a constant service time
  // clearly (its two more parameters bought more than 4 of log-likelihood)
  // and its cold factor's band stay above 1.05.
  const double mean = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
  const double flat = log_likelihood(y, std::vector<double>(n, mean));
  fit.cold = best.log_likelihood - flat >= 4 && best.cold_band.lo >= 1.05;

  // What the data cannot decide. First queueing: latency that rises with the
  // requests in flight measured the queue, whatever else the fit found (with
  // no cold start, its "service time" would be the queue's; with one, a
  // warm-up that seems never to end can be the queue's too).
  if (fit.queue_correlation > 0.3 && fit.queue_correlation * std::sqrt(static_cast<double>(n)) > 5) {
    char r[16];
    std::snprintf(r, sizeof r, "%.2f", fit.queue_correlation);
    fit.refused = std::string("queueing dominates: latency rises with the requests in flight beyond what warming "
                              "explains (correlation ") + r +
                  "): record with fewer requests at once (a lower rate, or more of the backend's slots)";
    return fit;
  }
  if (!fit.cold) {
    // No cold start found: unless the first tenth of the requests is still
    // clearly slower than the last half (a log too short to see the warm
    // side), latency simply does not fall.
    const auto median = [&](std::size_t from, std::size_t to) {
      std::vector<double> v(y.begin() + static_cast<std::ptrdiff_t>(from), y.begin() + static_cast<std::ptrdiff_t>(to));
      return quantile(std::move(v), 0.5);
    };
    const double first = median(0, std::max<std::size_t>(3, n / 10)), last = median(n / 2, n);
    if (first > 1.1 * last)
      fit.refused = "no warm phase: latency is still falling (the first tenth of the requests " +
                    std::to_string(static_cast<long long>(std::lround(first))) + " ms, the last half " +
                    std::to_string(static_cast<long long>(std::lround(last))) +
                    " ms) but the log is too short to see where it settles: record for longer";
    return fit;
  }
  {
    const double last = fit.by_requests ? static_cast<double>(n - 1) : log.rows.back().t;
    const std::vector<double>& x = fit.by_requests ? k : t;
    const auto warm_rows = static_cast<std::size_t>(x.end() - std::lower_bound(x.begin(), x.end(), best.warmup));
    if (best.warmup >= 0.9 * last || warm_rows < std::max<std::size_t>(10, n / 20)) {
      fit.refused = "no warm phase: latency is still falling at the end of the log (the fitted warm-up, " +
                    std::string(fit.by_requests ? std::to_string(static_cast<long long>(best.warmup)) + " requests"
                                                : std::to_string(static_cast<long long>(std::lround(best.warmup))) + " s") +
                    ", ends at or near its last request): record for longer";
      return fit;
    }
  }
  return fit;
}

}  // namespace slowstart::system
