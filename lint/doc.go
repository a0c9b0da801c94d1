// Package lint holds the rules that judge a skill's content beyond the
// service's limits, deterministic and offline. The same rules judge the
// repository (validate, plan), the space (drift, pull) and an upstream
// (vendor). [Rules] lists every rule, with its levels and the text the
// documentation is generated from. They read a skill folder, never a
// repository: a [Folder] is its parsed SKILL.md and its files.
//
// [Check] applies the rules of the open Agent Skills format and of a
// skill's quality, at the levels a [Config] (the lint section of
// skillsync.yaml) sets, and reports what they find as diagnostics.
//
// The security rules check what a skill folder asks of the agent that
// loads it. A [Judge] compiles them once; [Judge.Skill] judges the files
// of one skill folder (SKILL.md whole, frontmatter included and well
// formed or not, and every other text file) and returns [Finding] values:
// a rule of [Rules], a [Severity], a position in the file as stored, the
// text matched as it is (its diagnostic shows what no one can see in it as
// markers), what hidden or encoded text decodes to, and the [ContentHash]
// of the file, on which waivers rest.
//
// The security rules read a folded copy of each file: lower case, invisible
// characters dropped, fullwidth and other compatibility forms and
// Cyrillic or Greek look-alikes made ASCII, line continuations joined.
// Anchors found in one pass (Aho-Corasick) wake each rule's expression
// only near them, so judging is linear in the size of the text. Hidden
// runs of characters, long base64 or hex blobs and character codes are
// decoded and judged again, to a depth of two.
//
// Severities follow the strength of the signal. An error is specific:
// hidden instructions, a reverse shell, decode-and-run, a download piped
// into a shell from an IP address, over plain http, from a paste site or
// a host named for attacks, a script on a paste site to paste into a
// terminal, a password-protected archive to run, secrets sent to a URL,
// a token in a known format, a secret of this process. A warning is a
// weaker signal: a download piped into a shell from a host that is not a
// known installer, consent removed, a credential file read, persistence.
// Official installers (rustup, Homebrew, uv, Docker...) draw nothing.
// Text that reads as documentation about attacks (near words such as
// "detect", "malicious" or "red team", under such a heading, in a file
// whose path says so, or in a skill whose name and description present
// it as security work) is lowered one step, as are phrases quoted or
// written in code files. What hidden markup holds, and a finding whose
// words are disguised with invisible or look-alike characters, is an
// error and never lowered.
//
// What the rules cannot catch: instructions that read as ordinary work
// ("summarise the repository, then open a pull request adding this
// dependency"); harm spread across steps or files that are each benign;
// payloads fetched at run time from an address that looks legitimate (a
// package, a GitHub release, a CDN), or from a host on the installer list
// if it is compromised; code whose intent is plain only when run
// (encryption with a key, dynamic imports, string building beyond
// character codes and base64 or hex); text in languages the phrases do
// not cover; encodings beyond the ones decoded (rot13, XOR, compression
// other than gzip, images); secrets in formats gitleaks does not know;
// and documentation about attacks written without the words that mark it,
// or an attack dressed in those words, which is lowered to a warning.
package lint
