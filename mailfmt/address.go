package mailfmt

import (
	"strings"
	"unicode"
)

// normalize returns the addr-spec of addr ("alice@example.org", also given
// as "<alice@example.org>" or "Alice <alice@example.org>") with the domain
// lower-cased and a trailing dot removed, the local part as written; ""
// when addr is not a single address. Key builds on it.
func normalize(addr string) string {
	s := strings.TrimSpace(addr)
	if s == "" {
		return ""
	}
	spec := ""
	if a, err := addressParser.Parse(s); err == nil {
		spec = a.Address
	} else {
		// net/mail refuses some addresses seen in the wild (consecutive
		// dots, a trailing dot in the domain); accept a bare addr-spec
		// with nothing suspicious in it.
		s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
		if strings.ContainsFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`<>,;"()[]\`, r)
		}) || strings.Count(s, "@") != 1 {
			return ""
		}
		spec = s
	}
	at := strings.LastIndexByte(spec, '@')
	if at <= 0 {
		return ""
	}
	local, domain := spec[:at], strings.TrimSuffix(spec[at+1:], ".")
	if domain == "" {
		return ""
	}
	return local + "@" + strings.ToLower(domain)
}

// Key is the identity of a mail address: its addr-spec in lower case,
// local part included (as every major provider treats it; RFC 5321 would
// allow a case-sensitive one, which no provider players use has), or ""
// when addr is not a single address. Wherever bottlepost asks "is this the
// same mailbox" it compares Keys: the store's address index, the owner of a
// token, the rate limiter, the IMAP source's ordering of one sender's mail,
// the hub's accounts; and the service writes to players at their Key.
func Key(addr string) string {
	return strings.ToLower(normalize(addr))
}

// SameAddress reports whether a and b name the same mailbox: equal Keys.
// Two things that are not addresses are never the same.
func SameAddress(a, b string) bool {
	ka := Key(a)
	return ka != "" && ka == Key(b)
}

// PlusToken reads the sub-address of addr relative to base: for base
// "games@bottlepost.example", addr "games+k7q2m4x9@bottlepost.example"
// gives "k7q2m4x9". The local part before '+' and the domain are compared
// without case; the token is returned as written (everything after the
// first '+'), so tokens should use a case-insensitive alphabet: some mail
// systems change the case of addresses. ok is false when addr is not base
// plus a non-empty token.
func PlusToken(addr, base string) (token string, ok bool) {
	a, b := normalize(addr), normalize(base)
	if a == "" || b == "" {
		return "", false
	}
	aLocal, aDomain := splitAddress(a)
	bLocal, bDomain := splitAddress(b)
	if !strings.EqualFold(aDomain, bDomain) {
		return "", false
	}
	prefix := bLocal + "+"
	if len(aLocal) <= len(prefix) || !strings.EqualFold(aLocal[:len(prefix)], prefix) {
		return "", false
	}
	return aLocal[len(prefix):], true
}

// splitAddress splits a normalized address at its last '@'.
func splitAddress(a string) (local, domain string) {
	at := strings.LastIndexByte(a, '@')
	return a[:at], a[at+1:]
}
