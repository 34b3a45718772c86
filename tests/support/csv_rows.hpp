#pragma once
// A CSV written by report::plots::Csv read back as rows of column → cell, for tests. Cells are
// split at commas: the writer turns a comma inside a cell into ';' (report/plots.hpp), so none
// is left to quote. A missing trailing cell reads as "".
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace softcert::testing {

inline std::vector<std::map<std::string, std::string>> csv_rows(const std::filesystem::path& f) {
  std::ifstream in(f);
  std::string line;
  std::vector<std::string> cols;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& l) {
    std::vector<std::string> out;
    std::stringstream s(l);
    std::string cell;
    while (std::getline(s, cell, ',')) out.push_back(cell);
    if (!l.empty() && l.back() == ',') out.push_back("");
    return out;
  };
  if (std::getline(in, line)) cols = split(line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cols.size() && i < cells.size(); ++i) row[cols[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace softcert::testing
