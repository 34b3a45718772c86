#!/usr/bin/env python3
"""Documentation as tests: every command block of README.md, docs/reviewers.md,
docs/python.md, docs/search.md and docs/formulas.md is run as written, from a fresh temporary directory laid out
like the repository root (build/ and proofs_checks/ are links to the real ones, so every
output lands in the temporary directory), and what the docs state is checked against what the
commands print:

- a command that is not marked as skipped must exit 0, or with the status the doc shows
  (`$ echo $?` after it in a transcript, or `--expect refuted` style statements);
- in a transcript (`$ command` followed by its output), every output line that shows a margin
  ("margin [") or a counterexample must appear verbatim in what the command prints;
- the numbers the prose states (STATED below) must be what the named command prints.

Deliberately skipped commands are listed with their reason (SKIP); the test prints them.
Usage: docs_commands_test.py SOURCE_DIR BUILD_DIR
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

SOURCE, BUILD = sys.argv[1], sys.argv[2]
DOCS = ["README.md", "docs/reviewers.md", "docs/python.md", "docs/search.md", "docs/formulas.md"]

# (regex on the command, reason): commands not run here.
SKIP = [
    (r"^make\b", "builds or installs Debian packages; the build that runs this test did it"),
    (r"^git clone\b", "needs the network and a repository URL"),
    (r"^cd softcert\b|&& cd softcert", "part of the clone step"),
    (r"^xdg-open\b", "opens a browser"),
    (r"suite proofs_checks/suites/quick\.toml", "long: about 40 s on 2 cores (`make run` and CI run the quick suite)"),
    (r"reproduce varre2026-regression\b", "long: about a minute (tests/cli_reproduce_test.cpp runs a small one)"),
    (r"(NAME|FILE|SECONDS|HYPOTHESIS)\b.*\[", "a usage synopsis, not a command"),
    (r"softcert replay r/", "needs the quick suite's output (skipped above)"),
    (r"-m venv|~/venv/", "pip install into a virtual environment: ctest python_pip_install does exactly this"),
]

# Numbers stated in prose: (doc, text the doc must contain, command, regex on its output whose
# group 1 must equal `value`). Keep the commands quick.
STATED = [
    ("docs/python.md", "about 3.3e-10", "build/softcert reproduce varre2026-headline",
     r"widest enclosure on the grid has width (\S+)\.", "3.3e-10"),
    ("docs/reviewers.md", "largest width 3.3·10⁻¹⁰", "build/softcert reproduce varre2026-headline",
     r"widest enclosure on the grid has width (\S+)\.", "3.3e-10"),
    ("docs/reviewers.md", "the certified winner, token 6 (counted from 0)",
     "build/softcert reproduce varre2026-headline",
     r"the certified winner is token (\d+) \(counted from 0\)", "6"),
    ("docs/reviewers.md", "fitted exponents 1.000 and 1.518",
     "build/softcert reproduce sukenik2026-cost-scaling --out cost --format svg", r"- diagonal: (\S+) \[", "1.518"),
    ("docs/reviewers.md", "from 2.995 (κ = 1, near uniform)",
     "build/softcert reproduce varre2026-condition-numbers --out stated_kappa", r"κ = 1: \S+ / (\d\.\d{3})", "2.995"),
    ("docs/reviewers.md", "to 0.404 (κ = 5)",
     "build/softcert reproduce varre2026-condition-numbers --out stated_kappa", r"κ = 5: \S+ / (\d\.\d{3})", "0.404"),
]

COMMAND_START = re.compile(r"^(build/softcert|softcert|PYTHONPATH=|python3\b|make\b|git\b|cd\b|grep\b|xdg-open\b|cp\b|sed\b)")
# Commands whose printed numbers depend on the machine's speed (a time budget): their exit
# status is checked, their transcript lines are not.
TIME_DEPENDENT = re.compile(r"--budget\b")


def strip_comment(line):
    """The line without a trailing `# comment` (a # outside quotes, after whitespace)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and i > 0 and line[i - 1] in " \t":
            return line[:i].rstrip()
    return line.rstrip()


def blocks(path):
    """(kind, first line number, lines) of every code block: 'indented' or the fence's language."""
    lines = open(os.path.join(SOURCE, path), encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang, start, body = line[3:].strip() or "text", i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((lang, start + 1, body))
            i += 1
            continue
        if line.startswith("    ") and (i == 0 or lines[i - 1].strip() == ""):
            start, body = i, []
            while i < len(lines) and (lines[i].startswith("    ") or (lines[i].strip() == "" and i + 1 < len(lines)
                                                                     and lines[i + 1].startswith("    "))):
                body.append(lines[i][4:])
                i += 1
            out.append(("indented", start + 1, body))
            continue
        i += 1
    return out


def commands(body):
    """(command, expected output lines, expected exit status or None) of a block."""
    transcript = any(l.startswith("$ ") for l in body)
    joined, cur = [], ""
    for l in body:
        if cur:
            cur += " " + l.strip()
        else:
            cur = l
        if cur.endswith("\\"):
            cur = cur[:-1].rstrip()
            continue
        joined.append(cur)
        cur = ""
    out = []
    if transcript:
        for l in joined:
            if l.startswith("$ echo $?"):
                if out:
                    out[-1][2] = "next"
            elif l.startswith("$ "):
                out.append([l[2:].strip(), [], None])
            elif out:
                if out[-1][2] == "next":
                    out[-1][2] = int(l.strip())
                else:
                    out[-1][1].append(l)
    else:
        for l in joined:
            c = strip_comment(l.strip())
            if COMMAND_START.match(c):
                out.append([c, [], None])
    return [tuple(c) for c in out]


def run(cmd, cwd, env, timeout=150):
    start = time.time()
    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr, time.time() - start


def main():
    failures, ran, skipped = [], 0, []
    python_module = glob.glob(os.path.join(BUILD, "python", "softcert", "_core*.so"))  # the package build/python/softcert/
    try:
        import matplotlib  # noqa: F401
        have_matplotlib = True
    except ImportError:
        have_matplotlib = False
    with tempfile.TemporaryDirectory(prefix="softcert-docs-") as tmp:
        os.symlink(BUILD, os.path.join(tmp, "build"))
        os.symlink(os.path.join(SOURCE, "proofs_checks"), os.path.join(tmp, "proofs_checks"))
        env = dict(os.environ)
        env["PATH"] = BUILD + ":" + env.get("PATH", "")
        env.pop("SOFTCERT_GNUPLOT", None)
        outputs = {}
        for doc in DOCS:
            for kind, line, body in blocks(doc):
                where = f"{doc}:{line}"
                if kind == "python":
                    if not python_module:
                        skipped.append((where, "python block", "the Python module is not built (-DSOFTCERT_PYTHON)"))
                        continue
                    if "matplotlib" in "\n".join(body) and not have_matplotlib:
                        skipped.append((where, "python block", "matplotlib is not installed"))
                        continue
                    script = os.path.join(tmp, f"block_{line}.py")
                    open(script, "w", encoding="utf-8").write("\n".join(body) + "\n")
                    penv = dict(env, PYTHONPATH=os.path.join(BUILD, "python"))
                    status, text, secs = run(f"/usr/bin/python3 {script}", tmp, penv)
                    ran += 1
                    print(f"[{secs:5.1f} s] {where}: python block -> {status}")
                    if status != 0:
                        failures.append(f"{where}: the python block exits {status}:\n{text[-1500:]}")
                    continue
                for cmd, expected, status_expected in commands(body):
                    reason = next((r for pat, r in SKIP if re.search(pat, cmd)), None)
                    if reason is None and "python3" in cmd and "import softcert" in cmd and not python_module:
                        reason = "the Python module is not built"
                    if reason:
                        skipped.append((where, cmd, reason))
                        continue
                    status, text, secs = run(cmd, tmp, env)
                    outputs[cmd] = text
                    ran += 1
                    want = 0 if status_expected is None else status_expected
                    print(f"[{secs:5.1f} s] {where}: {cmd} -> {status}")
                    if status != want:
                        failures.append(f"{where}: `{cmd}` exits {status}, the doc says {want}:\n{text[-1500:]}")
                    for e in ([] if TIME_DEPENDENT.search(cmd) else expected):
                        e = e.strip()
                        if ("margin [" in e or e.startswith("counterexample:")) and "..." not in e and e not in text:
                            failures.append(f"{where}: `{cmd}` does not print the doc's line\n  {e}\n"
                                            f"it printed:\n{text[-2000:]}")
        for doc, text, cmd, regex, value in STATED:
            if text not in open(os.path.join(SOURCE, doc), encoding="utf-8").read():
                failures.append(f"{doc}: no longer states \"{text}\" (update STATED in {__file__})")
                continue
            if cmd not in outputs:
                status, out, secs = run(cmd, tmp, env)
                outputs[cmd] = out
                print(f"[{secs:5.1f} s] stated numbers: {cmd} -> {status}")
            m = re.search(regex, outputs[cmd])
            got = m.group(1) if m else None
            if got != value:
                failures.append(f"{doc} states \"{text}\"; `{cmd}` prints {got!r} (expected {value!r})")
    for where, cmd, reason in skipped:
        print(f"skipped {where}: {cmd}: {reason}")
    print(f"{ran} commands run, {len(skipped)} skipped, {len(failures)} failures")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
