package lang

// The lead's messages: the ones written while the other catalogs were
// being written (the language command, the once-a-day address rule).
func init() {
	add(German, map[string]string{
		"a confirmation of a new address went out on %s: one goes out a day, the next from %s (a confirmation stays valid for %d days)":                                         "eine Bestätigung einer neuen Adresse ging am %s hinaus: eine geht pro Tag hinaus, die nächste ab %s (eine Bestätigung gilt %d Tage)",
		"Your mails are now written in German (language de); moves stay in each variant's notation, and in chess you may also write the German piece letters K, D, T, L and S.": "Ihre Mails sind jetzt auf Deutsch (language de); Züge bleiben in der Notation der jeweiligen Variante, und im Schach dürfen Sie auch die deutschen Figurenbuchstaben K, D, T, L und S schreiben.",
		"Your mails are now written in English (language en); moves stay in each variant's notation.":                                                                           "Your mails are now written in English (language en); moves stay in each variant's notation.",
		"%s (in %q)": "%s (in %q)",
		"write language de (Deutsch: your mails in German) or language en (English)": "schreiben Sie language de (Deutsch) oder language en (Englisch: your mails in English)",
	})
}
