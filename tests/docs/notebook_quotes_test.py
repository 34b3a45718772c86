#!/usr/bin/env python3
"""Every [code] quote of proofs_checks/claims.toml is the notebook's own text or says it is not:
each piece of the quote (pieces separated by " … ") must be a part of one line of
proofs_checks/sources/toy_experiments_excerpts.txt (the verbatim lines the repository records,
re-checked against the notebook by scripts/check_notebook_excerpts.py), unless the claim is
marked `paraphrase = true`. Usage: notebook_quotes_test.py REPO. Exit 0 when every quote passes,
1 listing those that do not."""
import pathlib
import sys
import tomllib


def unquoted(quote, excerpt_lines):
    """The pieces of `quote` that are part of no recorded line."""
    return [p for p in quote.split(" … ") if not any(p.strip() in line for line in excerpt_lines)]


def main(repo):
    repo = pathlib.Path(repo)
    ledger = tomllib.loads((repo / "proofs_checks/claims.toml").read_text(encoding="utf-8"))
    excerpt_lines = [l.strip() for l in (repo / "proofs_checks/sources/toy_experiments_excerpts.txt").read_text(
        encoding="utf-8").splitlines() if l.strip() and not l.startswith("#") and not l.startswith("== cell ")]
    bad, checked, paraphrases = [], 0, 0
    for claim in ledger["claim"]:
        if claim["source"] != "code":
            if claim.get("paraphrase"):
                bad.append(f"{claim['id']}: paraphrase is only for [code] quotes")
            continue
        if claim.get("paraphrase"):
            paraphrases += 1
            continue
        for piece in unquoted(claim["quote"], excerpt_lines):
            bad.append(f"{claim['id']}: '{piece}' is not the notebook's text (mark paraphrase = true or quote it)")
        checked += 1
    # the rule has teeth: a paraphrase written as code, and a verbatim line with one piece altered
    if not unquoted("alpha = relu(a) / (relu(a).sum() + 1e-10)", excerpt_lines):
        bad.append("self-test: a paraphrase of cell 5 passed as a verbatim quote")
    if not unquoted("return np.abs(z) / self.norm … return np.maximum(1, z) / self.norm", excerpt_lines):
        bad.append("self-test: an altered piece passed as a verbatim quote")
    for b in bad:
        print(b, file=sys.stderr)
    print(f"notebook_quotes_test: {checked} verbatim [code] quotes, {paraphrases} marked paraphrase, {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
