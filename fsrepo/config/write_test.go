package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWriteConfig(t *testing.T) {
	root := t.TempDir()
	if err := Write(root, Config{BaseURL: "http://127.0.0.1:8080", Space: "ab12"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.BaseURL, want.Space = "http://127.0.0.1:8080", "ab12"
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("read back %+v, want %+v", cfg, want)
	}
	data, _ := os.ReadFile(filepath.Join(root, FileName))
	// Editors find the schema from the first line.
	if first, _, _ := strings.Cut(string(data), "\n"); first != "# yaml-language-server: $schema="+SchemaURL {
		t.Errorf("first line %q, want the yaml-language-server schema line", first)
	}
	if strings.Contains(strings.ToLower(strings.ReplaceAll(string(data), "SKILLSYNC_TOKEN", "")), "token:") {
		t.Errorf("config holds a token key:\n%s", data)
	}
	if err := Write(root, Config{Space: "cd34"}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second Write = %v, want fs.ErrExist", err)
	}
	if data2, _ := os.ReadFile(filepath.Join(root, FileName)); string(data2) != string(data) {
		t.Error("existing config replaced")
	}

	// A symlink by that name, even dangling, is never written through.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere.yaml"), filepath.Join(dir, "repo", FileName)); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := Write(filepath.Join(dir, "repo"), Config{Space: "ab12"}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Write through a symlink = %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("wrote through the symlink")
	}
	if err := Write(t.TempDir(), Config{Space: "a/b"}); err == nil {
		t.Error("an invalid space was written")
	}
}
