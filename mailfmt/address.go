package mailfmt

import (
	"strings"
	"unicode"
)

// Normalize returns the addr-spec of addr ("alice@example.org", also given
// as "<alice@example.org>" or "Alice <alice@example.org>") with the domain
// lower-cased and a trailing dot removed. The local part keeps its case:
// RFC 5321 section 2.4 lets a server treat it as case-sensitive, so replies
// go to exactly what the sender wrote. Compare addresses with SameAddress,
// which ignores case in the local part too, as every major provider does.
//
// Normalize returns "" when addr is not a single address.
func Normalize(addr string) string {
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

// Key is the identity of a mail address: Normalize's addr-spec in lower
// case, local part included (as every major provider treats it), or "" when
// addr is not a single address. Wherever bottlepost asks "is this the same
// mailbox" it compares Keys: the store's address index, the owner of a
// token, the rate limiter, the IMAP source's ordering of one sender's mail,
// the hub's accounts. Replies still go to the address as written
// (Normalize).
func Key(addr string) string {
	return strings.ToLower(Normalize(addr))
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
	a, b := Normalize(addr), Normalize(base)
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
