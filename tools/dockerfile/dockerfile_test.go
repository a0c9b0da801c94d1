// Package dockerfile lints the repository's Dockerfile with BuildKit's own
// checks (those of `docker build --check`) and holds it to what the release
// image promises. No docker engine is needed, nor the network: the base
// image is never fetched.
//
// A module of its own, apart from tools/: BuildKit's requirements would
// move those of goreleaser and actionlint.
package dockerfile

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/moby/buildkit/client/llb"
	"github.com/moby/buildkit/client/llb/sourceresolver"
	"github.com/moby/buildkit/frontend/dockerfile/dockerfile2llb"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	digest "github.com/opencontainers/go-digest"
)

// noRegistry answers for any base image with an empty config, so that the
// lint runs offline.
type noRegistry struct{}

func (noRegistry) ResolveImageConfig(ctx context.Context, ref string, opt sourceresolver.Opt) (string, digest.Digest, []byte, error) {
	return ref, "", []byte(`{"architecture":"amd64","os":"linux","config":{}}`), nil
}

func readDockerfile(t *testing.T) []byte {
	t.Helper()
	dt, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	return dt
}

// TestDockerfileLint fails on any warning of BuildKit's checks, for each
// base the release builds on.
func TestDockerfileLint(t *testing.T) {
	dt := readDockerfile(t)
	for _, base := range []string{"", "gcr.io/distroless/static-debian12:debug-nonroot"} {
		sm := llb.NewSourceMap(nil, "Dockerfile", "Dockerfile", dt)
		sm.Definition = &llb.Definition{}
		opt := dockerfile2llb.ConvertOpt{SourceMap: sm, MetaResolver: noRegistry{}}
		opt.BuildArgs = map[string]string{"TARGETPLATFORM": "linux/amd64", "VERSION": "v1.2.3"}
		if base != "" {
			opt.BuildArgs["BASE"] = base
		}
		res, err := dockerfile2llb.DockerfileLint(context.Background(), dt, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			line := 0
			if len(w.Location.Ranges) > 0 {
				line = int(w.Location.Ranges[0].Start.Line)
			}
			t.Errorf("Dockerfile:%d: %s: %s (%s)", line, w.RuleName, w.Detail, w.URL)
		}
		if res.Error != nil {
			t.Errorf("Dockerfile (BASE=%q): %s", base, res.Error.Message)
		}
	}
}

// TestDockerfileImage: the image is distroless static (CA certificates,
// no shell), runs as a non-root user given by number, says its version in
// the OCI label, and runs skillsync.
func TestDockerfileImage(t *testing.T) {
	res, err := parser.Parse(strings.NewReader(string(readDockerfile(t))))
	if err != nil {
		t.Fatal(err)
	}
	stages, metaArgs, err := instructions.Parse(res.AST, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != 1 {
		t.Fatalf("%d stages, want 1", len(stages))
	}
	var base string
	for _, a := range metaArgs {
		for _, kv := range a.Args {
			if kv.Key == "BASE" && kv.Value != nil {
				base = *kv.Value
			}
		}
	}
	if stages[0].BaseName != "${BASE}" || base != "gcr.io/distroless/static-debian12:nonroot" {
		t.Errorf("FROM %s with BASE=%q, want FROM ${BASE} with BASE=gcr.io/distroless/static-debian12:nonroot", stages[0].BaseName, base)
	}
	var user, label, entrypoint string
	for _, c := range stages[0].Commands {
		switch c := c.(type) {
		case *instructions.UserCommand:
			user = c.User
		case *instructions.LabelCommand:
			for _, kv := range c.Labels {
				if kv.Key == "org.opencontainers.image.version" {
					label = kv.Value
				}
			}
		case *instructions.EntrypointCommand:
			if !c.PrependShell {
				entrypoint = strings.Join(c.CmdLine, " ")
			}
		}
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") || strings.Trim(user, "0123456789:") != "" {
		t.Errorf("USER %q, want a non-root user by number (65532:65532, distroless's nonroot)", user)
	}
	if strings.Trim(label, `"`) != "${VERSION}" {
		t.Errorf("LABEL org.opencontainers.image.version=%q, want ${VERSION}", label)
	}
	if entrypoint != "/usr/local/bin/skillsync" {
		t.Errorf("ENTRYPOINT %q (exec form), want /usr/local/bin/skillsync", entrypoint)
	}
}
