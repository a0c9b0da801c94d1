#!/usr/bin/env bash
# Lints the example workflow and, through it, action.yml with actionlint.
#
# actionlint reads a local action (uses: ./) only inside a project: a folder
# holding both .git and .github/workflows. This repository keeps neither a
# workflow nor .github, so the example is copied into a throwaway project
# beside action.yml with `uses: skillsync/skillsync@v1` pointed at `./`:
# then actionlint checks every `with:` of the example against action.yml's
# inputs, and action.yml's own metadata (runs, inputs, outputs).
#
# Run from anywhere: bash tools/lint-actions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

actionlint() { go tool -modfile=tools/go.mod actionlint "$@"; }

project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT
mkdir -p "$project/.git" "$project/.github/workflows"
cp action.yml "$project/action.yml"
sed 's|uses: skillsync/skillsync@v1|uses: ./|' examples/github/skills.yml >"$project/.github/workflows/skills.yml"
if ! grep -q 'uses: \./$' "$project/.github/workflows/skills.yml"; then
	echo "lint-actions: examples/github/skills.yml no longer uses skillsync/skillsync@v1: nothing would check action.yml" >&2
	exit 1
fi

actionlint examples/github/skills.yml "$project/.github/workflows/skills.yml"
echo "actionlint: examples/github/skills.yml and action.yml are clean"
