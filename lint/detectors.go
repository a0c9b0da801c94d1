package lint

import (
	"bytes"
	"strings"
)

// A detector finds one pattern of a rule: the anchors are lower-case
// literals of which every match holds one, so that the expression runs
// only near them; the expression is matched against folded text.
type detector struct {
	rule    string
	sev     Severity
	msg     string
	anchors []string
	re      *expression
	pre     *expression // prefix, compiled
	// refine, when set, judges a match (its submatch offsets in fold):
	// a severity of 0 drops it.
	refine func(s *scan, m []int) verdict
	// noDoc keeps the severity where the text reads as documentation
	// about attacks.
	noDoc bool
	// prose marks a detector of instructions in words: in a file the
	// agent runs rather than reads, or quoted as a mention, such words
	// are data and the finding is lowered.
	prose bool
	// prefix, when set, must match the text of the line just before the
	// anchor; the match then starts where the prefix does.
	prefix string
	// need lists words of which one must follow the anchor within reach
	// for the expression to be tried: a cheap test before a costly one.
	need []string
	// window marks an expression that does not start with its anchor:
	// it runs over the text around the anchors rather than at them.
	window bool
	// lines widens each window to whole lines, for expressions that
	// anchor at a line's start.
	lines bool
	// before and after are how far from an anchor a match may reach;
	// 0 means the default.
	before, after int
}

func (d *detector) reach() (int, int) {
	before, after := d.before, d.after
	if before == 0 {
		before = 200
	}
	if after == 0 {
		after = 400
	}
	return before, after
}

// A verdict is what a detector's refine makes of a match: a severity (0
// drops it), a message (empty keeps the detector's), and what the match
// decodes to.
type verdict struct {
	sev          Severity
	msg, decoded string
}

// sep is what separates the words of a phrase: spaces, line breaks, and
// the marks of emphasis, code and quotes that may wrap a word.
const sep = `[\s*_~\x60>"']+`

// ph compiles a phrase, in which "_" stands for sep. A "_" inside a
// character class would be replaced too, so none may stand there.
func ph(expr string) *expression {
	depth := 0
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case c == '_' && depth > 0:
			panic("lint: a phrase's character class holds _: " + expr)
		}
	}
	return mustCompile(strings.ReplaceAll(expr, "_", sep))
}

// Parts of expressions shared by several detectors.
const (
	// pathSep joins the parts of a path as shells and code write it: a
	// slash, a Windows backslash, or quoted pieces a join puts together.
	pathSep = `(?:/|\\{1,2}|['"]\s*(?:,|/|\+)\s*['"])`
	neg     = `(?:do_not|don'?t|dont|never|must_not|should_not|shouldn'?t|may_not|cannot|can'?t|will_not|won'?t|you_must_not|you_should_not)`
	// who is the person a skill works for.
	who = `(?:the_|your_|this_)?(?:users?|human|operator|owner)(?:'s)?`
	// fetcher is a command that downloads.
	fetcher = `(?:curl|wget|fetch|aria2c|iwr|irm|invoke-webrequest|invoke-restmethod|http|https|xh)`
	// shell is an interpreter that runs what it reads.
	shell = `(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/usr/bin/env\s+)?(?:/bin/|/usr/bin/|/usr/local/bin/)?(?:bash|sh|zsh|dash|ksh|fish|python[\d.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell|osascript|source)`
	// secretFile is a file of stored credentials.
	secretFile = `(?:\.ssh` + pathSep + `(?:id_[a-z0-9]+\b(?:[^.]|$)|identity\b)|\.aws` + pathSep + `credentials|keychains/[\w.-]*\.keychain(?:-db)?\b|(?:chrome|chromium|brave-browser|microsoft\s?edge|opera\s?\w*)/(?:default|profile\s\d+)/(?:cookies|web\s?data)\b|\.config/gcloud/(?:credentials|application_default|access_tokens|legacy_credentials)|\.azure/(?:accesstokens|msal_token)|\.kube/config|\.docker/config\.json|\.npmrc|\.pypirc|\.netrc|\.git-credentials|\.gnupg/|\.password-store|/etc/shadow|\.bash_history|\.zsh_history|\.clawdbot/|\.openclaw/(?:credentials|\.env|openclaw\.json)|\.claude/\.credentials|\.codex/auth\.json|\.config/gh/hosts\.yml|login[\\\s]*data|logins\.json|key[34]\.db|cookies\.sqlite|wallet\.dat|\.solana/id\.json|keystore/utc--|\.electrum/wallets|exodus\.wallet)`
	// hardSecretFile is a file of secrets no tool but its owner reads:
	// keys, cloud credentials, browser and wallet stores. An agent's own
	// configuration, which skills read for their settings, is not one.
	hardSecretFile = `(?:\.ssh` + pathSep + `id_[a-z0-9]+\b(?:[^.]|$)|\.aws` + pathSep + `credentials|keychains/[\w.-]*\.keychain|\.config/gcloud/(?:credentials|application_default|access_tokens)|\.kube/config|\.docker/config\.json|\.git-credentials|\.netrc|login[\\\s]*data|logins\.json|key[34]\.db|cookies\.sqlite|wallet\.dat|\.solana/id\.json|keystore/utc--|\.electrum/wallets|exodus\.wallet|\.bash_history|\.zsh_history)`
	// secretOrEnv is secretFile or a .env file, whose reading is ordinary
	// but whose sending is not.
	secretOrEnv = `(?:` + secretFile + `|\.env(?:\.local|\.production)?\b)`
	// secretNoun is what names credentials in prose.
	secretNoun = `(?:secrets?|credentials?|api_?keys?|access_keys?|tokens?|passwords?|passphrases?|private_keys?|ssh_keys?|env(?:ironment)?_(?:variables?|vars?)|\.env(?:_files?)?|cookies|session_(?:tokens?|cookies?)|wallets?|wallet_keys?|seed_phrases?|mnemonics?|recovery_phrases?|keychains?)`
)

// detectors are the pattern detectors of the rules, built by New.
func detectors() []detector {
	var ds []detector
	ds = append(ds, overrideDetectors()...)
	ds = append(ds, suppressionDetectors()...)
	ds = append(ds, consentDetectors()...)
	ds = append(ds, exfiltrationDetectors()...)
	ds = append(ds, remoteCodeDetectors()...)
	ds = append(ds, credentialDetectors()...)
	ds = append(ds, persistenceDetectors()...)
	ds = append(ds, charCodeDetectors()...)
	ds = append(ds, intlDetectors()...)
	ds = append(ds, destructiveDetectors()...)
	ds = append(ds, decodeDetectors()...)
	return ds
}

func overrideDetectors() []detector {
	return []detector{{
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to drop its instructions",
		anchors: []string{"ignore", "disregard", "forget", "override", "bypass", "overrule", "supersede", "set aside", "abandon", "discard"},
		re: ph(`\b(?:ignore|disregard|forget(?:_about)?|override|bypass|overrule|supersede|set_aside|abandon|discard)_(?:(?:all|any|every|each|of|the|your|my|these|those|other|prior|previous|all_other|any_other)_){0,3}` +
			`(?:previous|prior|preceding|above|earlier|former|original|initial|old|system|developer|safety|security|other|existing|users?'s?)_(?:\w+_)?` +
			`(?:instructions?|prompts?|rules|guidelines|guidance|directions|directives|guardrails|constraints|policies|restrictions|commands|programming|training|safeguards|messages|requests?|orders)\b` +
			`|\bforget_(?:everything|all)_(?:you_(?:know|were_told|have_been_told)|above|before|prior|previously)`),
		after: 260,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to take on a role without its rules",
		anchors: []string{"you are", "you're", "youre", "developer mode", "god mode", "jailbreak mode", "dan mode", "unrestricted mode", "sudo mode", "act as", "behave as", "respond as", "pretend", "no longer bound", "not bound", "no longer be bound", "not be bound", "no longer follow", "no longer obey", "never follow", "stop following", "stop obeying"},
		re: ph(`\byou(?:_are|'re)_(?:now_|no_longer_|from_now_on_)(?:an?_|in_|the_)?(?:dan\b|jailbroken|jailbreak|unrestricted|unfiltered|uncensored|unlimited|evil|malicious|free_(?:from|of)|(?:developer|god|admin|root|debug|jailbreak|unrestricted|dan|sudo)_mode|not_bound|no_longer_bound|without_(?:any_)?(?:restrictions|limits|rules|filters|guidelines|ethics))` +
			`|\b(?:developer|god|jailbreak|dan|unrestricted|sudo)_mode_(?:is_)?(?:enabled|activated|on|engaged)` +
			`|\b(?:act|behave|respond)_as_(?:an?_|if_you_were_an?_)?(?:unrestricted|unfiltered|jailbroken|uncensored|evil)` +
			`|\bpretend_(?:that_)?(?:you_are|you're|to_be)_(?:an?_)?(?:unrestricted|unfiltered|jailbroken|evil|dan\b|an_ai_without)` +
			`|\b(?:no_longer|not)_(?:be_)?bound_by_(?:any_|your_|the_|its_)?(?:rules|guidelines|policies|restrictions|instructions|ethics)` +
			`|\byou(?:_are|'re)_(?:now_|no_longer_|from_now_on_)(?:an?_|the_)?(?:[\w-]+_){0,3}?(?:without_(?:any_)?(?:restrictions|limits|rules|filters|guidelines|ethics|censorship|boundaries)|with_no_(?:restrictions|limits|rules|filters|guidelines))` +
			`|\b(?:no_longer|never)_(?:follow|obey)_(?:the_|any_|your_)?(?:rules|guidelines|policies|instructions)_(?:of|from|set_by|given_by)_(?:your_|the_)?(?:developers?|creators?|makers?|anthropic|openai|system|operators?)` +
			`|\bstop_(?:following|obeying)_(?:the_|your_|all_)?(?:users?'?s?_|previous_|prior_|original_|system_)?(?:instructions|requests?|rules|guidelines|prompts?)\b`),
		after: 260,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg: "fakes a system message to the agent",
		anchors: []string{"<|im_start|>", "<|system|>", "<<sys>>", "system override", "admin override", "administrator override", "developer override",
			"</user", "</input", "</document", "</context", "</human", "</query", "</data"},
		re: mustCompile(`<\|im_start\|>\s*system|<\|system\|>|<<sys>>` +
			`|</(?:user_?input|user|human|input|document|context|query|data)>\s*<(?:system|admin|developer|instructions?)>` +
			`|\b(?:system|admin|administrator|developer)\s+override\b[^\n]{0,20}?(?::|activated|enabled|engaged|mode\b)`),
		after: 260,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:    "fakes a system message to the agent",
		window: true, lines: true, anchors: []string{"[inst]", "[/inst]", "system:", "system :", "[system]", "<system>", "admin:", "[admin]", "system prompt", "system message"},
		re: mustCompile(`(?m:^\s*\[/?inst\])` +
			`|(?m:^[\s>#*=\[-]*(?:new|updated|real|true|begin|start\s+of)\s+system\s+(?:prompt|message|instructions)\b)` +
			`|(?m:^[\s>#*_]*(?:<!--\s*)?(?:\[system\]|<system>|system|\[admin\]|admin)\s*:?\s*[*_]*\s*(?:ignore|disregard|forget|you\s+(?:are\s+now|must\s+now|will\s+now)|new\s+instructions|override|from\s+now\s+on))`),
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityWarning,
		msg:    "gives the agent replacement instructions",
		window: true, lines: true, anchors: []string{"instructions:", "instruction:", "instructions :", "task:", "objective:"},
		re: ph(`(?m:^[\s>#*]*(?:new|updated|revised|real|actual|true|hidden|secret)_(?:system_)?(?:instructions?|task|objective)\s*:)|[.!]_new_(?:task|objective|instructions)\s*:`),
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityWarning,
		msg:    "gives the agent replacement instructions",
		window: true, anchors: []string{"instructions are", "instructions is", "task is", "objective is", "goal is", "mission is", "purpose is"},
		re:     ph(`\b(?:your|the)_(?:new|real|true|actual|hidden|secret)_(?:instructions|task|objective|goal|mission|purpose)_(?:is|are)\b`),
		before: 40, after: 12,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to drop its instructions",
		anchors: []string{"from now on", "henceforth"},
		re:      ph(`\b(?:from_now_on|henceforth),?_you_(?:must|will|shall|are_to)_(?:always_)?ignore\b`),
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "claims priority over the user's and the agent's instructions",
		anchors: []string{"these instructions", "this instruction", "my instructions", "the following instructions", "this overrides", "this supersedes", "this replaces", "these override", "it overrides"},
		re: ph(`\b(?:these|this|my|the_following)_instructions?_(?:take|takes|have|has)_(?:priority|precedence)_over_(?:the_|any_|all_)?(?:users?'?s?|your|other|previous|prior|system)` +
			`|\b(?:this|these|it)_(?:overrides?|supersedes?|replaces?)_(?:any_|all_)?(?:other_|previous_|prior_|your_|the_user's_)?(?:instructions|rules|guidelines|system_prompt)`),
	}, {
		rule: RuleInstructionOverride, sev: SeverityError,
		msg:     "hides orders to the model in an <IMPORTANT> block, as poisoned tool descriptions do",
		anchors: []string{"<important>"},
		re:      mustCompile(`<important>[\s\S]{0,800}?</important>`),
		refine: func(s *scan, m []int) verdict {
			if !toolPoison.Match(s.fold[m[0]:m[1]]) {
				return verdict{}
			}
			return verdict{sev: SeverityError}
		},
		after: 900,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityWarning,
		msg:     "gives the agent replacement instructions",
		anchors: []string{"from now on", "henceforth"},
		re:      ph(`\b(?:from_now_on|henceforth),?_you_(?:must|will|shall|are_to)_(?:always_|never_|only_)?(?:ignore|obey|follow_only|respond_only|reply_only)`),
		after:   260,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityWarning,
		msg:     "addresses the model that reads it, over the user's head",
		anchors: []string{"if you", "note to", "note for", "message to", "message for", "instructions to", "instructions for", "instruction to", "instruction for", "reminder to", "reminder for", "ai agent", "ai assistant", "ai model", "llm agent", "llm model", "llm assistant", "important note", "important message", "important instruction", "important notice", "urgent note", "urgent message", "urgent instruction", "urgent notice", "critical note", "critical message", "critical instruction", "critical notice", "priority note", "priority message", "priority instruction", "priority notice", "attention ai", "attention llm", "attention assistant", "attention agent", "attention model"},
		re: ph(`\bif_you_(?:are|'re)_an?_(?:ai|llm|large_language_model|language_model|ai_assistant|ai_agent|chatbot|automated_agent)\b[^\n]{0,80}(?:ignore|do_not|don'?t|you_must|must|instead|send|run|execute)` +
			`|\b(?:important|urgent|critical|priority)_(?:note|message|instructions?|notice)_(?:to|for)_(?:the_|any_|all_)?(?:ai|llm|assistant|agent|model|language_model)s?\b` +
			`|\battention_(?:ai|llm|assistant|agent|model)s?\b` +
			`|\b(?:note|message|instructions?|reminder)_(?:to|for)_(?:the_|any_|all_)?(?:ai|llm|assistant|agent|model|language_model)s?_(?:reading|processing|that_reads)\b` +
			`|\b(?:ai|llm)_(?:agents?|assistants?|models?)_(?:reading|processing)_this\b`),
	}}
}

// toolPoison finds, in an <IMPORTANT> block, what poisoned tool
// descriptions ask: a file read and passed along, a condition on using the
// tool, secrecy.
var toolPoison = ph(`(?:before|when)_(?:using|calling|you_use|invoking)|pass_(?:its|the|their|all|this)_(?:\w+_)?(?:contents?|values?)|(?:read|open|cat)_[^\n]{0,40}?(?:~/|\.ssh|\.env|\.cursor|mcp\.json|credentials|id_rsa)|(?:do_not|don'?t|never)_(?:mention|tell|reveal)|otherwise_the_tool`)

// notNegated drops a match that a negation just before it turns around
// ("never silently overwrite"), and reports the others with msg.
func notNegated(msg string) func(s *scan, m []int) verdict {
	return func(s *scan, m []int) verdict {
		before := s.fold[max(m[0]-16, 0):m[0]]
		for _, w := range []string{"never ", "not ", "n't ", "no ", "without "} {
			if bytes.HasSuffix(bytes.TrimRight(before, " *_"), []byte(strings.TrimSpace(w))) {
				return verdict{}
			}
		}
		sev := SeverityError
		if msg == "acts without a trace" {
			sev = SeverityWarning
		}
		return verdict{sev, msg, ""}
	}
}

func suppressionDetectors() []detector {
	unlessAsked := ph(`^[^.\n]{0,30}?\b(?:unless|until)_(?:they_|the_user_|explicitly_|you_are_)?(?:ask|asked|request|requested|want)`)
	return []detector{{
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:     "tells the agent to keep something from the user",
		anchors: []string{"do not", "don't", "dont", "never", "must not", "should not", "shouldn't", "may not", "cannot", "can't", "will not", "won't", "you must not", "you should not"},
		re: ph(`\b` + neg + `_(?:(?:ever|tell_or_show|show_or_tell)_)?(?:tell|inform|notify|alert|mention|reveal|disclose|report|explain|admit|warn)_(?:(?:this|it|that|anything|them|any_of_this|about_(?:this|it|that|these_\w+|the_\w+))_)?(?:to_)?` + who + `(?:_(to|know|about|that|what|how|why))?` +
			`|\b` + neg + `_let_` + who + `_(know|find_out|see_(?:this|that|it))` +
			`|\b` + neg + `_(?:mention|reveal|disclose|report)_(?:[\w.'-]+_){0,5}?(?:to|with)_` + who),
		refine: func(s *scan, m []int) verdict {
			switch s.group(m, 1) {
			case "to", "how", "why":
				// "do not tell the user to run X" instructs, it hides nothing.
				return verdict{}
			}
			if unlessAsked.Match(s.fold[m[1]:min(m[1]+60, len(s.fold))]) {
				return verdict{} // "unless asked" leaves the user the choice
			}
			return verdict{SeverityError, "tells the agent to keep something from the user", ""}
		},
		after: 260,
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:     "acts behind the user's back",
		anchors: []string{"without", "hide", "conceal", "keep"},
		re: ph(`\bwithout_(?:the_)?(?:users?|human|operator|owner)(?:'s)?_(?:knowing|noticing|seeing|knowledge|awareness|being_aware)` +
			`|\bwithout_(?:ever_)?(?:telling|informing|notifying|alerting|mentioning_it_to|letting)_` + who +
			`|\b(?:hide|conceal|keep)_(?:this|it|these|that|them|everything|the_\w+|all_\w+|your_\w+|any_\w+)_(?:\w+_)?(?:hidden_|secret_|private_)?from_` + who),
		after: 260,
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:     "acts behind the user's back",
		anchors: []string{"keep"},
		re:      ph(`\bkeep_(?:this|it|that|these|them|the_\w+|all_\w+)_(?:\w+_)?(?:invisible|hidden|secret|private|confidential|unknown)_(?:to|from)_` + who),
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:     "tells the agent to mislead the user about the result",
		anchors: []string{"whatever", "regardless", "no matter", "even if", "tell the user", "tell them", "report to the user", "inform the user"},
		re: ph(`\b(?:whatever|regardless_of|no_matter)_(?:the_)?(?:result|outcome|output|what_happens|happens)[^.\n]{0,30}?\b(?:tell|report_to|inform|assure)_(?:the_user|them|the_human)_(?:that_)?(?:[\w']+_){0,3}?(?:passed|succeeded|success|successful|worked|completed|fine|ok)\b` +
			`|\b(?:tell|report_to|inform|assure)_(?:the_user|them|the_human)_(?:that_)?(?:[\w']+_){0,4}?(?:passed|succeeded|worked|completed_successfully)_(?:whatever|regardless|even_if|no_matter)\b`),
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityWarning,
		msg:     "hides its actions from the output the user reads",
		anchors: []string{"leave"},
		re:      ph(`\bleave_(?:this|it|that|these|them)_(?:\w+_)?out_of_(?:your_|the_)?(?:summary|answer|reply|response|report|output)`),
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:    "acts behind the user's back",
		window: true, anchors: []string{"not know", "never know", "not find out", "never find out", "not be told", "never be told", "not be aware", "never be aware", "not be informed", "never be informed", "not be notified", "not learn", "never learn"},
		re:     ph(`\b` + who + `_(?:must|should|will|need|needs)_(?:not|never)_(?:know|find_out|learn|be_(?:told|informed|aware|notified))\b`),
		before: 80, after: 40,
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:     "sends data without a trace",
		anchors: []string{"silently", "quietly", "covertly", "secretly", "stealthily", "discreetly", "invisibly"},
		re:      ph(`\b(?:silently|quietly|covertly|secretly|stealthily|discreetly|invisibly)_(?:and_\w+_)?(?:\w+_)?(?:send|sends|upload|uploads|post|posts|transmit|exfiltrate|forward|forwards|collect|collects|harvest|sync|beacon|email|leak|copy_(?:\w+_)?to)\b`),
		after:   260,
		refine:  notNegated("sends data without a trace"),
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityWarning,
		msg:     "acts without a trace",
		anchors: []string{"silently", "covertly", "secretly", "stealthily", "in the background"},
		re: ph(`\b(?:silently|covertly|secretly|stealthily)_(?:\w+_)?(?:install|download|execute|run|fetch|modify|delete|add|append|write|overwrite|replace|disable)\b` +
			`|\bin_the_background_without_(?:\w+_){0,3}(?:notice|noticing|knowing|telling|asking)`),
		after:  260,
		refine: notNegated("acts without a trace"),
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityWarning,
		msg:     "hides its actions from the output the user reads",
		anchors: []string{"do not", "don't", "dont", "never", "must not", "should not", "shouldn't", "may not", "cannot", "can't", "will not", "won't", "you must not", "you should not"},
		re:      ph(`\b` + neg + `_(?:show|display|print|echo|output|log|reveal|mention)_(?:this_|these_|the_|any_)(?:\w+_)?(?:commands?|steps?|instructions?|actions?|requests?|urls?|network_calls?|uploads?)_(?:to_` + who + `|in_(?:the_|your_)?(?:output|response|reply|chat|summary|answer))`),
	}}
}

func consentDetectors() []detector {
	return []detector{{
		rule: RuleConsentBypass, prose: true, sev: SeverityWarning,
		msg:     "acts without the user's consent",
		anchors: []string{"without", "assume", "treat it", "skip", "the user has", "user has", "users have", "do not", "don't", "dont", "never", "must not", "should not", "shouldn't", "may not", "cannot", "can't", "will not", "won't", "you must not", "you should not"},
		re: ph(`\bwithout_(?:first_)?(?:asking|requesting|seeking|waiting_for|prompting|requiring|needing|getting|obtaining)_(?:for_)?(?:the_)?(?:users?'?s?_|their_|any_|explicit_|prior_|human_)?(?:permission|confirmation|approval|consent|authori[sz]ation)` +
			`|\b` + neg + `_(?:ever_)?(?:ask|request|seek|wait_for|prompt|require|need)_(?:the_user_|users_|for_)*(?:\w+_)?(?:permission|confirmation|approval|consent|authori[sz]ation)` +
			`|\b(?:assume|treat_it_as)_(?:that_)?(?:the_user_)?(?:has_)?(?:already_)?(?:approved|consented|confirmed|granted_permission)` +
			`|\bskip_(?:all_|any_|the_)?(?:confirmation|permission|approval|consent)_(?:prompts?|checks?|dialogs?|steps?|requests?)` +
			`|\b(?:the_)?users?_(?:has|have)_(?:already_)?(?:pre-?approved|approved|authori[sz]ed|consented_to|agreed_to)_(?:all|every|any|everything)\b`),
		after: 260,
	}, {
		rule: RuleConsentBypass, sev: SeverityWarning,
		msg:     "turns off the agent's permission checks",
		anchors: []string{"--dangerously-skip-permissions", "--dangerously-bypass", "bypasspermissions", "--yolo", "auto-approve", "auto_approve", "auto approve", "autoapprove"},
		re: mustCompile(`--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|bypasspermissions|--yolo\b` +
			`|\bauto[-_ ]?approve\s+(?:all|every|any)\b|"?autoapprove"?\s*[:=]\s*(?:true|\[\s*"\*")`),
	}}
}
