package lint

// destructiveDetectors find commands that destroy what cannot be
// restored. A path below home or root ("rm -rf ~/.cache") is ordinary
// cleaning and no finding; home or root itself is.
func destructiveDetectors() []detector {
	return []detector{{
		rule: RuleDestructive, sev: SeverityError,
		msg:     "deletes the home folder or the filesystem's root",
		anchors: []string{"rm "},
		re:      mustCompile(`\brm\s+(?:-[a-z]+\s+|--[a-z-]+\s+)*-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\s+(?:-[a-z]+\s+|--[a-z-]+\s+)*["']?(?:~|\$home|\$\{home\}|/|/\*|~/\*|\$home/\*|/home|/users|/etc|/usr|/var|/system|c:\\?)/?["']?(?:\s*$|[ \t]*(?:\n|[;&|)\x60])|\s+[^\s/.~$a-z])`),
		after:   200,
	}, {
		rule: RuleDestructive, sev: SeverityError,
		msg:     "deletes the home folder or the filesystem's root",
		anchors: []string{"--no-preserve-root"},
		re:      mustCompile(`--no-preserve-root\b`),
	}, {
		rule: RuleDestructive, sev: SeverityError,
		msg:     "overwrites or formats a whole disk",
		anchors: []string{"dd ", "mkfs", "diskutil", "format ", "wipefs", "shred "},
		re: mustCompile(`\bdd\s+[^\n]{0,80}?\bof=/dev/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d|xvd[a-z]|vd[a-z])` +
			`|\bmkfs(?:\.\w+)?\s+(?:-\S+\s+)*/dev/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|xvd[a-z]|vd[a-z])` +
			`|\bdiskutil\s+(?:erasedisk|erasevolume|zerodisk|secureerase)\b` +
			`|\bformat\s+[c-z]:(?:[ \t]*/[a-z:]+)+|\bformat\s+[c-z]:[ \t]*(?:\n|$)` +
			`|\bwipefs\s+(?:-\S+\s+)*/dev/|\bshred\s+(?:-\S+\s+)*/dev/`),
		after: 200,
	}, {
		rule: RuleDestructive, sev: SeverityError,
		msg:     "starts a fork bomb, which freezes the machine",
		anchors: []string{":(){", ":(){ ", "%0|%0"},
		re:      mustCompile(`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|%0\s*\|\s*%0`),
	}, {
		rule: RuleDestructive, sev: SeverityError,
		msg:     "deletes the user's profile or a system drive",
		anchors: []string{"remove-item", "rd ", "rmdir ", "del "},
		re: mustCompile(`\bremove-item\s+(?:-\w+\s+)*["']?(?:c:\\(?:users\\[^\\\s"']+\\?\*?|windows|\*)?|\$env:(?:userprofile|systemroot|homepath)|~)["']?(?:[ \t]+-\w+)*[ \t]*(?:\n|$|[;|])` +
			`|\b(?:rd|rmdir)\s+/s\s+/q\s+["']?(?:c:\\(?:users|windows)?|%userprofile%|%systemroot%)\\?["']?(?:\s|$)` +
			`|\bdel\s+/[a-z]\s+(?:/[a-z]\s+)*["']?(?:c:\\|%userprofile%)\\?\*`),
		after: 200,
	}, {
		rule: RuleDestructive, sev: SeverityWarning,
		msg:     "deletes a repository's history and force-pushes it",
		anchors: []string{"rm "},
		re:      mustCompile(`\brm\s+-(?:rf|fr)\s+\.git\b[^\n]{0,200}?(?:\n[^\n]{0,200}?){0,3}?\bgit\s+push\s+(?:-f|--force)\b`),
		after:   600,
	}, {
		rule: RuleDestructive, sev: SeverityError, prose: true,
		msg:     "tells the agent to delete the user's files",
		anchors: []string{"delete", "remove", "erase", "wipe"},
		re: ph(`\b(?:delete|remove|erase|wipe)_(?:all_|every_|the_)?(?:files?|folders|directories|contents?|data|everything)_(?:in|from|of|under)_(?:the_)?(?:users?'?s?_|their_|your_)?(?:home|documents|desktop|~|entire_disk|whole_disk|hard_drive|filesystem)` +
			`|\b(?:delete|remove|erase|wipe)_(?:all_|every_)?(?:of_)?the_users?'s?_(?:files|documents|photos|home_(?:directory|folder))`),
		after: 200,
	}}
}
