package rules

// Notations beyond a variant's own (issue 34): a state may read another
// language's piece letters when the player asks for it, and write a move
// in ICCF numeric notation. Both are optional interfaces of a State, asked
// through ParseIn and ICCF, so that the game service needs no variant
// package.

// LanguageParser is implemented by states that read the piece letters of
// other languages (chess: German K D T L S), which only a player who
// chose that language may write.
type LanguageParser interface {
	// ParseIn is Parse, also reading the piece letters of language lang
	// (an ISO 639-1 code: "de"); for a language the state has no letters
	// of, it is Parse.
	ParseIn(text, lang string) (Move, error)
}

// ParseIn reads a move for the side to move as a player whose language is
// lang writes it: through the state's LanguageParser when it has one,
// otherwise with Parse. "" or "en" is Parse.
func ParseIn(s State, text, lang string) (Move, error) {
	if p, ok := s.(LanguageParser); ok && lang != "" && lang != "en" {
		return p.ParseIn(text, lang)
	}
	return s.Parse(text)
}

// ICCFWriter is implemented by states whose moves have an ICCF numeric
// form (chess: "5254" for e2-e4).
type ICCFWriter interface {
	// ICCF writes m, a move of this position, in ICCF numeric notation.
	ICCF(m Move) string
}

// ICCF writes m, a move of s, in ICCF numeric notation; ok is false for a
// variant without one.
func ICCF(s State, m Move) (text string, ok bool) {
	if w, is := s.(ICCFWriter); is {
		return w.ICCF(m), true
	}
	return "", false
}
