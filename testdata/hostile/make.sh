#!/bin/sh
# make.sh DIR builds the hostile repositories of issue 13 in DIR, with an
# emulator seed whose space holds their skills, to measure skillsync's
# memory and time on them (figures: fsrepo.MaxSkillMDBytes,
# fsrepo.MaxCompareBytes):
#
#   DIR/md     four skills, each with a SKILL.md of 1 GiB
#   DIR/files  four skills, each with a supporting file of 1 GiB: two of
#              text (written: 2 GiB of disk), two of zeros (sparse)
#   DIR/ref    a git repository whose commits hold a 3 GiB blob of zeros
#              (3 MB in git): HEAD~1 as a SKILL.md, HEAD as a supporting
#              file; the working tree holds neither
#   DIR/seed   the emulator's seed: space ab12 holding those skills
#
# Then, with skillsync built (go build -o skillsync ./cmd/skillsync):
#
#   skillsync emulator --seed DIR/seed --token hostile-token-0123456789 &
#   export SKILLSYNC_BASE_URL=<the URL it prints> SKILLSYNC_SPACE=ab12 SKILLSYNC_TOKEN=hostile-token-0123456789
#   cd DIR/files && /usr/bin/time -v skillsync drift
#   cd DIR/ref && /usr/bin/time -v skillsync validate --ref HEAD~1
set -eu
dir=${1:?usage: make.sh DIR}
mkdir -p "$dir"
cd "$dir"
dir=$(pwd)
GiB=1073741824

skill() { # skill FOLDER SLUG: a valid SKILL.md for slug
	mkdir -p "$1/skills/$2"
	printf -- '---\nname: %s\ndescription: A skill of the hostile repositories.\n---\n\n# %s\n\nRead the reference.\n' "$2" "$2" >"$1/skills/$2/SKILL.md"
}
text() { # text FILE SIZE: SIZE bytes of lines of text
	yes 'A line of a long reference file, as a skill may have.' | head -c "$2" >"$1"
}

rm -rf md files ref seed
mkdir -p md files ref seed/ab12/skills
for r in md files ref; do echo 'space: ab12' >"$r/skillsync.yaml"; done
printf 'spaces:\n  - id: ab12\ntokens:\n  - token: hostile-token-0123456789\n    permission: read-write\n' >seed/emulator.yaml
for i in 1 2 3 4; do
	skill seed/ab12 "big-$i"
	skill md "big-$i"
	truncate -s $GiB "md/skills/big-$i/SKILL.md"
	skill files "big-$i"
done
text files/skills/big-1/reference.md $GiB
text files/skills/big-2/reference.md $GiB
truncate -s $GiB files/skills/big-3/data.bin
truncate -s $GiB files/skills/big-4/data.bin

# The blob goes in through the index only: never checked out, it takes
# 3 MB of disk.
cd ref
git init -q -b main
for i in 1 2 3 4; do skill . "big-$i"; done
git add -A
truncate -s 3G "$dir/zeros"
blob=$(git -c core.bigFileThreshold=4g -c core.looseCompression=9 hash-object -w "$dir/zeros") # a loose object, as git add makes it
rm "$dir/zeros"
commit() { git -c user.name=hostile -c user.email=hostile@example.com commit -q -m "$1"; }
git update-index --add --cacheinfo "100644,$blob,skills/big-1/SKILL.md"
commit 'a SKILL.md of 3 GiB'
git add skills/big-1/SKILL.md
git update-index --add --cacheinfo "100644,$blob,skills/big-2/reference.txt"
commit 'a supporting file of 3 GiB'
du -sh "$dir"/*
