#!/usr/bin/env python3
"""One source for each measured time: a named run's time is stated in its home document only
(docs/performance.md for the checks, the table of docs/cli.md "reproduce" for the experiments),
and every other document refers there. Two documents that both state a
time for the same run drift apart (the regression check was "hours" in one place and "1 min 46 s"
in another); one statement cannot contradict another.

RUNS names each run by the patterns that all occur in a passage about it, and its home. A
passage is a paragraph, a list item or a table row of README.md, docs/**/*.md or a markdown cell
of docs/notebooks/*.ipynb. A passage outside the run's home that names the run and states a
duration (DURATION: "1 min 46 s", "125 CPU-s", "3.6 min", "under a minute", "hours", ...) in the
same clause as the run's name (its first pattern), at most NEAR characters from it, fails, naming
the file, line, run and duration. The test first plants a contradiction in a copy of the
documents and fails unless it is caught, so a pattern that stops matching cannot pass silently.
Usage: stated_times_test.py SOURCE_DIR
"""
import glob
import json
import os
import re
import sys

# run: (patterns that must all occur in the passage, the home document of its times)
# run: (patterns that must all occur in the passage, the first one naming the run; the home of
# its times; a pattern of passages that are about another run of the same words)
RUNS = {
    "the rigorous regression checks on the authors' sweep (varre2026.regression.conditioning, .monotone)":
        ([r"authors' sweep|authors-sweep|authors' own runs", r"rigorous"], "docs/performance.md",
         r"^\| `varre2026-regression`|softcert reproduce varre2026-regression"),
    "the tied model's authors' D = 50 run, rigorous":
        ([r"D = 50\b|tied-D50", r"rigorous|proved"], "docs/performance.md", None),
    "reproduce's notebook figures with rigorous endpoints (square- and log-loss comparisons)":
        ([r"square-loss (rows|comparison)|square_loss_comparison|log-loss rows"], "docs/cli.md", None),
    "a reproduce experiment's run time":
        ([r"each experiment takes|experiments? takes?"], "docs/cli.md", None),
}

# How far (characters, either side) a duration may be from a run's name to be its time: a
# sentence, not the rest of a long ledger paragraph.
NEAR = 300

NUMBER = r"\d+(?:[.,]\d+)?"
UNIT = r"\s*(?:h|min|minutes?|s|seconds?|CPU-s|CPU-minutes?|ms)(?![\w/²³])"
DURATION = re.compile(
    r"(?<![\w.·⁻])" + NUMBER + UNIT + r"(?:\s+" + NUMBER + UNIT + r")?"
    r"|\b(?:under|about|within|over) (?:a|one|two|half an?) (?:minute|hour)s?\b"
    r"|\bhalf an hour\b|\bhours\b|\ban hour\b")


def passages(text):
    """(first line number, passage) of a markdown text: blank-line paragraphs, split further at
    each list item and table row."""
    out, start, cur = [], 1, []
    for i, line in enumerate(text.split("\n"), 1):
        new_item = re.match(r"^\s*(?:[-*+] |\d+\. |\|)", line)
        if not line.strip() or (new_item and cur):
            if cur:
                out.append((start, "\n".join(cur)))
            cur, start = ([line], i) if line.strip() else ([], i + 1)
            continue
        if not cur:
            start = i
        cur.append(line)
    if cur:
        out.append((start, "\n".join(cur)))
    return out


def documents(source):
    """{relative path: text} of the documents that may state times."""
    docs = {}
    for path in ["README.md"] + sorted(glob.glob(os.path.join(source, "docs", "**", "*.md"), recursive=True)):
        rel = os.path.relpath(os.path.join(source, path), source)
        docs[rel] = open(os.path.join(source, rel), encoding="utf-8").read()
    for nb in sorted(glob.glob(os.path.join(source, "docs", "notebooks", "*.ipynb"))):
        cells = json.load(open(nb, encoding="utf-8"))["cells"]
        docs[os.path.relpath(nb, source)] = "\n\n".join(
            "".join(c["source"]) for c in cells if c.get("cell_type") == "markdown")
    return docs


def second_statements(docs):
    """Every (file, line, run, duration) where a run's time is stated outside its home."""
    found = []
    for rel, text in docs.items():
        for line, passage in passages(text):
            # a quoted section title ("The tied model at D = 50 and 100") names no run
            passage = re.sub(r'"[^"]{0,120}"', '"…"', passage)
            for run, (patterns, home, other) in RUNS.items():
                if rel == home or not all(re.search(p, passage, re.I) for p in patterns):
                    continue
                if other and re.search(other, passage, re.M):
                    continue
                # the run's name and a duration in one clause (between semicolons and full stops)
                for clause in re.split(r";|\.\s+(?=[A-Z(*`])", passage):
                    names = [m.start() for m in re.finditer(patterns[0], clause, re.I)]
                    hit = next((m for m in DURATION.finditer(clause) if any(abs(m.start() - n) <= NEAR for n in names)),
                               None)
                    if hit:
                        found.append((rel, line, run, hit.group(0), home))
                        break
    return found


def main(source):
    docs = documents(source)
    # A planted contradiction must be caught: the regression check's time stated again in README
    # and a reproduce experiment's in reviewers.md.
    planted = dict(docs)
    planted["README.md"] += ("\n\nThe rigorous tier proves the authors' sweep (conditioning) in 5 min.\n")
    planted["docs/reviewers.md"] += "\n\nEach experiment takes under a minute.\n"
    caught = {(f, run) for f, line, run, _, _ in set(second_statements(planted)) - set(second_statements(docs))}
    want = {("README.md", next(r for r in RUNS if r.startswith("the rigorous regression"))),
            ("docs/reviewers.md", "a reproduce experiment's run time")}
    if not want <= caught:
        print("FAIL: the planted statements were not caught: %s" % sorted(want - caught))
        return 1
    bad = second_statements(docs)
    for rel, line, run, duration, home in bad:
        print(f"FAIL: {rel}:{line}: states a time ({duration!r}) for {run}; its times are stated in {home} "
              f"only: refer there instead")
    if bad:
        return 1
    print(f"ok: {len(docs)} documents, {len(RUNS)} runs; each run's time stated only in its home "
          f"(the planted contradictions were caught)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
