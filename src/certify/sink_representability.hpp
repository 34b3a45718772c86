#pragma once
// Sink representability (Súkeník et al. 2026, reconstruction; docs/theorems/
// sukenik2026_sink_representability.md). Tokens x_1..x_T ∈ Q^d, sink x_0 ∈ Q^d. A bilinear
// score W represents a sink when every query x_q prefers the sink over every key x_k:
//   g_qk(W) = x_qᵀ W (x_0 − x_k) > 0     for all queries q and keys k ∈ {1..T}
// (the queries are the tokens, or a set the caller gives, e.g. the tokens and the sink).
// Such W exists iff (i) 0 ∉ conv{x_q} and (ii) x_0 ∉ conv{x_k}; then W = u vᵀ works with u, v
// separators. Certificates: either (u, v) with every g_qk(u vᵀ) > 0 exactly, or a convex
// combination showing (i) or (ii) fails (then Σλ_q g_qk(W) = 0, resp. Σμ_k g_qk(W) = 0, for
// every W, so not all gaps are positive).
#include <nlohmann/json.hpp>

#include "certify/halfspace_depth.hpp"
#include "certify/rational_linear.hpp"

namespace softcert::certify {

struct SinkProblem {
  RVec sink;    // x_0
  RMat tokens;  // x_1..x_T (the keys; also the queries unless `queries` is set)
  RMat queries; // the queries when they differ from the tokens (e.g. the sink as a query too)
};

// The queries of p: `queries` when set, else the tokens.
const RMat& queries_of(const SinkProblem& p);

struct SinkDecision {
  bool representable = false;
  DepthCertificate queries;  // on {x_q}
  DepthCertificate keys;     // on {x_0 − x_k}
  IntervalMp margin;         // encloses min(ρ(queries), ρ(x_0 − keys)); > 0 iff representable
  nlohmann::json certificate;  // exact, replayable (see verify_sink_certificate)
};

RMat sink_minus_keys(const SinkProblem& p);

// Decides representability exactly and builds the certificate.
SinkDecision decide_sink_representability(const SinkProblem& p);

// Re-verifies a certificate from scratch (exact rationals), trusting nothing in it.
// Returns +1 if it proves representability (the rank-one W has all gaps > 0), −1 if it proves
// non-representability (a valid convex combination), 0 if it proves nothing (tampered or
// malformed). `min_gap` receives the exact minimum gap in the +1 case.
int verify_sink_certificate(const SinkProblem& p, const nlohmann::json& certificate, Rational* min_gap = nullptr);

}  // namespace softcert::certify
