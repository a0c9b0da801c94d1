#!/usr/bin/env python3
"""Compares skillsync's agentskills lint profile with skills-ref.

Runs skills-ref's validator (agentskills/agentskills, skills-ref/src on
PYTHONPATH, with strictyaml installed) and `go run ./testdata/agentskills/compare`
on every folder holding a SKILL.md under the folders given, and compares
their verdicts on the rules both check: the name's (format, and equal to
the folder's) and the frontmatter keys'. Folders whose SKILL.md skills-ref
cannot parse (strictyaml refuses some YAML that YAML 1.2 parsers read) give
no verdict on those rules and are counted apart.

    PYTHONPATH=/path/to/skills-ref/src python3 testdata/agentskills/compare.py COLLECTION...

--record FILE writes skills-ref's verdicts of the folders, as the test
vectors' verdicts.json holds them.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from skills_ref.validator import validate

PARSE = ("SKILL.md must start", "SKILL.md frontmatter", "Invalid YAML", "Missing required file")


def skills_ref_verdict(d):
    errors = validate(Path(d))
    if any(e.startswith(PARSE) for e in errors):
        return {"parsed": False, "errors": errors}
    keys = []
    for e in errors:
        m = re.match(r"Unexpected fields in frontmatter: (.*?)\. Only ", e)
        if m:
            keys = sorted(m.group(1).split(", "))
    name_ok = not any(
        e.startswith(("Skill name", "Directory name", "Field 'name'", "Missing required field in frontmatter: name"))
        for e in errors
    )
    compat_ok = not any(e.startswith(("Compatibility exceeds", "Field 'compatibility'")) for e in errors)
    return {"parsed": True, "name_ok": name_ok, "unknown_keys": keys, "compatibility_ok": compat_ok, "errors": errors}


def rules_verdict(d):
    """skills-ref's rules (validate_metadata) on the frontmatter as PyYAML
    reads it: a verdict on the files strictyaml refuses too."""
    import yaml
    from skills_ref.validator import validate_metadata
    text = (Path(d) / "SKILL.md").read_text()
    parts = text.split("---", 2)
    try:
        meta = yaml.safe_load(parts[1]) if text.startswith("---") and len(parts) == 3 else None
    except yaml.YAMLError:
        meta = None
    if not isinstance(meta, dict):
        return {"parsed": False, "errors": ["PyYAML cannot read the frontmatter"]}
    meta = {str(k): v for k, v in meta.items()}
    errors = validate_metadata(meta, Path(d))
    keys = []
    for e in errors:
        m = re.match(r"Unexpected fields in frontmatter: (.*?)\. Only ", e)
        if m:
            keys = sorted(m.group(1).split(", "))
    name_ok = not any(
        e.startswith(("Skill name", "Directory name", "Field 'name'", "Missing required field in frontmatter: name"))
        for e in errors
    )
    return {"parsed": True, "name_ok": name_ok, "unknown_keys": keys, "errors": errors}


def main():
    args = sys.argv[1:]
    record = None
    if args[:1] == ["--record"]:
        record, args = args[1], args[2:]
    under = {str(p.parent): a for a in args for p in Path(a).rglob("SKILL.md")}
    dirs = sorted(under)
    here = Path(__file__).resolve().parent
    root = here.parent.parent
    ours = {}
    for i in range(0, len(dirs), 200):
        out = subprocess.run(["go", "run", "./testdata/agentskills/compare", *dirs[i:i + 200]],
                             cwd=root, check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            v = json.loads(line)
            ours[v["dir"]] = v
    total = agree = unparsed = 0
    rules = {"name": [0, 0], "keys": [0, 0], "compatibility": [0, 0]}
    recorded = {}
    for d in dirs:
        ref = skills_ref_verdict(d)
        recorded[os.path.relpath(d, under[d])] = ref
        if not ref["parsed"]:
            unparsed += 1
            continue
        us = ours[d]
        total += 1
        same = {
            "name": ref["name_ok"] == us["name_ok"],
            "keys": ref["unknown_keys"] == us["unknown_keys"],
            "compatibility": ref["compatibility_ok"] == us["compatibility_ok"],
        }
        for r, ok in same.items():
            rules[r][0] += ok
            rules[r][1] += 1
        if all(same.values()):
            agree += 1
        else:
            print(f"DISAGREE {d}\n  skills-ref: {ref['errors']}\n  skillsync: {us['diagnostics']}")
    print(f"{len(dirs)} SKILL.md files; {unparsed} that skills-ref cannot parse, left out")
    print(f"{total} compared, {agree} agree on every rule compared")
    for r, (ok, n) in rules.items():
        print(f"  {r}: {ok}/{n} agree")
    rejected = sum(1 for v in recorded.values() if v["parsed"] and (not v["name_ok"] or v["unknown_keys"]))
    print(f"  ({rejected} of them have a name or a key skills-ref rejects)")
    # The same rules on every file, its frontmatter read by PyYAML.
    n = same = rejected = 0
    for d in dirs:
        ref = rules_verdict(d)
        if not ref["parsed"]:
            continue
        n += 1
        rejected += not ref["name_ok"] or bool(ref["unknown_keys"])
        us = ours[d]
        if ref["name_ok"] == us["name_ok"] and ref["unknown_keys"] == us["unknown_keys"]:
            same += 1
        else:
            print(f"DISAGREE (PyYAML) {d}\n  skills-ref rules: {ref['errors']}\n  skillsync: {us['diagnostics']}")
    print(f"skills-ref's rules on frontmatter read by PyYAML: {n} files, {same} agree on the name and the keys ({rejected} rejected)")
    if record:
        with open(record, "w") as f:
            json.dump(recorded, f, indent=2, sort_keys=True, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
