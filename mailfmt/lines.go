package mailfmt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lines returns the command lines of a message body: what the sender wrote,
// without what the mail client added or quoted.
//
// Reading top to bottom, the first of these ends the commands (it and
// everything below it is dropped):
//
//   - a signature separator: "-- ", or "--" (HTML and some clients lose the
//     space);
//   - a separator such as "-----Original Message-----", "-------- Original
//     message --------" (Samsung), "---------- Forwarded message ---------"
//     (Gmail) or a localized one, or "Begin forwarded message:" (Apple);
//   - a reply header block: a "From:" (or "Sent:"/"Date:") line with,
//     within a few lines, the other of the two and a "To:" or "Subject:"
//     line (Outlook and many others, also localized: "Von:/Gesendet:/An:/
//     Betreff:", "De :/Envoyé :/À :/Objet :", …), together with a line of
//     underscores or dashes just above it;
//   - a mobile footer: "Sent from my iPhone", "Get Outlook for Android",
//     "Von meinem iPhone gesendet", "Envoyé de mon iPhone", …;
//   - an attribution line ("On <date>, <name> wrote:", "Am <date> schrieb
//     <name>:", "Le <date>, <name> a écrit :", …; up to three lines when
//     the client wrapped it) that is not followed by '>'-quoted lines.
//
// Elsewhere, lines quoted with '>' are dropped, and so is an attribution
// line (also a bare "<name> wrote:") directly above quoted lines, so that
// answers written between quotes survive.
//
// Each remaining line is trimmed, its runs of white space (including
// no-break and other Unicode spaces) are collapsed to one space, invisible
// format characters (zero-width spaces, byte order marks) are removed, and
// empty lines are dropped. Finally a closing salutation ("Regards,",
// "Viele Grüße") among the last lines, followed only by a few short lines
// (a name), is dropped with them.
//
// Case is kept: "Bxc3" and "bxc3" are different moves. Bytes that are not
// UTF-8 become U+FFFD.
func Lines(body string) []string {
	raw := strings.Split(normalizeNewlines(strings.ToValidUTF8(body, "\uFFFD")), "\n")
	for i, l := range raw {
		raw[i] = stripInvisible(l)
	}
	norm := make([]string, len(raw))
	kinds := make([]int, len(raw))
	for i, l := range raw {
		norm[i] = collapseSpace(l)
		kinds[i] = headerKind(norm[i])
	}

	drop := make([]bool, len(raw))
	cut := len(raw)
scan:
	for i := 0; i < len(raw); i++ {
		switch {
		case isQuoted(raw[i]):
			drop[i] = true
		case isSignatureSeparator(raw[i]):
			cut = i
			break scan
		case strings.HasPrefix(norm[i], "--") && separatorRe.MatchString(norm[i]),
			strings.HasSuffix(norm[i], ":") && forwardIntroRe.MatchString(norm[i]):
			cut = i
			break scan
		case isHeaderBlock(kinds, i):
			cut = i
			break scan
		case mobileFooterRe.MatchString(norm[i]):
			cut = i
			break scan
		default:
			n, localized := attribution(norm, i)
			if n == 0 {
				continue
			}
			if next := nextNonEmpty(raw, i+n); next < len(raw) && isQuoted(raw[next]) {
				for j := i; j < i+n; j++ {
					drop[j] = true
				}
				i += n - 1
				continue
			}
			if localized {
				cut = i
				break scan
			}
		}
	}
	// A rule line (underscores, dashes) just above a cut belongs to it.
	for cut > 0 && cut < len(raw) {
		j := cut - 1
		for j >= 0 && norm[j] == "" {
			j--
		}
		if j < 0 || !ruleLineRe.MatchString(norm[j]) {
			break
		}
		cut = j
	}

	var out []string
	for i := 0; i < cut; i++ {
		if !drop[i] && norm[i] != "" {
			out = append(out, norm[i])
		}
	}
	return dropSignOff(out)
}

// maxSignOffName is how many short lines (a name, a town) may follow a
// closing salutation for it to count as a sign-off.
const maxSignOffName = 3

// dropSignOff removes a closing salutation ("Regards,", "Viele Grüße")
// among the last lines when only short lines follow it: a sign-off without
// a "-- " separator.
func dropSignOff(lines []string) []string {
	for k := max(0, len(lines)-maxSignOffName-1); k < len(lines); k++ {
		if !closingRe.MatchString(lines[k]) {
			continue
		}
		short := true
		for _, l := range lines[k+1:] {
			if utf8.RuneCountInString(l) > 40 {
				short = false
			}
		}
		if short {
			return lines[:k]
		}
	}
	return lines
}

// isQuoted reports a line quoted with '>' (after optional indentation).
func isQuoted(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), ">")
}

// isSignatureSeparator reports "-- " (RFC 3676 section 4.3) and "--".
func isSignatureSeparator(line string) bool {
	return strings.TrimRightFunc(line, unicode.IsSpace) == "--"
}

// The regular expressions below match lines whose white space has been
// collapsed. Localized forms were taken from real mail and from the
// patterns of mail-reply parsers (mailgun/talon, alfonsrv/mail-parser-reply);
// docs/mail.md lists them.
var (
	// separatorRe: "-----Original Message-----" and relatives.
	separatorRe = regexp.MustCompile(`(?i)^-{2,} ?(?:original message|reply message|forwarded message|` +
		`ursprüngliche nachricht|antwort nachricht|weitergeleitete nachricht|` +
		`message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|` +
		`oprindelig meddelelse|mensagem original) ?-{2,}$`)

	// forwardIntroRe: Apple Mail's forward introduction.
	forwardIntroRe = regexp.MustCompile(`(?i)^(?:begin forwarded message|anfang der weitergeleiteten nachricht) ?:$`)

	// mobileFooterRe: the footers phones and mail apps append.
	mobileFooterRe = regexp.MustCompile(`(?i)^(?:` +
		`sent from my \S.{0,60}|` +
		`sent from (?:outlook|mail|yahoo mail|aol|gmail|proton ?mail|samsung)\b.{0,60}|` +
		`sent with proton ?mail\b.{0,60}|` +
		`get outlook for (?:ios|android)\b.{0,60}|` +
		`von meinem \S.{0,60} gesendet\.?|` +
		`gesendet von (?:meinem )?\S.{0,60}|` +
		`envoyé (?:de mon|depuis) \S.{0,60}|` +
		`enviado desde mi \S.{0,60}|` +
		`inviato da \S.{0,60}|` +
		`verzonden (?:vanaf|met) \S.{0,60}` +
		`)$`)

	// attributionRe: localized "On <date>, <name> wrote:" lines.
	attributionRe = regexp.MustCompile(`(?i)^(?:` +
		`on .+ wrote|` + // English
		`am .+ schrieb(?: .+)?|` + // German
		`le .+ a écrit|` + // French
		`el .+ escribió|` + // Spanish
		`il .+ ha scritto|` + // Italian
		`op .+ schreef(?: .+)?|` + // Dutch
		`em .+ escreveu|` + // Portuguese
		`(?:den|på) .+ skrev(?: .+)?|` + // Danish, Norwegian, Swedish
		`(?:w dniu|dnia) .+ (?:napisał\(a\)|napisał|napisała|nadesłał)(?: .+)?` + // Polish
		`) ?:$`)

	// attributionStartRe: how the lines matched by attributionRe begin.
	attributionStartRe = regexp.MustCompile(`(?i)^(?:on|am|le|el|il|op|em|den|på|w dniu|dnia) `)

	// quoterRe: a bare "<name> wrote:", an attribution only when quoted
	// lines follow.
	quoterRe = regexp.MustCompile(`(?i)^.{1,200} (?:wrote|writes|schrieb|a écrit|escribió|ha scritto|schreef|escreveu|skrev) ?:$`)

	// closingRe: closing salutations, for dropSignOff.
	closingRe = regexp.MustCompile(`(?i)^(?:` +
		`best regards|kind regards|warm regards|regards|best wishes|best|cheers|thanks|thank you|` +
		`many thanks|all the best|sincerely|yours|` +
		`mit freundlichen grüßen|freundliche grüße|viele grüße|beste grüße|liebe grüße|` +
		`schöne grüße|grüße|gruß|lg|vg|mfg|` +
		`cordialement|bien cordialement|bien à vous|salutations|amitiés|` +
		`saludos|un saludo|atentamente|cordiali saluti|saluti|` +
		`met vriendelijke groet|met vriendelijke groeten|groeten|` +
		`med vänliga hälsningar|vänliga hälsningar|hälsningar|med venlig hilsen|hilsen|mvh|` +
		`pozdrawiam|atenciosamente|abraços` +
		`)[ ,.!]*$`)

	// ruleLineRe: Outlook's line of underscores and similar rules.
	ruleLineRe = regexp.MustCompile(`^(?:_{5,}|-{5,}|={5,}|—{5,})$`)

	// Reply header block keys.
	headerFromRe  = regexp.MustCompile(`(?i)^\*?(?:from|von|de|van|da|fra|från|od|发件人)\*? ?:`)
	headerDateRe  = regexp.MustCompile(`(?i)^\*?(?:sent|date|gesendet|datum|envoyé|date d'envoi|enviado|fecha|inviato|data|verzonden|sendt|skickat|wysłano|发送时间)\*? ?:`)
	headerOtherRe = regexp.MustCompile(`(?i)^\*?(?:to|subject|cc|an|betreff|à|objet|para|asunto|a|oggetto|aan|onderwerp|til|emne|till|ämne|do|temat|收件人|主题)\*? ?:`)
)

// maxAttributionLines is how many lines a wrapped attribution may span.
const maxAttributionLines = 3

// attribution reports whether lines[i] starts an attribution line and how
// many lines it spans (0: none); localized is true for the "On … wrote:"
// family, false for a bare "<name> wrote:". Only the localized family may
// be wrapped over several lines, and only from a line that starts like one.
func attribution(lines []string, i int) (n int, localized bool) {
	if strings.HasSuffix(lines[i], ":") {
		if attributionRe.MatchString(lines[i]) {
			return 1, true
		}
		if quoterRe.MatchString(lines[i]) {
			return 1, false
		}
		return 0, false
	}
	if !attributionStartRe.MatchString(lines[i]) {
		return 0, false
	}
	joined := lines[i]
	for k := 1; k < maxAttributionLines && i+k < len(lines); k++ {
		l := lines[i+k]
		if l == "" || strings.HasPrefix(l, ">") {
			break
		}
		joined += " " + l
		if len(joined) > 400 {
			break
		}
		if attributionRe.MatchString(joined) {
			return k + 1, true
		}
		if strings.HasSuffix(l, ":") {
			break
		}
	}
	return 0, false
}

// Kinds of reply header lines, for isHeaderBlock.
const (
	headerNone = iota
	headerFrom
	headerDate
	headerOther
)

// headerKind tells which reply header key, if any, starts line.
func headerKind(line string) int {
	if !strings.Contains(line, ":") {
		return headerNone
	}
	switch {
	case headerFromRe.MatchString(line):
		return headerFrom
	case headerDateRe.MatchString(line):
		return headerDate
	case headerOtherRe.MatchString(line):
		return headerOther
	}
	return headerNone
}

// isHeaderBlock reports whether line i starts a reply header block: it is
// a "From:" or "Sent:"/"Date:" line, and it and the next six lines hold
// all three of a "From:" line, a "Sent:"/"Date:" line and a
// "To:"/"Subject:"/"Cc:" line. kinds holds headerKind of every line.
func isHeaderBlock(kinds []int, i int) bool {
	if kinds[i] != headerFrom && kinds[i] != headerDate {
		return false
	}
	var seen [4]bool
	for j := i; j < len(kinds) && j <= i+6; j++ {
		seen[kinds[j]] = true
	}
	return seen[headerFrom] && seen[headerDate] && seen[headerOther]
}

// nextNonEmpty returns the index of the first line at or after i that is
// not blank, or len(lines).
func nextNonEmpty(lines []string, i int) int {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return i
}

// stripInvisible removes format characters (zero-width spaces and joiners,
// byte order marks, bidi marks) and replaces other control characters but
// tab with spaces.
func stripInvisible(s string) string {
	clean := true
	for _, r := range s {
		if (r != '\t' && unicode.IsControl(r)) || unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.Is(unicode.Cf, r):
			return -1
		case r != '\t' && unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
}

// collapseSpace trims s and collapses each run of Unicode white space to
// one ASCII space.
func collapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}
