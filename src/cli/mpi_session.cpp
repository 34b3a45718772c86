#include "cli/mpi_session.hpp"

#include <cstdlib>
#include <limits>
#include <stdexcept>

#ifdef SOFTCERT_HAVE_MPI
#include <mpi.h>
#endif

namespace softcert::cli::mpi {

namespace {
// Environment variables set by the common launchers: Open MPI's mpirun, PMIx (Open MPI 4/5,
// Slurm), PMI-1/2 (MPICH/Hydra, Slurm srun --mpi=pmi2).
const char* const kWorldSizeVars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"};
const char* const kLauncherVars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
}  // namespace

bool launched_by_mpi() {
  for (const char* v : kLauncherVars)
    if (std::getenv(v)) return true;
  return false;
}

int launcher_world_size() {
  for (const char* v : kWorldSizeVars)
    if (const char* s = std::getenv(v)) {
      const long n = std::strtol(s, nullptr, 10);
      if (n >= 1 && n <= std::numeric_limits<int>::max()) return static_cast<int>(n);
    }
  return 1;
}

#ifdef SOFTCERT_HAVE_MPI

bool compiled_with_mpi() { return true; }

namespace {
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}
int to_int_count(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("MPI: a rank's results exceed 2 GiB; use more ranks or --shard");
  return static_cast<int>(n);
}
}  // namespace

Session::Session() {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() { MPI_Finalize(); }

std::vector<std::string> Session::gather(const std::string& mine) const {
  int len = to_int_count(mine.size());
  std::vector<int> lens(rank_ == 0 ? size_ : 0), displs(rank_ == 0 ? size_ : 0);
  check(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  std::string all;
  if (rank_ == 0) {
    std::size_t total = 0;
    for (int r = 0; r < size_; ++r) {
      displs[r] = to_int_count(total);
      total += static_cast<std::size_t>(lens[r]);
    }
    to_int_count(total);
    all.resize(total);
  }
  check(MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD),
        "MPI_Gatherv");
  std::vector<std::string> out;
  if (rank_ == 0)
    for (int r = 0; r < size_; ++r) out.push_back(all.substr(static_cast<std::size_t>(displs[r]), lens[r]));
  return out;
}

std::string Session::broadcast(const std::string& from_root) const {
  int len = rank_ == 0 ? to_int_count(from_root.size()) : 0;
  check(MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string text = rank_ == 0 ? from_root : std::string(static_cast<std::size_t>(len), '\0');
  check(MPI_Bcast(text.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return text;
}

bool Session::any(bool mine) const {
  int in = mine ? 1 : 0, out = 0;
  check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
  return out != 0;
}

int Session::broadcast(int from_root) const {
  int v = from_root;
  check(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return v;
}

#else  // built without MPI: a one-rank session, so callers need no #ifdef.

bool compiled_with_mpi() { return false; }
Session::Session() = default;
Session::~Session() = default;
std::vector<std::string> Session::gather(const std::string& mine) const { return {mine}; }
std::string Session::broadcast(const std::string& from_root) const { return from_root; }
bool Session::any(bool mine) const { return mine; }
int Session::broadcast(int from_root) const { return from_root; }

#endif

}  // namespace softcert::cli::mpi
