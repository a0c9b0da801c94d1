#!/usr/bin/env bash
# Lints the repository's workflows, the example workflow and, through them,
# action.yml with actionlint.
#
# actionlint reads a local action (uses: ./) only inside a project: a folder
# holding both .git and .github/workflows. The example names the action as
# users do (skillsync/skillsync@v1), so it is copied into a throwaway
# project beside action.yml with that pointed at `./`: then actionlint
# checks every `with:` of the example against action.yml's inputs and
# outputs, and action.yml's own metadata (runs, inputs, outputs).
#
# Run from anywhere: bash tools/lint-actions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

actionlint() { go tool -modfile=tools/go.mod actionlint "$@"; }

project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT
mkdir -p "$project/.git" "$project/.github/workflows"
cp action.yml "$project/action.yml"
sed -E 's#uses: skillsync/skillsync@v[0-9.]+$#uses: ./#' examples/github/skills.yml >"$project/.github/workflows/skills.yml"
if ! grep -q 'uses: \./$' "$project/.github/workflows/skills.yml"; then
	echo "lint-actions: examples/github/skills.yml no longer uses skillsync/skillsync@vN: nothing would check action.yml" >&2
	exit 1
fi

sed -E 's#uses: skillsync/skillsync@v[0-9.]+$#uses: ./#' examples/github/skills-targets.yml >"$project/.github/workflows/skills-targets.yml"

actionlint .github/workflows/*.yml examples/github/*.yml "$project/.github/workflows/skills.yml" "$project/.github/workflows/skills-targets.yml"
echo "actionlint: .github/workflows, examples/github and action.yml are clean"
