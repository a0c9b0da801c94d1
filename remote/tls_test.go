package remote

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoCodeTurnsOffTLSVerification greps every Go file of the module but
// tests for the fields that would turn certificate checks off: no flag, no
// setting and no environment variable may ever do it.
func TestNoCodeTurnsOffTLSVerification(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module root at %s: %v", root, err)
	}
	forbidden := []string{"InsecureSkipVerify", "VerifyPeerCertificate", "VerifyConnection"}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, f := range forbidden {
			if bytes.Contains(data, []byte(f)) {
				t.Errorf("%s mentions %s: TLS verification must never be turned off or replaced", path, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d Go files checked: is the module root right?", checked)
	}
}
