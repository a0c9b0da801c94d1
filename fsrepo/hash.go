package fsrepo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/skillignore"
)

// hashPrefix names the algorithm of a [FolderHash].
const hashPrefix = "sha256:"

// FolderHash is the hash of a skill folder that skillsync.lock records:
// "sha256:" and the hex SHA-256 of the lines "<hex SHA-256 of the file>
// ./<path>\n", one per file, sorted by path, byte by byte. sums gives each
// file's SHA-256 by its slash-separated path in the folder.
//
// That is what sha256sum prints for the files, so coreutils recompute it
// in the folder (GNU sha256sum; on macOS, shasum -a 256 prints the same):
//
//	find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum
//
// The files are the regular files of the folder, at any depth, but for the
// ones operating systems leave behind (.DS_Store, Thumbs.db, desktop.ini,
// ehthumbs.db, and names beginning with "._"), which skillsync never reads;
// a folder holding one needs them left out of find, as in the README. A
// name holding '\' or a newline is escaped as GNU sha256sum escapes it.
func FolderHash(sums map[string][sha256.Size]byte) string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(sums)) {
		sum := sums[p]
		name := "./" + p
		if strings.ContainsAny(name, "\\\n") {
			h.Write([]byte{'\\'})
			name = strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(name)
		}
		h.Write([]byte(hex.EncodeToString(sum[:]) + "  " + name + "\n"))
	}
	return hashPrefix + hex.EncodeToString(h.Sum(nil))
}

// HashFiles is the [FolderHash] of files, by slash-separated path in the
// folder. Files that [FolderHash] leaves out are left out, and so are the
// development files that excludeFiles (skillsync.yaml's) and the folder's
// .skillignore files exclude (see package skillignore).
func HashFiles(files map[string][]byte, excludeFiles []string) string {
	m := skillignore.New(excludeFiles, files)
	sums := make(map[string][sha256.Size]byte, len(files))
	for p, data := range files {
		if !SkipsFile(p) && !m.Excludes(p) {
			sums[p] = sha256.Sum256(data)
		}
	}
	return FolderHash(sums)
}

// SkipsFile reports whether the file at the slash-separated path p, in a
// skill folder, is one that operating systems leave behind, which
// skillsync never reads nor hashes nor copies.
func SkipsFile(p string) bool {
	name := path.Base(p)
	switch strings.ToLower(name) {
	case ".ds_store", "thumbs.db", "desktop.ini", "ehthumbs.db":
		return true
	}
	return strings.HasPrefix(name, "._")
}

// StoredText is data, the content of the file name, as git stores it when
// a checkout wrote it with CRLF line endings (core.autocrlf, Git for
// Windows' default): each CRLF made LF, as the loader reads SKILL.md. A
// binary file (see [IsBinary]) is data as it is.
func StoredText(name string, data []byte) []byte {
	if !bytes.Contains(data, []byte("\r\n")) || IsBinary(name, data) {
		return data
	}
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
}

// folderHashOf is the [FolderHash] of the entries of a folder read by the
// loader. With stored, its text files are hashed as git stores them (see
// [StoredText]).
func folderHashOf(entries []entry, stored bool) string {
	sums := make(map[string][sha256.Size]byte, len(entries))
	for _, e := range entries {
		switch {
		case e.link:
			continue // find -type f does not list them
		case e.large:
			// sha256 is the hex digest readContent wrote, 64 digits.
			b, _ := hex.DecodeString(e.sha256)
			sums[e.rel] = [sha256.Size]byte(b)
		case stored:
			sums[e.rel] = sha256.Sum256(StoredText(e.rel, e.data))
		default:
			sums[e.rel] = sha256.Sum256(e.data)
		}
	}
	return FolderHash(sums)
}
