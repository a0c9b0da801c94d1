package lint

import "strings"

// foldLit is a literal as the rules read it: folded as text is, so that
// a phrase in Cyrillic or Greek meets its look-alike letters made ASCII.
func foldLit(s string) string { return string(newText(s, &textBuf{}).fold) }

// foldAlt is an alternation of literals, folded and quoted.
func foldAlt(words ...string) string {
	for i, w := range words {
		words[i] = strings.ReplaceAll(foldLit(w), " ", `\s+`)
	}
	return `(?:` + strings.Join(words, "|") + `)`
}

// intlDetectors find instruction override and concealment in the
// languages hostile skills are written in besides English. Phrases in
// scripts written without spaces are matched in windows, since their
// anchors do not start words.
func intlDetectors() []detector {
	ruVerb := foldAlt("игнорируй", "проигнорируй", "игнорируйте", "забудь", "забудьте", "отбрось")
	ruWhat := foldAlt("предыдущие", "прежние", "предшествующие", "все предыдущие", "все прежние", "системные")
	ruNoun := foldAlt("инструкции", "указания", "правила", "команды", "инструкций")
	return []detector{{
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to drop its instructions",
		anchors: []string{"ignora", "olvida", "omite", "descarta", "desconsidere", "esqueça", "esqueca", "ignore", "ignorez", "ignorer", "oublie", "ignoriere", "ignorieren", "vergiss", "vergessen", "dimentica"},
		re: ph(`\b(?:ignora|olvida|omite|descarta)(?:r|d)?_(?:todas?_)?(?:las_|los_|tus_|sus_)?(?:instrucciones|indicaciones|reglas|órdenes|directrices)_(?:anteriores|previas|originales|del_sistema)` +
			`|\b(?:ignore|ignora|esqueça|esqueca|desconsidere)_(?:todas_)?(?:as_)?(?:instruções|instrucoes|regras|orientações|orientacoes)_(?:anteriores|prévias|previas|originais)` +
			`|\b(?:ignore[sz]?|ignorer|oublie[sz]?|oublier)_(?:toutes_|tout_)?(?:les_|vos_|tes_)?(?:instructions|consignes|règles|regles|directives)_(?:précédentes|precedentes|antérieures|anterieures|initiales|d'origine|du_système)` +
			`|\b(?:ignoriere|ignorieren_sie|vergiss|vergessen_sie)_(?:alle_)?(?:vorherigen|bisherigen|vorigen|früheren|fruheren|obigen|ursprünglichen|ursprunglichen)_(?:anweisungen|instruktionen|regeln|befehle|vorgaben)` +
			`|\b(?:ignora|dimentica)_(?:tutte_)?(?:le_)?(?:istruzioni|regole)_(?:precedenti|originali)`),
		after: 200,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to drop its instructions",
		anchors: []string{foldLit("игнорируй"), foldLit("проигнорируй"), foldLit("забудь"), foldLit("отбрось")},
		re:      mustCompile(ruVerb + `\s+(?:` + foldLit("все") + `\s+)?` + ruWhat + `\s+` + ruNoun),
		after:   200,
	}, {
		// Dutch, Polish, Indonesian and Malay, Turkish, Vietnamese: each
		// match starts at its anchor, the verb or "önceki".
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to drop its instructions",
		anchors: []string{"negeer", "vergeet", "zignoruj", "ignoruj", "zapomnij", "abaikan", "lupakan", "önceki", "bỏ qua", "phớt lờ"},
		re: ph(`(?:negeer|vergeet)_(?:alle_)?(?:de_|je_|uw_)?(?:eerdere|vorige|voorgaande|oorspronkelijke)_(?:instructies|aanwijzingen|regels|opdrachten)` +
			`|(?:zignoruj|ignoruj)_(?:wszystkie_)?(?:poprzednie|wcześniejsze|wczesniejsze|dotychczasowe)_(?:instrukcje|polecenia|zasady|reguły|reguly)` +
			`|zapomnij_o_(?:wszystkich_)?(?:poprzednich|wcześniejszych|wczesniejszych)_(?:instrukcjach|poleceniach|zasadach)` +
			`|(?:abaikan|lupakan)_(?:semua_)?(?:instruksi|perintah|arahan|aturan)_(?:sebelumnya|terdahulu|sebelum_ini)` +
			`|önceki_(?:tüm_|bütün_)?(?:talimatları|talimatlari|komutları|komutlari|kuralları|kurallari|yönergeleri)_(?:yok_say|görmezden_gel|unut|dikkate_alma)` +
			`|(?:bỏ_qua|phớt_lờ)_(?:tất_cả_)?(?:các_|mọi_|những_)?(?:hướng_dẫn|chỉ_dẫn|chỉ_thị|lệnh|quy_tắc)_(?:trước_đó|trước|ban_đầu)`),
		after: 200,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:     "tells the agent to drop its instructions",
		anchors: []string{foldLit("ігноруй"), foldLit("проігноруй"), foldLit("ігноруйте"), foldLit("забудьте")},
		re: mustCompile(foldAlt("ігноруй", "проігноруй", "ігноруйте", "забудь", "забудьте") + `\s+(?:` + foldAlt("усі", "всі") + `\s+)?` +
			foldAlt("попередні", "попередніх") + `\s+` + foldAlt("інструкції", "вказівки", "правила", "команди", "інструкцій")),
		after: 200,
	}, {
		// Arabic and Hindi, whose words Go's \b does not bound.
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:    "tells the agent to drop its instructions",
		window: true, anchors: []string{foldLit("تجاهل"), foldLit("انس"), foldLit("निर्देशों"), foldLit("निर्देश")},
		re: mustCompile(foldAlt("تجاهل", "تجاهلي", "انس") + `[^\n.]{0,24}?` + foldAlt("التعليمات", "الأوامر", "الإرشادات", "التوجيهات") + `\s+` + foldAlt("السابقة", "الأصلية") +
			`|` + foldAlt("पिछले", "पूर्व", "पहले के") + `[^\n।]{0,24}?` + foldAlt("निर्देशों", "निर्देश", "आदेशों") + `[^\n।]{0,16}?` + foldAlt("अनदेखा", "नज़रअंदाज़", "नजरअंदाज", "भूल")),
		before: 80, after: 120,
	}, {
		rule: RuleInstructionOverride, prose: true, sev: SeverityError,
		msg:    "tells the agent to drop its instructions",
		window: true, anchors: []string{"忽略", "无视", "無視", "忘记", "忽视", "忘掉", "무시"},
		re: mustCompile(`(?:忽略|无视|忘记|忽视|忘掉)[^\n。]{0,8}?(?:之前|以上|先前|前面|上述|此前|原有|原来|所有)[^\n。]{0,6}?(?:指令|指示|说明|规则|規則|提示词|命令|设定)` +
			`|(?:これまで|以前|前|上記|先)の(?:すべての|全ての)?(?:指示|命令|ルール|指令)[^\n。]{0,8}?無視` +
			`|이전의?\s*(?:모든\s*)?(?:지시|명령|지침)[^\n.]{0,10}?무시`),
		before: 40, after: 40,
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:    "tells the agent to keep something from the user",
		window: true, anchors: []string{"不要", "别", "切勿", "勿", "ユーザー"},
		re: mustCompile(`(?:不要|别|切勿|勿|不得|不能)(?:告诉|通知|告知|提醒)(?:用户|使用者)` +
			`|(?:不要|别|切勿|勿|不得|不能)让(?:用户|使用者)(?:知道|发现|察觉|看到)` +
			`|(?:不要|别|切勿|勿|不得)(?:向|对)(?:用户|使用者)(?:提及|透露|说明|提到|显示)` +
			`|ユーザー(?:に|には)(?:伝え|知らせ|言わ|教え)ないで`),
		before: 20, after: 40,
	}, {
		rule: RuleSuppression, prose: true, sev: SeverityError,
		msg:     "tells the agent to keep something from the user",
		anchors: []string{"no ", "ne ", "n'", "sag", "erwähne", "erwahne"},
		re: ph(`\bno_(?:le_)?(?:digas|informes|menciones|cuentes|avises)_(?:nada_)?(?:de_esto_)?(?:al|a_los)_usuarios?` +
			`|\bne_(?:le_|lui_)?(?:dis|dites|mentionne[zs]?|signale[zs]?)_(?:rien_|pas_)(?:de_cela_)?(?:à|a)_l'utilisat(?:eur|rice)` +
			`|\b(?:sag|sagen_sie|erwähne|erwahne|erwähnen_sie)_(?:dem_|den_)?(?:benutzer|nutzer|anwender)n?_(?:nichts|gegenüber_nichts)`),
		after: 120,
	}}
}
