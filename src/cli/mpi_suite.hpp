#pragma once
// `mpirun -n N softcert suite FILE --out DIR`: the plan is spread over the ranks and rank 0
// writes one report, identical (apart from "seconds") to a single-process run's.
#include <string>
#include <vector>

#include "engine/runner.hpp"

namespace softcert::cli {

// Under an MPI launcher: rank r of N runs shard K + M·r of M·N of the plan, where K/M is the
// user's --shard (1/1 by default), so --shard composes with MPI; each rank journals into
// DIR/.mpi/rank-R-of-N/results.jsonl (the durable part of --resume); rank 0 gathers every
// record (MPI_Gatherv of JSON lines), orders them by the plan, writes DIR/results.jsonl and
// the reports, and removes DIR/.mpi. --resume reuses results from DIR/results.jsonl and from
// every DIR/.mpi/*/ journal, so it works for any rank count, also after a single-process run.
// Every rank returns rank 0's exit status; bad input on any rank → UsageError on every rank.
int execute_mpi_run(const engine::Suite& suite, engine::RunSettings settings, const std::vector<std::string>& argv,
                    bool quiet);

}  // namespace softcert::cli
