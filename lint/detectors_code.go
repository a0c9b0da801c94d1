package lint

import (
	"bytes"
	"fmt"
)

func exfiltrationDetectors() []detector {
	secretAnchors := append(credentialAnchors(), ".env |", ".env|")
	environAssigned := mustCompile(`=\s*(?:dict\(\s*|json\.dumps\(\s*(?:dict\(\s*)?|str\(\s*)?$`)
	// catchers collect whatever is sent to them, made for testing
	// webhooks and out-of-band exploits; tunnels publish a machine's port
	// under a throw-away name.
	catchers := []string{"webhook.site", "requestbin.", "pipedream.net", "requestcatcher.com", "hookbin.com", "beeceptor.com",
		"interact.sh", "interactsh.com", "oast.pro", "oast.live", "oast.site", "oast.online", "oast.fun", "oast.me", "oastify.com",
		"burpcollaborator.net", "canarytokens.com", "dnslog.cn", "ceye.io", "requestrepo.com", "postb.in", "ptsv2.com", "ptsv3.com",
		"webhook.cool", "mockbin.org", "mockbin.io", "xss.ht", "bxss.me", "requestinspector.com", "hookdeck.com/e/"}
	tunnels := []string{"ngrok.io", "ngrok-free.app", "ngrok.app", "ngrok-free.dev", "trycloudflare.com", "serveo.net", "loca.lt",
		"localtunnel.me", "localhost.run", "pinggy.io", "bore.pub", "lhr.life"}
	sink := `(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|rsync|ftp|sftp|openssl\s+s_client|invoke-webrequest|invoke-restmethod|iwr|irm|mail|sendmail)\b`
	return []detector{{
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends a credential file over the network",
		anchors: []string{"curl", "wget", "invoke-webrequest", "invoke-restmethod", "iwr", "irm", "nc ", "ncat", "netcat"},
		re: mustCompile(`\b(?:curl|wget|invoke-webrequest|invoke-restmethod|iwr|irm)\b[^\n]{0,300}?(?:\s-d|\s--data(?:-binary|-raw|-urlencode|-ascii)?|\s-f|\s--form|\s-t|\s--upload-file|\s--post-file|\s--body-file|\s-infile|\s-body|\s@)[\s=]*['"]?(?:[\w-]+=)?@?[^\s'"]{0,80}?` + secretOrEnv +
			`|\b(?:curl|wget|nc|ncat|netcat|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n]{0,300}?\$\(\s*(?:cat|base64|gzip|tar|type|get-content)\b[^)\n]{0,120}?` + secretOrEnv),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends a credential file over the network",
		anchors: secretAnchors,
		prefix:  `\b(?:cat|base64|gzip|tar|zip|xxd|gpg|head|tail|type|get-content|gc|openssl)\b[^|\n;]{0,200}?`,
		re:      mustCompile(secretOrEnv + `[^|\n]{0,200}\|\s*(?:\S+\s+){0,6}?` + sink),
		after:   320,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "copies a credential file to another machine",
		anchors: secretAnchors,
		prefix:  `\b(?:scp|rsync)\b[^\n]{0,120}?`,
		re:      mustCompile(secretOrEnv + `[^\n]{0,120}?\s[\w.-]+@[\w.-]+:`),
		after:   240,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"env |", "env|", "printenv", "export -p", "set |", "get-childitem env:", "gci env:", "dir env:", "ls env:", "curl", "wget", "nc ", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"},
		re: mustCompile(`\b(?:env|printenv|export\s+-p|set|get-childitem\s+env:|gci\s+env:|dir\s+env:|ls\s+env:)\s*\|\s*(?:\S+\s+){0,6}?` + sink +
			`|\b(?:curl|wget|nc|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n]{0,300}?(?:\$\(\s*(?:env|printenv|export\s+-p)\s*[|)]|\x60\s*(?:env|printenv)\s*[|\x60]|\$env:\*|\(get-childitem\s+env:)`),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"os.environ"},
		prefix:  `(?:requests|httpx|session|client|urllib3?|aiohttp|http|urlopen|request)\S{0,30}\.?(?:post|put|patch|request|urlopen|fetch|send)\s*\([^\n]{0,300}?(?:dict\(\s*|\*\*)?`,
		re:      mustCompile(`os\.environ(?:\.copy\(\)|\.items\(\))?\s*\)?\s*[,)}]`),
		after:   40,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"json.stringify(process.env", "json.stringify( process.env"},
		re:      mustCompile(`json\.stringify\(\s*process\.env\s*\)[\s\S]{0,400}?(?:fetch|axios|\.post|http\.request|https\.request|xmlhttprequest|sendbeacon)`),
		after:   480,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"json.stringify(process.env", "json.stringify( process.env"},
		prefix:  `(?:fetch|axios\.post|\.post|sendbeacon)\s*\([^\n]{0,300}?`,
		re:      mustCompile(`json\.stringify\(\s*process\.env\s*\)`),
		after:   60,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"os.environ"},
		re:      mustCompile(`os\.environ(?:\.copy\(\))?\s*\)*\s*\n(?:[^\n]*\n){0,15}?[^\n]*\b(?:requests|httpx|urllib|urlopen|session|aiohttp)\S{0,30}\.(?:post|put|urlopen|request)\b`),
		refine: func(s *scan, m []int) verdict {
			// The whole environment, assigned to a name: "data = dict(os.environ)".
			line := s.fold[bytes.LastIndexByte(s.fold[:m[0]], '\n')+1 : m[0]]
			if !environAssigned.Match(line) {
				return verdict{}
			}
			return verdict{SeverityError, "sends the environment, where tokens live, over the network", ""}
		},
		after: 1600,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "reads a credential file and sends it over the network",
		anchors: []string{"open(", "readfile", "read_text(", "read_bytes(", "get-content", "fs.read"},
		re: mustCompile(`(?:open\(|readfile(?:sync)?\(|read_text\(|read_bytes\(|get-content\s|fs\.read\w*\()[^\n]{0,160}?` + secretOrEnv +
			`[\s\S]{0,600}?(?:(?:requests|httpx|urllib|aiohttp|session)\S{0,30}\.(?:post|put|urlopen|request)\b|(?:fetch|axios\.post|invoke-webrequest|invoke-restmethod|\.uploadfile|\.uploadstring)\s*\(?)`),
		after: 900,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		anchors: catchers,
		re:      mustCompile(`(?:webhook\.site|requestbin\.(?:com|net|io)|pipedream\.net|requestcatcher\.com|hookbin\.com|beeceptor\.com|interact\.sh|interactsh\.com|oast\.(?:pro|live|site|online|fun|me)|oastify\.com|burpcollaborator\.net|canarytokens\.com|dnslog\.cn|ceye\.io|requestrepo\.com|postb\.in|ptsv[23]\.com|webhook\.cool|mockbin\.(?:org|io)|xss\.ht|bxss\.me|requestinspector\.com|hookdeck\.com/e/)\S*`),
		refine: func(s *scan, m []int) verdict {
			return verdict{SeverityError, fmt.Sprintf("sends data to %s, a service that collects whatever reaches it", hostOf(s.group(m, 0))), ""}
		},
	}, {
		rule: RuleExfiltration, sev: SeverityWarning,
		anchors: tunnels,
		re:      mustCompile(`(?:ngrok\.io|ngrok-free\.app|ngrok\.app|ngrok-free\.dev|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me|localhost\.run|pinggy\.io|bore\.pub|lhr\.life)\S*`),
		refine: func(s *scan, m []int) verdict {
			if m[0] == 0 || s.fold[m[0]-1] != '.' {
				return verdict{} // the tunnel service's own site
			}
			return verdict{SeverityWarning, fmt.Sprintf("talks to %s, a throw-away tunnel to someone's machine", hostOf(s.group(m, 0))), ""}
		},
	}, {
		rule: RuleExfiltration, sev: SeverityWarning,
		msg:     "posts to a chat webhook whose address is written in the skill",
		anchors: []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/", "hooks.slack.com/services/t"},
		re:      mustCompile(`discord(?:app)?\.com/api/webhooks/\d{6,}/[\w-]{20,}|hooks\.slack\.com/services/t[a-z0-9]{6,}/b[a-z0-9]{6,}/[a-z0-9]{16,}`),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		anchors: []string{"![", "<img"},
		re:      mustCompile(`!\[[^\]\n]{0,200}\]\(\s*<?(https?://[^\s)>]+\?[^\s)>]*)|<img\b[^>]{0,200}\bsrc\s*=\s*["']?(https?://[^\s"'>]+\?[^\s"'>]*)`),
		refine: func(s *scan, m []int) verdict {
			u := s.group(m, 1)
			if u == "" {
				u = s.group(m, 2)
			}
			return imageSeverity(u)
		},
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "looks up a host name made of command output, which carries it out by DNS",
		anchors: []string{"nslookup", "dig", "host", "drill", "ping", "resolve-dnsname"},
		re:      mustCompile(`\b(?:nslookup|dig|host|drill|ping|resolve-dnsname)\s+(?:-\S+\s+)*["']?[\w.-]*(?:\$\([^)\n]{1,120}\)|\$\{\w+\}|\$\w+)[\w.$(){}-]*\.[a-z0-9-]+\.[a-z]{2,}\b`),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg: "tells the agent to send credentials to an outside address", prose: true,
		need:    []string{"secret", "credential", "key", "token", "password", "passphrase", "env", "cookie", "wallet", "seed", "mnemonic", "recovery", "keychain"},
		anchors: []string{"send", "post", "upload", "transmit", "exfiltrate", "forward", "email", "e-mail", "mail", "submit", "leak", "beacon", "report", "copy", "sync", "share", "relay", "include", "append", "attach"},
		re: ph(`\b(?:send|post|upload|transmit|exfiltrate|forward|e-?mail|mail|submit|leak|beacon|report|copy|sync|share|relay|include|append|attach)_(?:(?:all|every|any|the|a|your|their|users?'?s?|current|full|entire|complete|local|of|and|its|this|these|copies|contents?|list|found|saved|stored|collected|harvested|discovered|available)_){0,5}` +
			secretNoun + `\b[^.\n]{0,80}?_(?:to|at|via|into|in)_(?:https?://|[\w.+-]+@[a-z0-9-]+\.|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|(?:my|our|this|an?_external|a_remote|the_attacker'?s?|the_following)_(?:webhook|collector|endpoint|url|inbox))`),
		after: 260,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg: "tells the agent to send a credential file to an outside address", prose: true,
		need:    []string{".ssh", ".aws", ".env", "credentials", "id_rsa", "id_ed25519", "wallet", "keychain", ".npmrc", ".netrc", ".kube", "history", "login data"},
		anchors: []string{"send", "post", "upload", "transmit", "exfiltrate", "forward", "email", "e-mail", "mail", "submit", "leak", "beacon", "copy", "sync", "share", "relay", "attach"},
		re: ph(`\b(?:send|post|upload|transmit|exfiltrate|forward|e-?mail|mail|submit|leak|beacon|copy|sync|share|relay|attach)\b[^.\n]{0,60}?` + secretOrEnv +
			`[^.\n]{0,40}?_(?:to|at|via|into)_(?:https?://|[\w.+-]+@[a-z0-9-]+\.|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})`),
		after: 260}, {
		rule: RuleExfiltration, sev: SeverityWarning,
		msg: "tells the agent to send the conversation or files to an outside address", prose: true,
		need:    []string{"conversation", "chat", "message", "memory", "context", "file", "document", "source", "codebase", "history", "prompt", "personal"},
		anchors: []string{"send", "post", "upload", "transmit", "exfiltrate", "forward", "email", "e-mail", "mail", "submit", "leak", "beacon", "sync", "share", "relay", "append"},
		re: ph(`\b(?:send|post|upload|transmit|exfiltrate|forward|e-?mail|mail|submit|leak|beacon|sync|share|relay|append)_(?:(?:all|every|any|the|a|your|their|users?'?s?|current|full|entire|complete|local|of|and|its|this|these|copies|contents?|list|private|personal)_){0,5}` +
			`(?:conversations?|chat_(?:history|logs?|transcripts?)|messages|memory|context|files|documents|source_code|codebase|history|prompts?|system_prompt|personal_(?:data|information))\b[^.\n]{0,60}?_(?:to|at|via)_(?:https?://|[\w.+-]+@[a-z0-9-]+\.|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})`),
	}}
}

func remoteCodeDetectors() []detector {
	// toRun finds words that have someone run what a link holds, in
	// English and Chinese (as the campaigns wrote them).
	toRun := mustCompile(`terminal|\bpaste\s+(?:it\s+|this\s+|the\s+\w+\s+)?in(?:to)?\b|\brun\b|execute|\bshell\b|终端|粘贴到|运行|执行`)
	// pass is a password given in the text: "password: x", "pass=x",
	// "password is x", "the password `x`".
	pass := `(?:\s*(?:is\s+|:|=)\s*[\x60'"*]*|\s+[\x60'"*]+)[\w!@#$%^&*.-]{3,}`
	runAfterUnpack := mustCompile(`\.exe\b|\.app\b|\.dmg\b|\.pkg\b|\.msi\b|\.bat\b|\.scr\b|\b(?:run|execute|launch|open|start|double-click)\s+(?:the\s+|it|this\s+)?(?:\w+\s+)?(?:executable|installer|binary|program|file|application|app|setup)|releases/download/`)
	byHost := func(what string) func(s *scan, m []int) verdict {
		return func(s *scan, m []int) verdict {
			return hostSeverity(s.group(m, 0), what)
		}
	}
	return []detector{{
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"curl", "wget", "aria2c", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"},
		re:      mustCompile(`\b(?:curl|wget|aria2c|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,400}?\|\s*` + shell + `\b(?:\s+-\s*$|\s+-s\b|\s*$|\s*[;&)'"]|\s+-[a-z]|\s+--?\s)?`),
		refine:  byHost("pipes a download into a shell"),
		after:   560,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		window: true, anchors: []string{"<(curl", "<( curl", "<(wget", "<( wget", "$(curl", "$( curl", "$(wget", "$( wget", "`curl", "` curl", "`wget"},
		re: mustCompile(`\b(?:bash|sh|zsh|dash|ksh|source|python[\d.]*|perl|ruby|node)\s+(?:-\S+\s+)*<\(\s*` + fetcher + `\b[^\n)]{0,300}` +
			`|\b(?:bash|sh|zsh|dash|ksh)\s+-c\s+["']?(?:\$\(|\x60)\s*` + fetcher + `\b[^\n)]{0,300}` +
			`|\beval\s*["'(]?\s*"?(?:\$\(|\x60)\s*` + fetcher + `\b[^\n)]{0,300}`),
		refine: byHost("runs a download in a shell"),
		before: 80, after: 400,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"iex", "invoke-expression", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "downloadstring", "downloaddata"},
		re: mustCompile(`\b(?:iex|invoke-expression)\s*\(?\s*(?:\(?\s*new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.\s*download(?:string|data)|\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b)[^\n]{0,300}` +
			`|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,300}\|\s*(?:iex|invoke-expression)\b` +
			`|download(?:string|data)\s*\([^\n]{0,300}\|\s*(?:iex|invoke-expression)\b`),
		refine: byHost("runs a download in a shell"),
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"exec", "eval", "new function"},
		re: mustCompile(`\b(?:exec|eval)\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|httpx\.get|urllib2\.urlopen)\s*\([^\n]{0,200}?\)\s*\.\s*(?:read\(\)|text|content)` +
			`|\beval\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?fetch\s*\([^\n]{0,300}` +
			`|\bnew\s+function\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?fetch\s*\([^\n]{0,300}`),
		refine: byHost("runs code it downloads"),
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"curl", "wget"},
		re:      mustCompile(`\b(?:curl|wget)\b[^\n]{0,300}?\s(?:-o|--output|--output-document|-O)\s*['"]?([^\s'"]+)[^\n]{0,200}?(?:\n[^\n]{0,200}){0,3}?\bchmod\s+(?:[+a-z]*x|[0-7]*[157][0-7]*)\b[^\n]{0,200}?(?:\n[^\n]{0,200}){0,3}?(?:\./|/tmp/|\$tmp|open\s+-a|\bsudo\s+/|nohup\s)`),
		refine: func(s *scan, m []int) verdict {
			v := hostSeverity(s.group(m, 0), "downloads a program and runs it")
			if v.sev < SeverityError {
				return verdict{} // how release binaries install; judged by their host alone
			}
			return v
		},
		after: 1600,
	}, {
		rule: RuleRemoteCode, sev: SeverityWarning,
		anchors: []string{"glot.io/", "pastebin.com/", "paste.ee/", "hastebin.com/", "rentry.co/", "rentry.org/", "transfer.sh/", "0x0.st/", "temp.sh/",
			"catbox.moe/", "gofile.io/", "pixeldrain.com/", "bit.ly/", "tinyurl.com/", "is.gd/", "cutt.ly/", "rb.gy/", "shorturl.at/", "paste.rs/",
			"dpaste.", "termbin.com/", "ix.io/", "sprunge.us/", "controlc.com/", "justpaste.it/", "privatebin.", "setup-service.com"},
		re: mustCompile(`[a-z0-9.-]+(?:/\S*)?`),
		refine: func(s *scan, m []int) verdict {
			host := hostOf(s.group(m, 0))
			if toRun.Match(s.fold[max(m[0]-300, 0):m[0]]) || toRun.Match(s.fold[m[1]:min(m[1]+300, len(s.fold))]) {
				return verdict{SeverityError, fmt.Sprintf("points to a script on %s, a paste or link-shortening site, to run: nobody's release, and it can change at any time", host), ""}
			}
			return verdict{SeverityWarning, fmt.Sprintf("links to %s, a paste or link-shortening site whose content can change at any time", host), ""}
		},
		after: 200}, {
		rule: RuleRemoteCode, sev: SeverityWarning,
		msg:     "unpacks a password-protected archive, which hides its content from scanners",
		anchors: []string{"unzip", "7z ", "7za ", "7zz ", "unrar", "rar ", ".zip", ".rar", ".7z", "archive", "zip file", "password", "passcode", "pass:", "pass=", "pass =", "pass is", "pass `", "pass \"", "pass '", "pwd:", "pwd=", "pwd ="},
		re: mustCompile(`\b(?:unzip|7z|7za|7zz|unrar|rar)\b[^\n]{0,100}?\s-p\s*\S{3,}` +
			`|(?:\.zip|\.rar|\.7z|archive|zip\s+file)[^\n]{0,200}?(?:\n[^\n]{0,200}?)?\b(?:password|passcode|pass|pwd)\b` + pass +
			`|\b(?:password|passcode|pass|pwd)\b` + pass + `[^\n]{0,200}?(?:\n[^\n]{0,200}?)?(?:extract|unzip|unpack|\.zip|\.rar|\.7z)`),
		refine: func(s *scan, m []int) verdict {
			near := s.around(m[0], m[1], 500)
			if runAfterUnpack.Match(near) {
				return verdict{SeverityError, "has the user unpack a password-protected archive and run what it holds: the password keeps scanners out", ""}
			}
			return verdict{SeverityWarning, "unpacks a password-protected archive, which hides its content from scanners", ""}
		},
		after: 800,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:     "decodes a payload and runs it",
		anchors: []string{"base64", "xxd", "openssl", "uudecode", "rev |", "rev|", "gunzip", "zcat", "gzip"},
		re: mustCompile(`\bbase64\s+(?:-\w+\s+)*(?:-d|--decode|-di|-id)\b[^\n|]{0,100}\|\s*` + shell + `\b` +
			`|\b(?:xxd\s+(?:-r\s+-p|-p\s+-r|-rp|-pr|-r)|openssl\s+(?:base64|enc\s+-base64|enc\s+-a)\s+-d|uudecode|rev|gunzip|zcat|gzip\s+-d|gzip\s+-dc)\b[^\n|]{0,60}\|\s*` + shell + `\b`),
		after: 400,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:    "decodes a payload and runs it",
		window: true, anchors: []string{"base64 -d", "base64 --decode", "base64 -i -d", "base64 -di"},
		re: mustCompile(`\b(?:bash|sh|zsh)\s+-c\s+["']?\$\([^)\n]{0,400}?base64\s+(?:-\w+\s+)*(?:-d|--decode)` +
			`|\beval\s+["']?\$\([^)\n]{0,400}?base64\s+(?:-\w+\s+)*(?:-d|--decode)` +
			`|\b(?:bash|sh|zsh)\s+<<<\s*["']?\$\([^)\n]{0,400}?base64\s+(?:-\w+\s+)*(?:-d|--decode)`),
		before: 420, after: 320,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:     "decodes a payload and runs it",
		anchors: []string{"exec", "eval", "new function", "assert", "[convert]", "[system.convert]", "iex", "invoke-expression"},
		re: mustCompile(`\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.\w*decode|codecs\.decode|zlib\.decompress|marshal\.loads|bytes\.fromhex|binascii\.\w+|__import__\(\s*['"](?:base64|zlib|codecs|marshal|binascii)['"]\s*\)|bz2\.decompress|lzma\.decompress|gzip\.decompress|['"]{2}\.join\(\s*(?:map\(\s*)?chr)` +
			`|\beval\s*\(\s*(?:atob|buffer\.from|unescape|decodeuricomponent|string\.fromcharcode|base64_decode|gzinflate|gzuncompress|str_rot13|hex2bin|base64\.decode64)\s*\(` +
			`|\bnew\s+function\s*\(\s*(?:atob|buffer\.from)\s*\(|\bassert\s*\(\s*base64_decode\s*\(` +
			`|\[(?:system\.)?convert\]::frombase64string\([\s\S]{0,300}?(?:\biex\b|invoke-expression|\.invoke\(|start-process|\[scriptblock\]::create)` +
			`|\b(?:iex|invoke-expression)\s*\(?\s*\[(?:system\.)?text\.encoding\]`),
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:     "runs an encoded PowerShell command",
		anchors: []string{"powershell", "pwsh"},
		re:      mustCompile(`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,100}?\s[-/](?:e|ec|en|enc|enco|encod|encode|encodedcommand)\s+[a-z0-9+/=]{16,}`),
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:     "opens a reverse shell: it hands a shell on this machine to a remote host",
		anchors: []string{"/dev/tcp/", "/dev/udp/", "nc ", "ncat", "netcat", "mkfifo", "socat", "pty.spawn", "os.dup2", "fsockopen", "tcpsocket", "new-object", "telnet", "use socket"},
		re: mustCompile(`/dev/(?:tcp|udp)/[\w.$-]+/[\d$]+` +
			`|\b(?:nc|ncat|netcat|nc\.traditional)\b[^\n|;]{0,80}?\s-(?:e|c)\s*['"]?(?:/bin/|/usr/bin/)?(?:ba|z|da)?sh\b` +
			`|\bmkfifo\s+\S+[^\n]{0,160}?\b(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b` +
			`|\bsocat\b[^\n]{0,200}?\bexec:['"]?(?:/bin/)?(?:ba|z)?sh|\bsocat\b[^\n]{0,120}?tcp[46]?(?:-connect)?:\S+[^\n]{0,100}?(?:exec|system):` +
			`|\bpty\.spawn\(\s*['"](?:/bin/)?(?:ba|z)?sh['"]|\bos\.dup2\(\s*\w+\.fileno\(\)\s*,\s*[012]\s*\)` +
			`|\bfsockopen\([\s\S]{0,200}?(?:exec|shell_exec|system|passthru|proc_open)\s*\(\s*['"]/bin/` +
			`|\btcpsocket\.(?:open|new)\([\s\S]{0,200}?(?:exec|spawn|system)\s*\(?\s*['"]?(?:/bin/)?(?:ba|z)?sh` +
			`|\bnew-object\s+(?:system\.)?net\.sockets\.tcpclient\([\s\S]{0,400}?(?:getstream\(\)[\s\S]{0,400}?(?:iex|invoke-expression)|(?:iex|invoke-expression)[\s\S]{0,400}?getstream\(\))` +
			`|\btelnet\s+\S+\s+\d+\s*\|\s*/bin/(?:ba)?sh\s*\|\s*telnet` +
			`|\buse\s+socket\s*;[\s\S]{0,300}?exec\s*\(?\s*['"]/bin/(?:ba)?sh`),
		after: 900,
	}}
}

// credentialAnchors are the starts of the alternatives of secretFile.
func credentialAnchors() []string {
	return []string{".ssh/", ".aws/credentials", ".config/gcloud/", ".azure/", ".kube/config", ".docker/config.json", ".npmrc", ".pypirc", ".netrc", ".git-credentials", ".gnupg/", ".password-store", "/etc/shadow", ".bash_history", ".zsh_history", ".clawdbot/", ".openclaw/", ".claude/.credentials", ".codex/auth.json", ".config/gh/hosts.yml", "login data", "login\\ data", "logindata", "logins.json", "key3.db", "key4.db", "cookies.sqlite", "wallet.dat", ".solana/id.json", "keystore/utc--", ".electrum/wallets", "exodus.wallet"}
}

func credentialDetectors() []detector {
	browserStore := mustCompile(`login\s*data|logins\.json|key[34]\.db`)
	walletFile := mustCompile(`wallet\.dat|keystore/utc--|\.electrum/wallets|exodus\.wallet`)
	return []detector{{
		rule: RuleCredentialAccess, sev: SeverityWarning,
		msg:     "reads a file of stored credentials",
		anchors: credentialAnchors(),
		prefix:  `\b(?:cat|less|more|head|tail|type|get-content|gc|cp|copy|copy-item|mv|scp|rsync|tar|zip|7z|base64|xxd|strings|sqlite3|grep|open|readfile(?:sync)?|read_text|read_bytes|fs\.read\w*|shutil\.copy\w*|find)\b[\s(]+[^|\n;]{0,100}?`,
		re:      mustCompile(secretFile),
		after:   80,
		refine: func(s *scan, m []int) verdict {
			t := s.group(m, 0)
			if browserStore.MatchString(t) {
				return verdict{SeverityError, "reads a browser's saved passwords", ""}
			}
			if walletFile.MatchString(t) {
				return verdict{SeverityError, "reads a crypto wallet's keys", ""}
			}
			return verdict{SeverityWarning, "reads a file of stored credentials", ""}
		},
	}, {
		rule: RuleCredentialAccess, sev: SeverityError,
		msg:     "dumps the keychain or the system's credential store",
		anchors: []string{"dump-keychain", "sekurlsa", "mimikatz", "lsass", "procdump", "lazagne", "vaultcmd", "chainbreaker"},
		re:      mustCompile(`dump-keychain\b|sekurlsa::|\bmimikatz\b|\blsass(?:\.exe|\.dmp)\b|procdump[^\n]{0,40}lsass|\blazagne\b|\bvaultcmd\s+/list|\bchainbreaker\b`),
	}, {
		rule: RuleCredentialAccess, sev: SeverityWarning,
		msg:     "reads a password from the keychain",
		anchors: []string{"find-generic-password", "find-internet-password"},
		re:      mustCompile(`find-(?:generic|internet)-password\b[^\n]{0,200}`),
	}, {
		rule: RuleCredentialAccess, sev: SeverityWarning,
		msg: "tells the agent to collect credentials", prose: true,
		need:    []string{"ssh", "private", "aws", "cloud", "browser", "password", "keychain", "wallet", "seed", "mnemonic", "crypto", "api", "token", "secret", "credential"},
		anchors: []string{"read", "collect", "gather", "harvest", "extract", "dump", "copy", "steal", "grab", "retrieve", "exfiltrate", "enumerate", "locate", "find", "search", "scan", "look"},
		re: ph(`\b(?:read|collect|gather|harvest|extract|dump|copy|steal|grab|retrieve|exfiltrate|enumerate|locate|find|search_for|scan_for|look_for)_(?:(?:all|every|any|the|users?'?s?|their|stored|saved|local|cached|available)_){0,4}` +
			`(?:ssh_(?:private_)?keys|private_keys|aws_credentials|cloud_credentials|browser_(?:passwords?|cookies|credentials|history|profiles?)|saved_passwords|stored_passwords|keychain_(?:items|passwords|entries)|wallet_(?:files|keys|seeds?|data)|seed_phrases|mnemonics|crypto_wallets|(?:api_keys|tokens|secrets|credentials|passwords)_(?:from|in|on|stored_in)_(?:the_|this_)?(?:system|machine|computer|disk|home|filesystem|environment|user'?s?_home))`),
	}}
}

func persistenceDetectors() []detector {
	return []detector{{
		rule: RulePersistence, sev: SeverityWarning,
		msg:    "installs a job that runs again after the session",
		window: true, anchors: []string{"crontab", "launchctl", "launchagents", "launchdaemons", "schtasks", "currentversion\\run", "currentversion/run"},
		re: mustCompile(`\|\s*crontab\s+-(?:\s|$)|\bcrontab\s+-l\b[^\n]{0,200}\|\s*crontab\b|>>?\s*/etc/cron\S*` +
			`|\blaunchctl\s+(?:load|bootstrap|submit)\b|(?:>|cp\s[^\n]{0,100}|tee\s[^\n]{0,20})\s*~?/?(?:library|\$home/library)/launch(?:agents|daemons)/` +
			`|\bschtasks(?:\.exe)?\s+/create\b|currentversion[\\/]+run(?:once)?\b`),
		before: 240, after: 240,
	}, {
		rule: RulePersistence, sev: SeverityWarning,
		msg:    "adds a command that fetches code to a shell's start-up file",
		window: true, anchors: []string{".bashrc", ".zshrc", ".bash_profile", ".profile", ".zprofile", ".zshenv"},
		re:     mustCompile(`\b(?:curl|wget|nc|ncat|base64\s+-d|/dev/tcp)\b[^\n]{0,300}?>>\s*(?:~|\$home|\$\{home\})/\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv)\b`),
		before: 320, after: 40,
	}}
}
