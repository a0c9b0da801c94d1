// Tests that hold .goreleaser.yaml and what downloads its output together:
// the archive names action.yml asks for, and the image tags the GitLab
// example runs.
package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"go.yaml.in/yaml/v4"
)

type goreleaserConfig struct {
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		Main    string   `yaml:"main"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		NameTemplate    string   `yaml:"name_template"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
	DockersV2 []struct {
		ID        string            `yaml:"id"`
		Images    []string          `yaml:"images"`
		Tags      []string          `yaml:"tags"`
		BuildArgs map[string]string `yaml:"build_args"`
	} `yaml:"dockers_v2"`
}

func readGoreleaser(t testing.TB) goreleaserConfig {
	t.Helper()
	data, err := os.ReadFile("../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaserConfig
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Builds) != 1 || len(c.Archives) != 1 {
		t.Fatalf("%d builds and %d archives, want one of each", len(c.Builds), len(c.Archives))
	}
	return c
}

// render renders a goreleaser template with the fields it is given.
func render(t testing.TB, tmpl string, fields map[string]any) string {
	t.Helper()
	tp, err := template.New("").Option("missingkey=error").Parse(tmpl)
	if err != nil {
		t.Fatalf("template %q: %v", tmpl, err)
	}
	var b strings.Builder
	if err := tp.Execute(&b, fields); err != nil {
		t.Fatalf("template %q: %v", tmpl, err)
	}
	return b.String()
}

// TestReleaseArchivesAreWhatTheActionDownloads: for every platform the
// release builds, the action asks for the archive goreleaser names, and
// for the checksums file it writes.
func TestReleaseArchivesAreWhatTheActionDownloads(t *testing.T) {
	c := readGoreleaser(t)
	b, ar := c.Builds[0], c.Archives[0]
	if b.Main != "./cmd/skillsync" {
		t.Errorf("builds main %q, want ./cmd/skillsync", b.Main)
	}
	// skillsync version prints what the build stamps (cmd/skillsync:
	// main.version), as after go install ...@v1.2.3.
	if !slices.ContainsFunc(b.Ldflags, func(f string) bool { return strings.Contains(f, "-X main.version=v{{ .Version }}") }) {
		t.Errorf("ldflags %q do not stamp main.version=v{{ .Version }}", b.Ldflags)
	}

	a := readAction(t)
	i := slices.IndexFunc(a.Runs.Steps, func(s step) bool { return s.ID == "get" })
	if i < 0 {
		t.Fatal(`action.yml has no step with id "get"`)
	}
	runnerOS := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}
	runnerArch := map[string]string{"amd64": "X64", "arm64": "ARM64"}
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			format := ar.Formats
			for _, o := range ar.FormatOverrides {
				if o.Goos == goos {
					format = o.Formats
				}
			}
			if len(format) != 1 {
				t.Fatalf("%s/%s: archive formats %q, want one", goos, goarch, format)
			}
			want := render(t, ar.NameTemplate, map[string]any{"ProjectName": c.ProjectName, "Version": "1.2.3", "Os": goos, "Arch": goarch}) + "." + format[0]

			temp := t.TempDir()
			script := filepath.Join(temp, "get.sh")
			if err := os.WriteFile(script, []byte(a.Runs.Steps[i].Run), 0o644); err != nil {
				t.Fatal(err)
			}
			output := filepath.Join(temp, "output")
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GITHUB_OUTPUT=" + output, "ACTION_REF=v1.2.3", "ACTION_REPOSITORY=skillsync/skillsync",
				"RUNNER_OS=" + runnerOS[goos], "RUNNER_ARCH=" + runnerArch[goarch]}
			if log, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			data, _ := os.ReadFile(output)
			got := string(data)
			base := "https://github.com/skillsync/skillsync/releases/download/v1.2.3/"
			if !strings.Contains(got, "method=download\n") || !strings.Contains(got, "url="+base+want+"\n") ||
				!strings.Contains(got, "checksums-url="+base+c.Checksum.NameTemplate+"\n") {
				t.Errorf("%s/%s: the action's outputs\n%s\nwant method=download, url=%s and checksums-url=%s", goos, goarch, got, base+want, base+c.Checksum.NameTemplate)
			}
		}
	}
}

// TestReleaseImagesAreWhatGitLabRuns: the tags the GitLab example names,
// ${SKILLSYNC_VERSION}-debug with a version or a major version, are tags
// of the image with a shell; the plain image has none and is distroless
// non-root.
func TestReleaseImagesAreWhatGitLabRuns(t *testing.T) {
	c := readGoreleaser(t)
	tags := map[string][]string{}
	for _, d := range c.DockersV2 {
		if !slices.Equal(d.Images, []string{"ghcr.io/skillsync/skillsync"}) {
			t.Errorf("dockers_v2 %s: images %q", d.ID, d.Images)
		}
		for _, tag := range d.Tags {
			if s := render(t, tag, map[string]any{"Version": "1.2.3", "Major": 1, "Prerelease": ""}); s != "" {
				tags[d.BuildArgs["BASE"]] = append(tags[d.BuildArgs["BASE"]], s)
			}
		}
	}
	debug := tags["gcr.io/distroless/static-debian12:debug-nonroot"]
	for _, want := range []string{"v1.2.3-debug", "v1-debug"} {
		if !slices.Contains(debug, want) {
			t.Errorf("the image with a shell is tagged %q, without %q", debug, want)
		}
	}
	plain := tags["gcr.io/distroless/static-debian12:nonroot"]
	for _, want := range []string{"v1.2.3", "v1", "latest"} {
		if !slices.Contains(plain, want) {
			t.Errorf("the distroless image is tagged %q, without %q", plain, want)
		}
	}
	// A pre-release moves neither v1 nor latest.
	for _, d := range c.DockersV2 {
		for _, tag := range d.Tags {
			if s := render(t, tag, map[string]any{"Version": "1.3.0-rc.1", "Major": 1, "Prerelease": "rc.1"}); s != "" && !strings.HasPrefix(s, "v1.3.0-rc.1") {
				t.Errorf("dockers_v2 %s: pre-release v1.3.0-rc.1 is tagged %q", d.ID, s)
			}
		}
	}
}
