#include "engine/runner.hpp"

#include <atomic>
#include <cctype>
#include <chrono>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "support/input_file.hpp"
#include "engine/journal.hpp"
#include "engine/record_validation.hpp"
#include "engine/registry.hpp"
#include "engine/run_identity.hpp"
#include "engine/seeds.hpp"
#include "engine/verdict_policy.hpp"
#include "support/cpu_cap.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"

namespace softcert::engine {

std::vector<WorkItem> plan(const Suite& suite) {
  std::vector<WorkItem> items;
  for (std::size_t e = 0; e < suite.entries.size(); ++e) {
    const SuiteEntry& entry = suite.entries[e];
    for (const auto& f : entry.instance_files) {
      WorkItem w;
      w.entry = e;
      w.ordinal = items.size();
      const std::string name = instance_file_name(suite, f);
      w.instance_id = entry.label == entry.check ? name : entry.label + "/" + name;
      w.file = f;
      items.push_back(w);
    }
    for (std::size_t i = 0; i < entry.instances; ++i) {
      WorkItem w;
      w.entry = e;
      w.ordinal = items.size();
      w.instance_id = entry.label + "#" + std::to_string(i);
      w.seed = instance_seed(suite.seed, entry.label, i);
      items.push_back(w);
    }
  }
  return items;
}

std::string generator_settings_problem(const Suite& suite, std::size_t entry) {
  const SuiteEntry& e = suite.entries.at(entry);
  const Check* check = CheckRegistry::global().find(e.check);
  if (!check || e.instances == 0) return "";
  try {
    (void)check->generate(instance_seed(suite.seed, e.label, 0), e.generate);
  } catch (const std::invalid_argument& x) {
    return x.what();
  }
  return "";
}

namespace {

// Every message names the file first.
nlohmann::json load_instance_file(const std::filesystem::path& f) {
  const std::string text = support::read_input_file(f);  // a regular file only, size-capped, stopped at a NUL
  if (text.empty()) throw std::invalid_argument(f.string() + ": empty file");
  try {
    return num::parse_json_strict(text, f.string());  // no NUL, no duplicate key
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(f.string() + ": not valid JSON: " + num::json_error_excerpt(e.what()));
  }
}

const char kBadInput[] = "bad input: ";

}  // namespace

std::string certificate_file_name(const nlohmann::json& record) {
  std::string name = record.value("entry", record.value("check", std::string("check"))) + "." +
                     record.value("instance", std::string("instance"));
  for (char& ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-')) ch = '_';
  return name + ".jsonl";
}

nlohmann::json run_item(const Suite& suite, const WorkItem& item, const std::filesystem::path* certificates,
                        std::optional<std::string>* refused_input) {
  if (refused_input) refused_input->reset();
  const SuiteEntry& entry = suite.entries.at(item.entry);
  const Check* check = CheckRegistry::global().find(entry.check);
  nlohmann::json r;
  r["check"] = entry.check;
  r["entry"] = entry.label;
  r["instance"] = item.instance_id;
  r["seed"] = item.seed;
  if (item.file) r["instance_file"] = item.file->string();
  r["tier"] = to_string(entry.options.tier);
  r["params"] = entry.options.params;
  // What the verdict did not assume: replay reads it back, so that a violation found outside a
  // hypothesis replays outside it.
  if (!entry.generate.dropped.empty()) r["dropped"] = entry.generate.dropped;
  const auto start = std::chrono::steady_clock::now();
  nlohmann::json instance;
  CheckResult result;
  try {
    if (!check) throw std::invalid_argument(CheckRegistry::global().unknown(entry.check));
    instance = item.instance ? *item.instance
               : item.file   ? load_instance_file(*item.file)
                             : check->generate(item.seed, entry.generate);
    // The entry's dropped hypotheses are dropped for its instance files too: the run assumes
    // only the others (run_check tests them first).
    CheckOptions options = entry.options;
    options.dropped = entry.generate.dropped;
    options.certificate = certificates != nullptr;
    result = run_check(*check, instance, options);
  } catch (const std::invalid_argument& e) {
    // One rule for bad input inside a run (docs/verdicts.md): this (check, instance) is an
    // error record and the run goes on. The reason is made valid UTF-8 and kept short, so the
    // record can always be written (a raw byte from a bad file once stopped the whole suite).
    std::string what = e.what();
    if (item.file && what.rfind(item.file->string() + ": ", 0) != 0) what = item.file->string() + ": " + what;
    result = CheckResult{};
    result.verdict = Verdict::error;
    result.reason = kBadInput + num::excerpt(what, 1000);
    if (refused_input) *refused_input = num::excerpt(what, 1000);
  } catch (const std::exception& e) {
    result = CheckResult{};
    result.verdict = Verdict::error;
    result.reason = "internal error: " + num::excerpt(e.what(), 1000);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r["precision_bits"] = result.precision_bits;
  r["horizon"] = result.horizon ? nlohmann::json(*result.horizon)
                                : (entry.options.horizon ? nlohmann::json(*entry.options.horizon) : nlohmann::json());
  r["verdict"] = to_string(result.verdict);
  r["margin"] = result.margin.empty() ? nlohmann::json()
                                      : nlohmann::json::array({result.margin.lower_text(), result.margin.upper_text()});
  r["reason"] = result.reason;
  r["details"] = result.details;
  // A violation must be replayable from this record alone.
  if (result.verdict == Verdict::violated) r["counterexample"] = instance;
  // The record must pass the rules every reader of it applies (merge, --resume): one function
  // for both. A check whose result breaks them has a bug; it is recorded as an internal error,
  // never as the verdict it could not back.
  if (const std::string problem = record_problem(r); !problem.empty()) {
    r["verdict"] = to_string(Verdict::error);
    r["reason"] = "internal error: the check's result breaks the record rules (docs/verdicts.md): " + problem +
                  " (was: " + num::excerpt(result.reason, 400) + ")";
    r.erase("counterexample");
    if (!record_problem(r).empty()) r["margin"] = nullptr;  // a malformed margin (rule 1) goes too
  }
  r["seconds"] = seconds;
  // Only a proved record keeps its certificate: nothing else is claimed.
  if (certificates && r["verdict"] == to_string(Verdict::proved) && !result.certificate.empty()) {
    std::string text;
    for (const auto& line : result.certificate) text += line + "\n";
    write_file_atomically(*certificates / certificate_file_name(r), text);
  }
  return r;
}

std::string slot_problem(const Suite& suite, const WorkItem& item, const nlohmann::json& r) {
  const SuiteEntry& e = suite.entries.at(item.entry);
  const auto field = [&r](const char* name, const nlohmann::json& want) -> std::string {
    if (!r.contains(name))
      return std::string("has no \"") + name + "\" (its slot's is " + num::excerpt(want.dump(), 80) + ")";
    if (r[name] != want)
      return std::string("has \"") + name + "\" " + num::excerpt(r[name].dump(), 80) + ", but its slot's is " +
             num::excerpt(want.dump(), 80);
    return "";
  };
  for (const auto& [name, want] : std::vector<std::pair<const char*, nlohmann::json>>{
           {"check", e.check},
           {"entry", e.label},
           {"instance", item.instance_id},
           {"seed", item.seed},
           {"tier", to_string(e.options.tier)},
           {"params", e.options.params}})
    if (std::string p = field(name, want); !p.empty()) return p;
  // The instance file: its absolute path may differ between the machines of a sharded run, its
  // name (in "instance") and its presence may not.
  const bool names_file = r.contains("instance_file") && !r["instance_file"].is_null();
  if (names_file != item.file.has_value())
    return item.file ? "has no \"instance_file\", but its slot is the file " + num::excerpt(item.file->string(), 200)
                     : "has an \"instance_file\", but its slot is a generated instance";
  if (item.file && (!r["instance_file"].is_string() ||
                    std::filesystem::path(r["instance_file"].get<std::string>()).filename() != item.file->filename()))
    return "has \"instance_file\" " + num::excerpt(r["instance_file"].dump(), 200) + ", but its slot is the file " +
           num::excerpt(item.file->string(), 200);
  return "";
}

SuiteReport judge_records(const Suite& suite, std::vector<nlohmann::json> records, const Shard& shard) {
  SuiteReport rep;
  rep.records = std::move(records);
  // Which entries the shard holds whole: their expectations can be judged here.
  std::vector<bool> whole(suite.entries.size(), true);
  if (shard.count > 1)
    for (const auto& w : plan(suite))
      if (!shard.contains(w.ordinal)) whole[w.entry] = false;
  bool unexpected = false, inconclusive = false;
  for (std::size_t k = 0; k < suite.entries.size(); ++k) {
    const SuiteEntry& e = suite.entries[k];
    EntryReport er{e.check, e.label, e.expect, e.max_inconclusive, {}, Outcome::as_expected, 0};
    for (const auto& r : rep.records) {
      if (r.value("entry", r.at("check").get<std::string>()) != e.label) continue;
      const auto v = verdict_from_string(r.at("verdict").get<std::string>());
      ++er.counts[v ? *v : Verdict::error];
      er.seconds += r.value("seconds", 0.0);
    }
    er.outcome = whole[k] ? judge(e.expect, er.counts, e.max_inconclusive) : judge_part(e.expect, er.counts);
    unexpected |= er.outcome == Outcome::unexpected;
    inconclusive |= er.outcome == Outcome::too_inconclusive;
    rep.entries.push_back(er);
  }
  rep.exit_status = unexpected ? 1 : inconclusive ? 3 : 0;
  return rep;
}

SuiteReport run_suite(const Suite& suite, const RunSettings& settings) {
  if (settings.jobs == 0) throw std::invalid_argument("--jobs must be at least 1");
  if (settings.certificates) {
    std::error_code ec;
    std::filesystem::create_directories(*settings.certificates, ec);
    if (ec) throw WriteError("cannot create " + settings.certificates->string() + ": " + ec.message());
  }
  if (settings.shard.count == 0 || settings.shard.index == 0 || settings.shard.index > settings.shard.count)
    throw std::invalid_argument("--shard must be K/N with 1 <= K <= N");
  std::vector<WorkItem> items;
  for (const auto& w : plan(suite))
    if (settings.shard.contains(w.ordinal)) items.push_back(w);

  const RunIdentity identity = run_identity(suite, settings.identity_shards.value_or(settings.shard.count));
  std::map<std::string, nlohmann::json> previous;
  std::filesystem::path journal_path;
  std::optional<std::uintmax_t> complete_bytes;  // set when a cut last line must be cut off
  std::vector<std::string> notes;
  if (settings.out_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*settings.out_dir, ec);
    if (ec) throw WriteError("cannot create " + settings.out_dir->string() + ": " + ec.message());
    journal_path = *settings.out_dir / "results.jsonl";
    if (settings.resume) {
      // What a run writes in DIR is never a symlink: a link there (DIR/plots to a directory
      // elsewhere, DIR/summary.json to a FIFO) would send the resumed run's files through it.
      for (const auto& f : run_dir_files()) {
        if (f == "results.jsonl") continue;  // read_journal_for_resume refuses a linked journal itself
        std::error_code lc;
        if (std::filesystem::is_symlink(std::filesystem::symlink_status(*settings.out_dir / f, lc)))
          throw std::invalid_argument("--resume: " + (*settings.out_dir / f).string() +
                                      " is a symlink; softcert writes its run files only as files of --out itself");
      }
      std::error_code ec2;
      if (std::filesystem::exists(std::filesystem::symlink_status(journal_path, ec2))) {
        ResumableJournal j = read_journal_for_resume(journal_path);
        previous = std::move(j.records);
        if (!j.dropped_tail.empty()) {
          complete_bytes = j.complete_bytes;
          notes.push_back(journal_path.string() + ": dropped its unterminated last line (" +
                          std::to_string(j.dropped_tail.size()) +
                          " bytes: a result cut short when the run was killed); it is recomputed");
        }
      }
      check_resumable(*settings.out_dir, identity, previous, journal_path);
    } else {
      std::error_code ec;  // (the throwing forms made a directory there an "internal error")
      if (std::filesystem::exists(std::filesystem::symlink_status(journal_path, ec))) {
        std::filesystem::remove(journal_path, ec);
        if (ec) throw WriteError("cannot remove " + journal_path.string() + ": " + ec.message());
      }
    }
  } else if (settings.resume) {
    throw std::invalid_argument("--resume needs --out DIR");
  }
  // Every previous record must belong to this plan: resuming with another suite is an error.
  std::map<std::string, std::size_t> slot_of;
  for (std::size_t k = 0; k < items.size(); ++k)
    slot_of[suite.entries[items[k].entry].check + "\t" + items[k].instance_id] = k;
  for (const auto& [key, r] : previous)
    if (!slot_of.count(key))
      throw std::invalid_argument(journal_path.string() + ": holds a result for " + key +
                                  " which this suite/shard does not plan: not resuming a different run");

  std::vector<nlohmann::json> results(items.size());
  std::vector<std::size_t> todo;
  for (std::size_t k = 0; k < items.size(); ++k) {
    auto it = previous.find(suite.entries[items[k].entry].check + "\t" + items[k].instance_id);
    if (it == previous.end()) {
      todo.push_back(k);
      continue;
    }
    // A record reused must be the one this slot's run would write (engine::slot_problem).
    if (const std::string p = slot_problem(suite, items[k], it->second); !p.empty())
      throw std::invalid_argument(journal_path.string() + ": the result for " + it->first + " " + p +
                                  ": the record was altered or is corrupt; not resuming");
    results[k] = it->second;
  }
  std::unique_ptr<Journal> journal;
  // The journal's header (run.json) goes first: every record after it carries its id.
  if (settings.out_dir) write_run_file(*settings.out_dir, identity);
  // Only now, with the journal accepted, cut the dropped line off: new lines must not be glued to it.
  if (settings.out_dir) journal = std::make_unique<Journal>(journal_path);
  if (complete_bytes) journal->cut_to(*complete_bytes);  // through the journal's descriptor: no symlink followed

  std::mutex mu;
  std::atomic<std::size_t> next{0};
  std::size_t done = items.size() - todo.size();
  std::exception_ptr failure;
  // Each worker holds a core of the CPU cap (settings.cpu_cap) while it has instances to run;
  // a check's own extra threads use only the cores left (support/cpu_cap.hpp).
  auto worker = [&]() {
    const support::CpuSlot core = support::CpuSlot::worker();
    for (;;) {
      const std::size_t t = next.fetch_add(1);
      if (t >= todo.size()) return;
      nlohmann::json r;
      std::optional<std::string> refused;  // the check refused its input (run_item)
      try {  // run_item turns a check's exceptions into records: what escapes is a certificate not written
        r = run_item(suite, items[todo[t]], settings.certificates ? &*settings.certificates : nullptr, &refused);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = std::current_exception();
        next = todo.size();
        return;
      }
      r["run"] = identity.id;
      std::lock_guard<std::mutex> lock(mu);
      if (settings.bad_file_is_usage_error && items[todo[t]].file && refused) {
        if (!failure) failure = std::make_exception_ptr(std::invalid_argument(*refused));
        next = todo.size();  // start nothing more
        return;
      }
      if (settings.generated_refusal_is_usage_error && !items[todo[t]].file && !items[todo[t]].instance && refused) {
        if (!failure)
          failure = std::make_exception_ptr(std::invalid_argument(
              "--param/--horizon: the check refuses its own generator's instance " + items[todo[t]].instance_id + ": " + *refused));
        next = todo.size();
        return;
      }
      try {
        if (journal) journal->append(r);
        ++done;
        if (settings.on_result) settings.on_result(r, done, items.size());
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
      results[todo[t]] = std::move(r);
    }
  };
  std::optional<support::CpuCap> cap;
  if (settings.cpu_cap) cap.emplace(std::max(settings.jobs, settings.cpu_cap));
  const unsigned n_threads = std::min<std::size_t>(settings.jobs, std::max<std::size_t>(todo.size(), 1));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < n_threads; ++i) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);

  SuiteReport rep = judge_records(suite, std::move(results), settings.shard);
  rep.resumed = items.size() - todo.size();
  rep.notes = std::move(notes);
  rep.run_id = identity.id;
  rep.run_identity = identity.components;
  std::string text;  // the records in plan order
  for (const auto& r : rep.records) text += r.dump() + "\n";
  if (settings.out_dir) {
    journal.reset();
    write_file_atomically(journal_path, text);
  }
  if (settings.json_lines) write_file_atomically(*settings.json_lines, text);
  return rep;
}

}  // namespace softcert::engine
