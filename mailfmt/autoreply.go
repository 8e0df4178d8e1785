package mailfmt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// autoReplySubjects start the subjects that mail programs give their
// automatic answers when they add none of RFC 3834's fields (Outlook's and
// Exchange's out-of-office replies, many webmail vacation notices), in the
// languages they ship with. A subject that starts with one of them, as a
// whole word (followed by its end, a colon, a dash or a space), is an
// auto-reply: a person rarely starts a subject so, and answering a robot
// can only do harm (issue 35.1: a referee's out-of-office reply carried out
// a forged command). Compared case-insensitively; "Auto:" needs its colon
// ("Auto racing" is a subject a person writes).
var autoReplySubjects = []string{
	// English
	"out of office", "out of the office", "automatic reply", "auto:", "autoreply", "auto-reply", "auto reply",
	"automatic response", "auto response", "auto-response", "away from the office",
	// German
	"abwesenheitsnotiz", "automatische antwort", "abwesend", "automatische abwesenheitsnotiz",
	// French
	"absence du bureau", "réponse automatique", "absent du bureau", "message d'absence",
	// Spanish
	"respuesta automática", "fuera de la oficina", "fuera de oficina", "respuesta de fuera de la oficina",
	// Dutch
	"automatisch antwoord", "afwezigheidsbericht", "niet aanwezig", "afwezig",
	// Italian
	"risposta automatica", "fuori sede", "fuori ufficio", "fuori dall'ufficio",
	// Portuguese
	"resposta automática", "ausente do escritório", "fora do escritório",
	// Scandinavian, Finnish, Polish
	"automatiskt svar", "automatisk svar", "automatisk besked", "automaattinen vastaus", "odpowiedź automatyczna",
}

// autoReplySubject returns the start of subject that names it an automatic
// reply (autoReplySubjects), or "".
func autoReplySubject(subject string) string {
	s := strings.TrimLeftFunc(subject, unicode.IsSpace)
	for _, p := range autoReplySubjects {
		if len(s) < len(p) || !strings.EqualFold(s[:len(p)], p) {
			continue
		}
		if strings.HasSuffix(p, ":") {
			return s[:len(p)]
		}
		next, _ := utf8.DecodeRuneInString(s[len(p):])
		if len(s) == len(p) || next == ':' || next == '-' || next == '–' || unicode.IsSpace(next) {
			return s[:len(p)]
		}
	}
	return ""
}
