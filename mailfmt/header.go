package mailfmt

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"
)

// maxEncodedWord bounds the encoded words encodeText writes: with the field
// name ("Subject: ", a display name before "<address>") a word still fits in
// the 78 characters RFC 5322 section 2.1.1 recommends per line, so
// go-message's folding (which folds only at white space) can keep every line
// short. RFC 2047 section 2 allows up to 75.
const maxEncodedWord = 60

// encodeText returns s as it goes into a header field: as it is when it is
// printable ASCII, otherwise as Q-encoded UTF-8 words (RFC 2047) of at most
// maxEncodedWord characters separated by spaces, which decoders drop
// between encoded words. Only letters, digits and "!*+-/" stay as they are,
// so a word is also safe in a display name (RFC 2047 section 5 (3)), and
// CR and LF can never end a field. Text that merely looks like an encoded
// word ("=?") is encoded too, so that it reads back as written.
func encodeText(s string) string {
	if !needsEncoding(s) {
		return s
	}
	const prefix, suffix = "=?utf-8?q?", "?="
	var words []string
	var w strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		q := qEncode(r)
		if w.Len() > 0 && len(prefix)+w.Len()+len(q)+len(suffix) > maxEncodedWord {
			words = append(words, prefix+w.String()+suffix)
			w.Reset()
		}
		w.WriteString(q)
	}
	words = append(words, prefix+w.String()+suffix)
	return strings.Join(words, " ")
}

// encodeSubject returns an unstructured field's text (a subject) as it
// goes into the header: its words up to the first that is not printable
// ASCII as they are, the rest as encodeText writes it. So the subject's
// start ("[bp-12] your move (12.)") stays readable in the raw header, for
// filters and tools that read it undecoded, whatever follows it (a "·", a
// name with accents).
func encodeSubject(s string) string {
	words := strings.Split(s, " ")
	for k, w := range words {
		if needsEncoding(w) {
			if k == 0 {
				return encodeText(s)
			}
			return strings.Join(words[:k], " ") + " " + encodeText(strings.Join(words[k:], " "))
		}
	}
	return s
}

// qEncode is one character in the Q encoding of a display name.
func qEncode(r rune) string {
	switch {
	case r == ' ':
		return "_"
	case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', strings.ContainsRune("!*+-/", r):
		return string(r)
	}
	var b [utf8.UTFMax]byte
	var out strings.Builder
	for _, c := range b[:utf8.EncodeRune(b[:], r)] {
		fmt.Fprintf(&out, "=%02X", c)
	}
	return out.String()
}

// needsEncoding reports whether s cannot go into a header field as it is:
// bytes outside printable ASCII (tab aside), or "=?", which a reader would
// take for the start of an encoded word.
func needsEncoding(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c > '~') && c != '\t' {
			return true
		}
	}
	return strings.Contains(s, "=?")
}

// formatAddress writes a name-addr for a header field: the display name
// quoted when it has specials, encoded (encodeText) when it is not ASCII.
func formatAddress(a mail.Address) string {
	if a.Name == "" || !needsEncoding(a.Name) {
		return a.String()
	}
	return encodeText(a.Name) + " " + (&mail.Address{Address: a.Address}).String()
}
