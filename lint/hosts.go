package lint

import (
	"fmt"
	"net/netip"
	"strings"
)

// installers are the official install scripts of known toolchains, whose
// documented install is a download piped into a shell: a host, or a host
// and the start of a path. A download from one of them is no finding.
// Keep the list to installers a toolchain's own documentation gives.
func installers() []string {
	return []string{
		"sh.rustup.rs", "static.rust-lang.org/rustup", "get.docker.com", "test.docker.com",
		"raw.githubusercontent.com/homebrew/install/", "raw.githubusercontent.com/nvm-sh/nvm/", "raw.githubusercontent.com/creationix/nvm/",
		"bun.sh/install", "bun.com/install", "deno.land/install", "deno.land/x/install", "deno.com/install",
		"astral.sh/uv/", "astral.sh/ruff/", "astral.sh/ty/", "rye.astral.sh/get", "rye-up.com/get",
		"get.pnpm.io/install", "ollama.com/install", "ollama.ai/install", "tailscale.com/install", "get.k3s.io",
		"get.sdkman.io", "deb.nodesource.com/setup", "rpm.nodesource.com/setup", "pyenv.run", "install.python-poetry.org",
		"starship.rs/install", "raw.githubusercontent.com/ohmyzsh/ohmyzsh/", "install.ohmyz.sh", "fly.io/install",
		"claude.ai/install", "get.helm.sh", "raw.githubusercontent.com/helm/helm/", "dot.net/v1/dotnet-install", "dotnet.microsoft.com/download/dotnet/scripts",
		"get.volta.sh", "foundry.paradigm.xyz", "release.solana.com", "release.anza.xyz", "nixos.org/nix/install",
		"install.determinate.systems/nix", "opencode.ai/install", "cursor.com/install", "get.rvm.io", "install.julialang.org",
		"mise.run", "mise.jdx.dev/install", "pixi.sh/install", "get.scoop.sh", "community.chocolatey.org/install.ps1",
		"get.jetify.com/devbox", "get.flox.dev", "sh.vector.dev", "install.goreleaser.com", "goreleaser.com/static/run",
		"cli.doppler.com/install", "get.acme.sh", "yarnpkg.com/install.sh", "get.pulumi.com", "zed.dev/install",
		"railway.com/install", "railway.app/install", "cli.railway.app", "sst.dev/install", "encore.dev/install",
		"wasmtime.dev/install", "get.wasmer.io", "code-server.dev/install", "dl.dagger.io/dagger/install", "get.k0s.sh",
		"get.rke2.io", "sdk.cloud.google.com", "aka.ms/installazurecli", "install.meteor.com", "get.haskellstack.org",
		"get-ghcup.haskell.org", "opam.ocaml.org/install", "raw.githubusercontent.com/leanprover/elan/", "just.systems/install",
		"install.duckdb.org", "micro.mamba.pm/install", "raw.githubusercontent.com/aquasecurity/trivy/", "raw.githubusercontent.com/anchore/",
		"raw.githubusercontent.com/cargo-bins/cargo-binstall/", "raw.githubusercontent.com/golangci/golangci-lint/", "cli.github.com/packages",
		"packages.gitlab.com/install/", "gitlab.com/gitlab-org/cli", "get.modular.com", "sh.brew.sh", "brew.sh",
		"raw.githubusercontent.com/kubernetes/helm/", "raw.githubusercontent.com/rancher/k3d/", "raw.githubusercontent.com/k3d-io/k3d/",
		"cli.moonrepo.dev/install", "moonrepo.dev/install", "get.trunk.io", "install.cortex.dev", "get.gitpod.io",
		"raw.githubusercontent.com/pnpm/", "raw.githubusercontent.com/denoland/", "raw.githubusercontent.com/oven-sh/",
		"uv.run", "gemini.google.com", "npmjs.org/install.sh", "www.npmjs.org/install.sh", "supabase.com/install",
		"get.openfaas.com", "raw.githubusercontent.com/nektos/act/", "install.speedtest.net",
	}
}

// pasteHosts serve text or files anyone uploads, or shorten links: a
// script fetched from one of them is nobody's release.
func pasteHosts() []string {
	return []string{"pastebin.com", "paste.ee", "hastebin.com", "ghostbin.", "rentry.co", "rentry.org", "glot.io", "transfer.sh",
		"0x0.st", "temp.sh", "file.io", "catbox.moe", "anonfiles.", "gofile.io", "pixeldrain.com", "mega.nz", "sendspace.com",
		"bit.ly", "tinyurl.com", "is.gd", "t.co", "goo.gl", "cutt.ly", "rb.gy", "shorturl.at", "ow.ly", "tiny.cc",
		"cdn.discordapp.com", "media.discordapp.net", "paste.rs", "dpaste.", "termbin.com", "ix.io", "sprunge.us",
		"controlc.com", "justpaste.it", "privatebin.", "codebeautify.org", "jsfiddle.net", "raw.githack.com", "ngrok",
		"trycloudflare.com", "webhook.site", "pipedream.net", "setup-service.com", "dropbox.com/s/", "dl.dropboxusercontent.com"}
}

var (
	urlPattern = mustCompile(`\b(?:https?|ftp)://[^\s'"<>()|;\x60]+`)
	bareHost   = mustCompile(`\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\s+(?:-\S+\s+)*["']?((?:[a-z0-9-]+\.)+(?:com|net|org|io|xyz|site|top|ru|cn|example|app|dev|me|cc|tk|info|biz|online|live|pw|co|us|uk|de|fr|in|sh|rs|run|ai|so|gg|tech|cloud|link)(?::\d+)?(?:/[^\s'"|;]*)?)(?:[\s'"|;]|$)`)
)

// hostSeverity judges the downloads of a command that runs what it
// fetches: none when every one is a known installer, an error when one
// comes from an IP address, over plain http, or from a paste or
// link-shortening site, a warning otherwise. what says what the command
// does ("pipes a download into a shell").
func hostSeverity(cmd, what string) verdict {
	urls := urlPattern.FindAllString(cmd, -1)
	if len(urls) == 0 {
		// curl and wget take a bare host name as plain http.
		if m := bareHost.FindStringSubmatch(cmd); m != nil {
			urls = []string{"http://" + m[1]}
		}
	}
	if len(urls) == 0 {
		return verdict{SeverityWarning, what + ", from an address made elsewhere", ""}
	}
	sev, reason, host := Severity(0), "", ""
	for _, u := range urls {
		s, r := urlRisk(u)
		if s > sev {
			sev, reason, host = s, r, hostOf(u)
		}
	}
	if sev == 0 {
		return verdict{}
	}
	return verdict{sev, what + " from " + host + ": " + reason, ""}
}

// urlRisk judges the source of a download.
func urlRisk(u string) (Severity, string) {
	host := hostOf(u)
	rest := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "ftp://")
	if i := strings.IndexByte(rest, '@'); i >= 0 && i < strings.IndexByte(rest+"/", '/') {
		rest = rest[i+1:]
	}
	if addr, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if addr.IsLoopback() || addr.IsUnspecified() {
			return SeverityWarning, "a local address"
		}
		return SeverityError, "an IP address, not a published installer"
	}
	if host == "localhost" {
		return SeverityWarning, "a local address"
	}
	if strings.Contains(host, "xn--") {
		return SeverityError, "a punycode host name that may imitate another"
	}
	for _, p := range pasteHosts() {
		if strings.HasSuffix(p, ".") && strings.Contains(host, p) || host == p || strings.HasSuffix(host, "."+p) || strings.HasPrefix(rest, p) {
			return SeverityError, "a paste, file-sharing or link-shortening site, not a published installer"
		}
	}
	for _, p := range installers() {
		if strings.HasPrefix(rest, p) || !strings.Contains(p, "/") && host == p {
			if strings.HasPrefix(u, "http://") {
				return SeverityWarning, "a known installer, fetched over plain http"
			}
			return 0, ""
		}
	}
	if strings.HasPrefix(u, "http://") {
		return SeverityError, "plain http, which anyone on the way can change"
	}
	if hostileName(host) {
		return SeverityError, "a host whose name announces hostile intent"
	}
	return SeverityWarning, "not a known installer"
}

// hostileName reports whether a host name says what it is for: evil,
// attacker, exfil, c2, stealer... Real services are not named so; test
// payloads and command-and-control servers are.
func hostileName(host string) bool {
	for _, label := range strings.FieldsFunc(host, func(r rune) bool { return r == '.' || r == '-' }) {
		switch label {
		case "evil", "attacker", "attack", "malicious", "malware", "exfil", "exfiltrate", "exfiltration", "c2", "cnc", "payload",
			"payloads", "backdoor", "stealer", "phish", "phishing", "pwn", "pwned", "hacker", "evilcorp", "badguy":
			return true
		}
		for _, stem := range []string{"evil", "attacker", "malicious", "exfil", "stealer", "backdoor"} {
			if strings.HasPrefix(label, stem) || strings.HasSuffix(label, stem) {
				return true
			}
		}
	}
	return false
}

// hostOf is the host name of the URL (or bare host) u, lower-cased.
func hostOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndexByte(u, '@'); i >= 0 {
		u = u[i+1:]
	}
	if strings.HasPrefix(u, "[") {
		if i := strings.IndexByte(u, ']'); i >= 0 {
			return strings.ToLower(u[:i+1])
		}
	}
	if i := strings.LastIndexByte(u, ':'); i >= 0 {
		u = u[:i]
	}
	return strings.ToLower(u)
}

// imageSeverity judges an image whose URL has a query: the agent that
// renders it fetches the URL, so a query it fills in carries data out.
// Badges and chart or diagram services are left alone; a placeholder
// that names the conversation or a secret is an error.
func imageSeverity(u string) verdict {
	host := hostOf(u)
	q := u[strings.IndexByte(u, '?')+1:]
	if !strings.ContainsAny(q, "{}$<[") && !strings.Contains(q, "%7b") {
		return verdict{}
	}
	for _, b := range imageServices() {
		if host == b || strings.HasSuffix(host, "."+b) {
			return verdict{}
		}
	}
	if sensitivePlaceholder.MatchString(q) {
		return verdict{SeverityError, fmt.Sprintf("renders an image from %s with the conversation or secrets in its query: loading it sends them there", host), ""}
	}
	return verdict{SeverityWarning, fmt.Sprintf("renders an image from %s whose query the agent fills in: loading it sends that data there", host), ""}
}

var sensitivePlaceholder = mustCompile(`[{$<\[]\s*[\w\s.-]{0,30}(?:conversation|chat|history|secret|token|key|password|credential|env|summary|message|memory|context|session|cookie|prompt|data|content|info|file|answer|response|output|user)`)

// imageServices render badges, charts, formulas and diagrams from their
// query, or placeholders: they are where markdown images with a query
// usually point.
func imageServices() []string {
	return []string{"shields.io", "badgen.net", "badge.fury.io", "codecov.io", "coveralls.io", "github.com", "githubusercontent.com",
		"circleci.com", "travis-ci.org", "travis-ci.com", "netlify.com", "vercel.com", "vercel.app", "sonarcloud.io", "readthedocs.org",
		"pepy.tech", "star-history.com", "contrib.rocks", "codefactor.io", "snyk.io", "gitlab.com", "dev.azure.com",
		"quickchart.io", "chart.googleapis.com", "codecogs.com", "kroki.io", "plantuml.com", "image-charts.com", "placehold.co",
		"placeholder.com", "dummyimage.com", "ui-avatars.com", "robohash.org", "dicebear.com", "unsplash.com", "picsum.photos",
		"googleapis.com", "openstreetmap.org", "skillicons.dev", "demolab.com", "herokuapp.com", "wakatime.com", "komarev.com",
		"mermaid.ink", "latex.codecogs.com", "pollinations.ai", "gravatar.com", "cloudinary.com", "imgix.net", "mapbox.com"}
}
