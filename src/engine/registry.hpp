#pragma once
// The process-wide list of checks. proofs_checks/ files add themselves at static
// initialisation with SOFTCERT_REGISTER_CHECK(ClassName) or, for one class that states several
// readings, SOFTCERT_REGISTER_CHECK(ClassName, constructor arguments...).
#include <memory>
#include <string>
#include <vector>

#include "engine/check.hpp"

namespace softcert::engine {

class CheckRegistry {
 public:
  static CheckRegistry& global();
  void add(std::unique_ptr<Check> check);  // throws std::logic_error on a duplicate name
  const Check* find(const std::string& name) const;
  std::vector<const Check*> all() const;  // sorted by name
  // "no check named \"NAME\"", with the nearest registered name when NAME looks like a typo of it.
  std::string unknown(const std::string& name) const;

 private:
  std::vector<std::unique_ptr<Check>> checks_;
};

struct CheckRegistration {
  explicit CheckRegistration(std::unique_ptr<Check> check) { CheckRegistry::global().add(std::move(check)); }
};

}  // namespace softcert::engine

#define SOFTCERT_REGISTRATION_NAME_(n) softcert_registration_##n
#define SOFTCERT_REGISTRATION_NAME(n) SOFTCERT_REGISTRATION_NAME_(n)
#define SOFTCERT_REGISTER_CHECK(Class, ...)                                                        \
  static const ::softcert::engine::CheckRegistration SOFTCERT_REGISTRATION_NAME(__COUNTER__){ \
      std::make_unique<Class>(__VA_ARGS__)}
