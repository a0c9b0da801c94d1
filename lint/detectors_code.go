package lint

import (
	"bytes"
	"fmt"
	"path"
	"strings"
)

func exfiltrationDetectors() []detector {
	secretAnchors := append(credentialAnchors(), ".env |", ".env|")
	environAssigned := mustCompile(`=\s*(?:dict\(\s*|json\.dumps\(\s*(?:dict\(\s*)?|str\(\s*)?$`)
	// environFiltered is a comprehension over the environment: "{k: v
	// for k, v in os.environ.items() if ...}".
	environFiltered := mustCompile(`=\s*\{[^\n]{0,80}\bfor\b[^\n]{0,40}\bin\s*$`)
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
	// scriptSend is a call that sends data over the network from code.
	scriptSend := `(?:\b(?:requests|httpx|session|aiohttp)\S{0,30}\.(?:post|put|patch)\b|\burlopen\(|urllib\.request\.request\(|\bfetch\(|\baxios\.(?:post|put)\(|\bhttps?\.request\(|\bhttp\.(?:post|postform)\(|http\.newrequest\(\s*"(?:post|put)"|invoke-webrequest|invoke-restmethod|\.uploadfile\(|\.uploadstring\(|\.sendmail\(|\.send_message\(|\bsmtplib\.|\bcurl\s)`
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
		refine:  unlessIdentity("copies a credential file to another machine"),
		after:   240,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"env |", "env|", "printenv", "export -p", "set |", "get-childitem env:", "gci env:", "dir env:", "ls env:", "curl", "wget", "nc ", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"},
		re: mustCompile(`\b(?:env|printenv|export\s+-p|set|get-childitem\s+env:|gci\s+env:|dir\s+env:|ls\s+env:)\s*\|\s*(?:\S+\s+){0,6}?` + sink +
			`|\b(?:curl|wget|nc|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n]{0,300}?(?:\$\(\s*(?:env|printenv|export\s+-p|gh\s+auth\s+token|aws\s+configure\s+export-credentials|security\s+find-\w+-password\b[^)\n]*)\s*[|)]|\x60\s*(?:env|printenv)\s*[|\x60]|\$env:\*|\(get-childitem\s+env:)`),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"os.environ"},
		prefix:  `(?:(?:requests|httpx|session|client|urllib3?|aiohttp|http|urlopen|request)\S{0,30}\.?(?:post|put|patch|request|urlopen|fetch|send)|\burlopen)\s*\([^\n]{0,300}?(?:(?:str|repr|json\.dumps)\(\s*)?(?:dict\(\s*|\*\*)?`,
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
		re:      mustCompile(`os\.environ(?:(?:\.copy\(\))?\s*\)*|\.items\(\)[^\n]{0,80}\}\s*)\s*\n(?:[^\n]*\n){0,15}?[^\n]*\b(?:requests|httpx|urllib|urlopen|session|aiohttp)\S{0,30}\.(?:post|put|urlopen|request)\b`),
		refine: func(s *scan, m []int) verdict {
			// The whole environment, assigned to a name: "data = dict(os.environ)".
			line := s.fold[bytes.LastIndexByte(s.fold[:m[0]], '\n')+1 : m[0]]
			if !environAssigned.Match(line) && !(environFiltered.Match(line) && bytes.Contains(s.fold[m[0]:m[0]+24], []byte(".items()"))) {
				return verdict{}
			}
			return verdict{sev: SeverityError}
		},
		after: 1600,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "reads a credential file and sends it over the network",
		anchors: []string{"open(", "readfile", "read_text(", "read_bytes(", "get-content", "fs.read"},
		re: mustCompile(`(?:open\(|readfile(?:sync)?\(|read_text\(|read_bytes\(|get-content\s|fs\.read\w*\()[^\n]{0,160}?` + secretOrEnv +
			`[\s\S]{0,600}?(?:(?:requests|httpx|urllib|aiohttp|session)\S{0,30}\.(?:post|put|urlopen|request)\b|(?:fetch|axios\.post|invoke-webrequest|invoke-restmethod|\.uploadfile|\.uploadstring|\.sendmail|\.send_message)\s*\(?)`),
		after: 900,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "reads a credential file and sends it over the network",
		anchors: credentialAnchors(),
		re:      mustCompile(hardSecretFile + `[\s\S]{0,900}?` + scriptSend),
		refine: func(s *scan, m []int) verdict {
			if isMarkup(s.path) {
				return verdict{} // prose and examples: the commands' own detectors judge them
			}
			return verdict{sev: SeverityError}
		},
		after: 1000,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"json.stringify(", "fetch(", "os.environ()", "get-childitem env:", "gci env:", "[environment]::getenvironmentvariables()"},
		re: mustCompile(`json\.stringify\(\s*\{[^}]{0,200}?\bprocess\.env\s*[,}][\s\S]{0,400}?` + scriptSend +
			`|fetch\([^)\n]{0,200}?,\s*\{[\s\S]{0,300}?json\.stringify\(\s*\{[^}]{0,200}?\bprocess\.env\s*[,}]` +
			`|os\.environ\(\)[\s\S]{0,600}?\bhttp\.(?:post|postform|newrequest\(\s*"(?:post|put)")` +
			`|(?:get-childitem\s+env:|gci\s+env:|\[environment\]::getenvironmentvariables\(\))[\s\S]{0,400}?(?:invoke-restmethod|invoke-webrequest|\biwr\b|\birm\b|uploadstring)`),
		after: 700,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "sends the environment, where tokens live, over the network",
		anchors: []string{"process.env"},
		prefix:  `(?:axios\.(?:post|put)|\.post|\bfetch)\s*\([^\n]{0,200}?,\s*(?:\{\s*(?:\w+\s*:\s*|\.\.\.))?`,
		re:      mustCompile(`process\.env\s*[,)}]`),
		after:   20,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "streams a credential file to another machine",
		anchors: []string{"nc ", "ncat", "netcat", "socat", "telnet"},
		re:      mustCompile(`\b(?:nc|ncat|netcat|telnet)\b[^\n|<]{0,100}<\s*['"]?[^\s'"]{0,40}?` + secretOrEnv),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "archives a folder of credentials and sends it over the network",
		anchors: []string{"tar ", "zip ", "7z "},
		re:      mustCompile(`\b(?:tar|zip|7z)\b[^|\n]{0,200}?(?:~|\$home|\$\{home\})/(?:\.ssh|\.gnupg|\.aws|\.kube|\.config/gcloud|\.docker|library/keychains)\b[^|\n]{0,200}\|\s*(?:\S+\s+){0,6}?` + sink),
		after:   500,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "looks up a host name made of data, which carries it out by DNS",
		anchors: []string{"gethostbyname", "getaddrinfo", "dns.resolve", "dns.lookup", "resolver.resolve", "resolver.query"},
		re:      mustCompile(`\b(?:gethostbyname|getaddrinfo|dns\.resolve\w*|dns\.lookup|resolver\.(?:resolve|query))\s*\(\s*(?:f["'][^"'\n]*\{[^}\n]+\}|\x60[^\x60\n]*\$\{[^}\n]+\}|\w+\s*\+\s*["']\.)[^"'\x60\n]*\.[a-z0-9-]+\.[a-z]{2,}`),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		anchors: []string{"http://", "https://"},
		need:    []string{"$"},
		re:      mustCompile(`https?://[^\s'"<>?]+\?[^\s'"<>]*?\$\{?[a-z_]*(?:key|token|secret|password)[a-z_]*\}?[^\s'"<>]*`),
		refine: func(s *scan, m []int) verdict {
			u := s.group(m, 0)
			services := map[string]bool{}
			aws := false
			for _, v := range secretVar.FindAllStringSubmatch(u, -1) {
				services[strings.SplitN(strings.TrimLeft(v[1], "_"), "_", 2)[0]] = true
				aws = aws || v[1] == "aws_secret_access_key"
			}
			if len(services) < 2 && !aws {
				return verdict{} // an API's own key in its own query
			}
			return verdict{SeverityError, "puts several secrets of the environment in one URL's query: the server receives them all", ""}
		},
		after: 600,
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "copies every message the agent sends to an address written in the skill",
		anchors: []string{"always", "bcc", "cc", "change the recipient", "set the recipient", "replace the recipient"},
		re: ph(`\b(?:always_)?(?:add|include|put|send_a_copy_to)?_?(?:bcc|cc)\s*:?_(?:to_)?[\w.+-]+@[a-z0-9-]+\.[a-z.]{2,}[^.\n]{0,80}?(?:every|each|all)_(?:message|email|mail)` +
			`|\balways_(?:add_|include_)?(?:bcc|cc)\b[^.\n]{0,40}?[\w.+-]+@[a-z0-9-]+\.` +
			`|\b(?:change|set|replace)_the_(?:recipient|to_address|destination)_(?:\w+_){0,2}?(?:to|with)_[\w.+-]+@[a-z0-9-]+\.`),
	}, {
		rule: RuleExfiltration, sev: SeverityError, prose: true,
		msg:     "tells the agent to put a secret in a URL it fetches or renders",
		anchors: []string{"include", "append", "add", "put", "embed", "insert", "pass", "encode"},
		need:    []string{"key", "token", "secret", "cookie"},
		re:      ph(`\b(?:include|append|add|put|embed|insert|pass|encode)_(?:the_|their_|your_|users?'?s?_|all_)?(?:[\w-]+_)?(?:api_?keys?|tokens?|secrets?|(?:[a-z]+_)+api_key|(?:[a-z]+_)+token|session_cookies?)_(?:[\w-]+_){0,3}?(?:in|into|to|as)_(?:the_|a_|each_)?(?:url|query|query_string|link|image_url|request_url|image)\b`),
		refine: func(s *scan, m []int) verdict {
			t := s.fold[m[0]:m[1]]
			if !bytes.Contains(t, []byte("user")) && !bytes.Contains(t, []byte("their")) && !bytes.Contains(t, []byte("image")) {
				return verdict{} // how an API takes its own key
			}
			return verdict{SeverityError, "tells the agent to put the user's secret in a URL it fetches or renders", ""}
		},
		after: 260,
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
			v := imageSeverity(u)
			if v.sev == 0 && strings.ContainsRune(u, '?') && replacedByData.Match(s.around(m[0], m[1], 300)) {
				return verdict{SeverityError, fmt.Sprintf("renders an image from %s whose query the agent is told to fill with the conversation: loading it sends it there", hostOf(u)), ""}
			}
			return v
		},
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg:     "looks up a host name made of command output, which carries it out by DNS",
		anchors: []string{"nslookup", "dig", "host", "drill", "ping", "resolve-dnsname"},
		re:      mustCompile(`\b(?:nslookup|dig|host|drill|ping|resolve-dnsname)\s+(?:[-+@]\S+\s+)*["']?[\w.-]*(?:\$\([^)\n]{1,120}\)|\$\{\w+\}|\$\w+)[\w.$(){}-]*\.[a-z0-9-]+\.[a-z]{2,}\b`),
	}, {
		rule: RuleExfiltration, sev: SeverityError,
		msg: "tells the agent to send credentials to an outside address", prose: true,
		need:    []string{"secret", "credential", "key", "token", "password", "passphrase", "env", "cookie", "wallet", "seed", "mnemonic", "recovery", "keychain"},
		anchors: []string{"send", "post", "upload", "transmit", "exfiltrate", "forward", "email", "e-mail", "mail", "submit", "leak", "beacon", "report", "copy", "sync", "share", "relay", "include", "append", "attach"},
		re: ph(`\b(?:send|post|upload|transmit|exfiltrate|forward|e-?mail|mail|submit|leak|beacon|report|copy|sync|share|relay|include|append|attach)_(?:(?:all|every|any|the|a|your|their|users?'?s?|current|full|entire|complete|local|of|and|its|this|these|copies|contents?|list|found|saved|stored|collected|harvested|discovered|available|summary|transcript|chat|conversation|session)_){0,8}` +
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
			`(?:conversations?|chat_(?:history|logs?|transcripts?)|(?:summary|transcript|copy|log)_of_(?:this_|the_|our_|each_|every_)?(?:chat|conversation|session)|messages|memory|context|files|documents|source_code|codebase|history|prompts?|system_prompt|personal_(?:data|information))\b[^.\n]{0,60}?_(?:to|at|via)_(?:https?://|[\w.+-]+@[a-z0-9-]+\.|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})`),
		refine: func(s *scan, m []int) verdict {
			if conversational.Match(s.fold[m[0]:m[1]]) {
				return verdict{SeverityError, "tells the agent to send the conversation or the code to an outside address", ""}
			}
			return verdict{sev: SeverityWarning}
		},
	}}
}

// unlessIdentity drops a match whose every credential file is given to
// -i (ssh, scp, rsync -e "ssh -i"): the key is used to log in, not sent.
func unlessIdentity(msg string) func(s *scan, m []int) verdict {
	file := mustCompile(secretOrEnv)
	return func(s *scan, m []int) verdict {
		if onlyIdentity(s.fold[m[0]:m[1]], file) {
			return verdict{}
		}
		return verdict{SeverityError, msg, ""}
	}
}

// onlyIdentity reports whether t gives a key to ssh to log in, and holds
// no credential file that file finds but that key.
func onlyIdentity(t []byte, file *expression) bool {
	return identityUse.Match(t) && !file.Match(identityArg.re().ReplaceAll(t, []byte(" ")))
}

var (
	// downloadedTo finds a download to a named file: its URL and the file.
	downloadedTo = mustCompile(`\b(?:curl|wget)\b[^\n]{0,200}?(https?://\S+)?[^\n]{0,200}?\s(?:-o|--output|--output-document|-O)\s*['"]?([^\s'"\x60]+)`)
	identityUse  = mustCompile(`(?:\s-i\s*|identityfile[\s=]+|--key(?:-file)?[\s=]+|\s-e\s*["']?ssh\b[^"'\n]{0,60}?-i\s*)['"]?[^\s'"]{0,40}?(?:\.ssh/|id_)`)
	// identityArg is a key given to ssh to log in, its path whole.
	identityArg = mustCompile(`(?:\s-i\s*|identityfile[\s=]+|--key(?:-file)?[\s=]+|\s-e\s*["']?ssh\b[^"'\n]{0,60}?-i\s*)['"]?[^\s'"]*`)
	secretVar   = mustCompile(`\$\{?([a-z_]*(?:key|token|secret|password)[a-z_]*)\}?`)
	// replacedByData finds an order to fill an image's placeholder with
	// the conversation.
	replacedByData = ph(`\breplac(?:e|ing)_\S+_with_(?:a_|the_)?(?:[\w-]+_){0,3}?(?:summary|contents?|transcript|text|copy|history)_of_(?:the_|this_)?(?:conversation|chat|session|messages)`)
	// conversational finds the conversation or the code, which no
	// instruction in prose has reason to send to an address.
	conversational = ph(`\b(?:conversations?|chat|transcript|system_prompt|codebase|source_code|memory|chat_history)\b`)
)

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
	// byHostInCode judges code that evaluates what it fetches: no
	// installer is run so, so any host but a local one is an error.
	byHostInCode := func(what string) func(s *scan, m []int) verdict {
		return func(s *scan, m []int) verdict {
			v := hostSeverity(s.group(m, 0), what)
			if v.sev == SeverityWarning && !strings.Contains(v.msg, "a local address") {
				v.sev = SeverityError
			}
			return v
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
			`|\b(?:(?:bash|sh|zsh|dash|ksh)\s+-c|(?:python[\d.]*|perl|ruby|node|php)\s+-[ce])\s+["']?(?:\$\(|\x60)\s*` + fetcher + `\b[^\n)]{0,300}` +
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
		refine: byHostInCode("runs code it downloads"),
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"curl", "wget"},
		re: mustCompile(`\b(?:curl|wget)\b[^\n]{0,300}?\s(?:-o|--output|--output-document|-O)\s*['"]?([^\s'"]+)[^\n]{0,200}?(?:\n[^\n]{0,200}){0,3}?` +
			`(?:\bchmod\s+(?:[+a-z]*x|[0-7]*[157][0-7]*)\b[^\n]{0,200}?(?:\n[^\n]{0,200}){0,3}?(?:\./|/tmp/|\$tmp|open\s+-a|\bsudo\s+/|nohup\s)` +
			`|\b(?:bash|sh|zsh|source|python[\d.]*|perl|ruby|node|pwsh|powershell\s+-file)\s+['"]?(?:/tmp/|\$tmp|\$\{tmpdir|\./|~/))`),
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
		after: 200,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:     "runs code it downloads",
		anchors: []string{"fetch(", "requests.get(", "httpx.get("},
		re: mustCompile(`\bfetch\(\s*['"\x60](https?://[^'"\x60\s]+)['"\x60][\s\S]{0,300}?\b(?:eval|new\s+function)\s*\(\s*(?:await\s+)?\w+\.text\(\)` +
			`|\b(?:requests|httpx)\.get\(\s*['"](https?://[^'"\s]+)['"][\s\S]{0,300}?\bexec\s*\(\s*\w+\.(?:text|content)\b`),
		refine: byHostInCode("runs code it downloads"),
		after:  420,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"eval", "instance_eval", "load("},
		re:      mustCompile(`\b(?:eval|instance_eval|load)\s*\(?\s*(?:uri\.open|open|uri\.parse\([^)\n]{0,200}\)\.open|net::http\.get(?:_response)?)\s*\(\s*(?:uri\(\s*)?['"]https?://[^'"\n]+['"][^\n]{0,40}`),
		refine:  byHostInCode("runs code it downloads"),
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"downloadfile"},
		re:      mustCompile(`downloadfile\(\s*[^\n]{0,200}[\s\S]{0,400}?\b(?:start-process|invoke-item|&\s*\$\w+|start\s+\$\w+)`),
		refine: func(s *scan, m []int) verdict {
			return hostSeverity(string(s.around(m[0], m[1], 300)), "downloads a program and starts it")
		},
		after: 700,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:     "downloads with a Windows system tool that malware uses to slip past defences",
		anchors: []string{"certutil", "bitsadmin", "mshta", "regsvr32", "rundll32"},
		re: mustCompile(`\bcertutil(?:\.exe)?\s+(?:-\w+\s+)*-urlcache\b[^\n]{0,200}?https?://\S+` +
			`|\bbitsadmin(?:\.exe)?\s+/transfer\b[^\n]{0,200}?https?://\S+` +
			`|\bmshta(?:\.exe)?\s+["']?(?:https?://|vbscript:|javascript:)\S*` +
			`|\bregsvr32(?:\.exe)?\s+[^\n]{0,60}?/i:\s*https?://\S+` +
			`|\brundll32(?:\.exe)?\s+[^\n]{0,40}?javascript:`),
	}, {
		rule: RuleRemoteCode, sev: SeverityWarning,
		window: true, lines: true, anchors: []string{"xattr", "spctl"},
		re: mustCompile(`\bxattr\s+(?:-[a-z]+\s+)*(?:-c|-[a-z]*d[a-z]*\s+com\.apple\.quarantine)\s+['"]?([^\s'"\x60]+)|\bspctl\s+--master-disable\b|\bspctl\s+--global-disable\b`),
		refine: func(s *scan, m []int) verdict {
			if bytes.HasPrefix(s.fold[m[0]:], []byte("spctl")) {
				return verdict{SeverityError, "turns off Gatekeeper for the whole machine, so unsigned programs run unchecked", ""}
			}
			target := path.Base(strings.TrimRight(s.group(m, 1), "/"))
			before := string(s.fold[max(m[0]-800, 0):m[0]])
			if dl := downloadedTo.FindAllStringSubmatch(before, -1); len(dl) > 0 && path.Base(dl[len(dl)-1][2]) == target {
				return verdict{SeverityError, "removes the quarantine mark of a download so that Gatekeeper never checks it, as macOS stealers have users do", ""}
			}
			return verdict{SeverityWarning, "removes the quarantine mark that has Gatekeeper check a downloaded program", ""}
		},
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		anchors: []string{"pip ", "pip3 ", "uv pip", "pipx ", "poetry ", "npm ", "pnpm ", "yarn ", "bun ", "gem "},
		re:      mustCompile(`\b(?:pip3?|uv\s+pip|pipx|poetry|npm|pnpm|yarn|bun|gem)\s+(?:install|add|i)\b[^\n]{0,200}?(?:--index-url|--extra-index-url|-i|--registry|--source|--trusted-host)[\s=]+['"]?([^\s'"]+)`),
		refine: func(s *scan, m []int) verdict {
			src := s.group(m, 1)
			if !strings.Contains(src, "://") {
				src = "http://" + src
			}
			if sev, reason := urlRisk(src); sev == SeverityError {
				return verdict{SeverityError, "installs packages from " + hostOf(src) + ": " + reason, ""}
			}
			return verdict{} // a company's or a project's own index
		},
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:    "opens a reverse shell: it hands a shell on this machine to a remote host",
		window: true, anchors: []string{"net.socket", "net.connect", "createconnection"},
		re:     mustCompile(`spawn\(\s*['"](?:/bin/)?(?:ba|z)?sh['"][\s\S]{0,400}?\.connect\([\s\S]{0,300}?\.pipe\(|(?:new\s+net\.socket|net\.connect|net\.createconnection)\([\s\S]{0,400}?spawn\(\s*['"](?:/bin/)?(?:ba|z)?sh['"]`),
		before: 500, after: 600,
	}, {
		rule: RuleRemoteCode, sev: SeverityError,
		msg:    "runs a command whose name is put together from variables, piped into a shell",
		window: true, lines: true, anchors: []string{"| bash", "|bash", "| sh", "|sh", "| zsh"},
		re: mustCompile(`(?m:(?:^|[;&(])[ \t]*(?:\$\{?\w+\}?\$\{?\w+\}?|\$\{\w+\}[a-z]+|[a-z]+\$\{?\w+\}?)\s[^\n|]{0,200}\|\s*(?:ba|z)?sh\b)`),
	}, {
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
			return verdict{sev: SeverityWarning}
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

// walletExtensions are the browser extension IDs of crypto wallets
// (MetaMask, Phantom, Coinbase Wallet, TronLink, Binance, Rabby, Trust
// Wallet), whose storage stealers copy.
func walletExtensions() []string {
	return []string{"nkbihfbeogaeaoehlefnkodbefgpgknn", "bfnaelmomeimhlpmgjnjophhpkkoljpa", "hnfanknocfeofbddgcijnmhnfnkdnaad",
		"ibnejdfjmmkpcnlpebklmnkoeoihofec", "fhbohimaelbohpjbbldcngcnapndodjp", "acmacodkjbdgmoleebolmdjonilkdbch", "egjidjbpglichdcondbcbdnbeeppgdph"}
}

// credentialAnchors are the starts of the alternatives of secretFile.
func credentialAnchors() []string {
	return []string{".ssh/", ".ssh'", `.ssh"`, `.ssh\`, ".aws/credentials", ".aws'", `.aws"`, `.aws\`, "keychains/", "chrome/", "chromium/", "brave-browser/", "microsoft edge/", "microsoftedge/", "opera/", "opera software/", "opera gx/", ".config/gcloud/", ".azure/", ".kube/config", ".docker/config.json", ".npmrc", ".pypirc", ".netrc", ".git-credentials", ".gnupg/", ".password-store", "/etc/shadow", ".bash_history", ".zsh_history", ".clawdbot/", ".openclaw/", ".claude/.credentials", ".codex/auth.json", ".config/gh/hosts.yml", "login data", "login\\ data", "logindata", "logins.json", "key3.db", "key4.db", "cookies.sqlite", "wallet.dat", ".solana/id.json", "keystore/utc--", ".electrum/wallets", "exodus.wallet"}
}

func credentialDetectors() []detector {
	browserStore := mustCompile(`login\s*data|logins\.json|key[34]\.db|/(?:cookies|web\s?data)$|\.keychain(?:-db)?$`)
	file := mustCompile(secretFile)
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
			if onlyIdentity([]byte(t), file) {
				return verdict{} // a key given to ssh to log in
			}
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
		rule: RuleCredentialAccess, sev: SeverityError,
		msg:     "reads a crypto wallet extension's storage",
		anchors: walletExtensions(),
		re:      mustCompile(`[a-p]{32}`),
	}, {
		rule: RuleCredentialAccess, sev: SeverityError,
		msg:     "asks for the login password in a fake system dialog, as macOS stealers do",
		anchors: []string{"display dialog", "dscl"},
		re:      mustCompile(`display\s+dialog\b[^\n]{0,300}?\bwith\s+hidden\s+answer|\bdscl\s+\.\s+-authonly\b`),
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

var (
	fetchesCode   = mustCompile(`\b(?:curl|wget|iwr|irm|nc|base64\s+-d)\b`)
	literalKey    = mustCompile(`\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+)\s+aaaa[0-9a-z+/]{20,}`)
	standingOrder = ph(`\b(?:always|every_session|each_session|at_the_start_of|never_(?:tell|mention)|do_not_(?:tell|mention)|curl|wget)\b`)
)

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
	}, {
		rule: RulePersistence, sev: SeverityError,
		msg:    "puts an alias of sudo, su or ssh in a shell's start-up file, which captures the password typed to it",
		window: true, anchors: []string{".bashrc", ".zshrc", ".bash_profile", ".profile", ".zprofile"},
		re:     mustCompile(`\balias\s+(?:sudo|su|ssh|passwd|doas)\s*=[^\n]{0,300}?>>?\s*(?:~|\$home|\$\{home\})/\.(?:bashrc|zshrc|bash_profile|profile|zprofile)\b`),
		before: 340, after: 40,
	}, {
		rule: RulePersistence, sev: SeverityWarning,
		msg:    "writes a git hook, which runs again on every commit or checkout",
		window: true, anchors: []string{".git/hooks/", "core.hookspath"},
		re: mustCompile(`(?:>>?|\btee\s+(?:-a\s+)?|\bcp\s+\S+\s+|\bln\s+-s\w*\s+\S+\s+)\s*['"]?\.git/hooks/[\w-]+|\bgit\s+config\s+(?:--global\s+)?core\.hookspath\b`),
		refine: func(s *scan, m []int) verdict {
			if fetchesCode.Match(s.lineOf(m[0])) {
				return verdict{SeverityError, "writes a git hook that fetches code, which runs again on every commit or checkout", ""}
			}
			return verdict{sev: SeverityWarning}
		},
		before: 300, after: 60,
	}, {
		rule: RulePersistence, sev: SeverityWarning,
		msg:    "adds a key to authorized_keys: its holder can log in to this machine",
		window: true, anchors: []string{"authorized_keys"},
		re:     mustCompile(`\b(?:echo|printf|cat|tee)\b[^\n]{0,600}?(?:>>|\btee\s+-a\s+)\s*['"]?(?:~|\$home|\$\{home\}|/root|/home/\w+)/\.ssh/authorized_keys\b`),
		before: 640, after: 20,
		refine: func(s *scan, m []int) verdict {
			if literalKey.Match(s.fold[m[0]:m[1]]) {
				return verdict{SeverityError, "adds a key written in the skill to authorized_keys: its holder can log in to this machine", ""}
			}
			return verdict{sev: SeverityWarning}
		},
	}, {
		rule: RulePersistence, sev: SeverityWarning,
		msg:    "writes standing orders into an agent's own instructions or settings, which every later session obeys",
		window: true, anchors: []string{".claude/", ".codex/", ".cursor/", ".gemini/", ".openclaw/", ".clawdbot/", ".windsurf/", ".continue/"},
		re: mustCompile(`(?:>>?|\btee\s+(?:-a\s+)?)\s*['"]?(?:~|\$home|\$\{home\})/\.(?:claude|codex|cursor|gemini|openclaw|clawdbot|windsurf|continue)/[\w./-]*(?:claude\.md|agents\.md|gemini\.md|memory\.md|soul\.md|settings(?:\.local)?\.json|config\.toml|rules\b|mcp\.json)`),
		refine: func(s *scan, m []int) verdict {
			if standingOrder.Match(s.lineOf(m[0])) {
				return verdict{SeverityError, "writes standing orders into an agent's own instructions, which every later session obeys", ""}
			}
			return verdict{SeverityWarning, "writes into an agent's own instructions or settings, which every later session reads", ""}
		},
		before: 40, after: 120,
	}, {
		rule: RulePersistence, sev: SeverityWarning,
		msg:     "enables a user service that starts again at every login",
		anchors: []string{"systemctl --user"},
		re:      mustCompile(`systemctl\s+--user\s+enable\b[^\n]{0,100}`),
	}}
}
