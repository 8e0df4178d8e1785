package lang

// The lead's messages: the ones written while the other catalogs were
// being written (the language command, the once-a-day address rule).
func init() {
	add(German, map[string]string{
		// Other packages' errors a player reads (lang.Fail).
		"unknown ruleset %q (want %s or %s)":                  "unbekanntes Regelwerk %q (möglich: %s oder %s)",
		"unknown ruleset %q (the only one is %q)":             "unbekanntes Regelwerk %q (das einzige ist %q)",
		"unknown ruleset %q (Seachess has only \"standard\")": "unbekanntes Regelwerk %q (Seachess hat nur \"standard\")",
		"unknown ruleset %q (there is only %q)":               "unbekanntes Regelwerk %q (es gibt nur %q)",
		"unknown ruleset %q (there is only \"standard\")":     "unbekanntes Regelwerk %q (es gibt nur \"standard\")",
		"%s (%s) is not built yet":                            "%s (%s) ist noch nicht eingebaut",
		"%q is not a schedule (%s)":                           "%q ist kein Zeitplan (%s)",
		"%q is not a schedule: %s":                            "%q ist kein Zeitplan: %s",
		"%q is not a time control: write days per move (3d), moves in days (10/50d), optionally with grace (+2d)":                                                               "%q ist keine Bedenkzeit: schreiben Sie Tage pro Zug (3d), Züge in Tagen (10/50d), wahlweise mit Karenzzeit (+2d)",
		"%q: the number of moves must be at least 1":                                                                                                                            "%q: die Zahl der Züge muss mindestens 1 sein",
		"%q: a time control needs at least one day":                                                                                                                             "%q: eine Bedenkzeit braucht mindestens einen Tag",
		"a confirmation of a new address went out on %s: one goes out a day, the next from %s (a confirmation stays valid for %d days)":                                         "eine Bestätigung einer neuen Adresse ging am %s hinaus: eine geht pro Tag hinaus, die nächste ab %s (eine Bestätigung gilt %d Tage)",
		"Your mails are now written in German (language de); moves stay in each variant's notation, and in chess you may also write the German piece letters K, D, T, L and S.": "Ihre Mails sind jetzt auf Deutsch (language de); Züge bleiben in der Notation der jeweiligen Variante, und im Schach dürfen Sie auch die deutschen Figurenbuchstaben K, D, T, L und S schreiben.",
		"Your mails are now written in English (language en); moves stay in each variant's notation.":                                                                           "Your mails are now written in English (language en); moves stay in each variant's notation.",
		"%s (in %q)": "%s (in %q)",
		"write language de (Deutsch: your mails in German) or language en (English)": "schreiben Sie language de (Deutsch) oder language en (Englisch: your mails in English)",
	})
}
