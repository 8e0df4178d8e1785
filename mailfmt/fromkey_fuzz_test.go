package mailfmt

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzFromKey: the IMAP source's look at the From field of raw mail (to
// keep one sender's mail in order) never panics, is lower case and stable,
// and names the sender Parse reads whenever Parse accepts the mail.
func FuzzFromKey(f *testing.F) {
	f.Add([]byte("From: Alice <Alice@X.test>\r\nSubject: e4\r\n\r\nbody"))
	f.Add([]byte("From: =?utf-8?q?J=C3=BCrgen?= <j@x.test>\r\n\r\n"))
	f.Add([]byte("no header at all"))
	f.Add([]byte("From: \"broken\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		k := FromKey(raw)
		if k != strings.ToLower(k) {
			t.Errorf("key %q is not lower case", k)
		}
		if again := FromKey(raw); again != k {
			t.Errorf("key %q, then %q", k, again)
		}
		if m, err := Parse(bytes.NewReader(raw), 1<<20); err == nil && Key(m.From.Address) != "" && Key(m.From.Address) != k {
			t.Errorf("FromKey %q, but Parse reads the sender %q", k, m.From.Address)
		}
	})
}
