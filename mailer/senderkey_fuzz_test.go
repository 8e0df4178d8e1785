package mailer

import (
	"strings"
	"testing"
)

// FuzzSenderKey: the IMAP source's look at the From field of raw mail (to
// keep one sender's mail in order) never panics, and mail whose From parses
// as an address is keyed by that address in lower case.
func FuzzSenderKey(f *testing.F) {
	f.Add([]byte("From: Alice <Alice@X.test>\r\nSubject: e4\r\n\r\nbody"))
	f.Add([]byte("From: =?utf-8?q?J=C3=BCrgen?= <j@x.test>\r\n\r\n"))
	f.Add([]byte("no header at all"))
	f.Add([]byte("From: \"broken\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		k := senderKey(raw)
		if k != strings.ToLower(k) {
			t.Errorf("key %q is not lower case", k)
		}
		if again := senderKey(raw); again != k {
			t.Errorf("key %q, then %q", k, again)
		}
	})
}
