#pragma once
// The few MPI operations `softcert suite` needs, behind a small interface so that only
// mpi_session.cpp includes <mpi.h> and the binary builds (and runs) without MPI.
#include <string>
#include <vector>

namespace softcert::cli::mpi {

// True when this process was started by an MPI launcher (mpirun/mpiexec, or srun with PMI):
// the launcher's environment variables are present. Without one we never call MPI_Init, so a
// plain `softcert suite` needs no MPI run-time at all.
bool launched_by_mpi();

// The world size the launcher announced (1 when unknown).
int launcher_world_size();

// True when this binary was built with MPI (CMake option SOFTCERT_MPI and an MPI found).
bool compiled_with_mpi();

// MPI_Init_thread (funneled: only the calling thread talks MPI) on construction,
// MPI_Finalize on destruction. Construct only when compiled_with_mpi().
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Rank 0 receives every rank's text, in rank order; other ranks receive an empty vector.
  std::vector<std::string> gather(const std::string& mine) const;
  // Every rank receives rank 0's text.
  std::string broadcast(const std::string& from_root) const;
  // Logical OR across ranks (also a synchronisation point).
  bool any(bool mine) const;
  // Every rank receives rank 0's value.
  int broadcast(int from_root) const;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace softcert::cli::mpi
