package mailer

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// When a sender's message fails (a system error: it stays for a retry),
// the sender's later mail is held back, not handled before it; other
// senders go on. Offered again as a retry, the failed one goes first and
// releases the rest.
func TestPipelineHoldsASendersMailBehindAFailure(t *testing.T) {
	msg := func(from, subject string) []byte {
		return []byte("From: " + from + "\r\nSubject: " + subject + "\r\n\r\nbody\r\n")
	}
	subjectOf := func(raw []byte) string {
		return string(raw[bytes.Index(raw, []byte("Subject: "))+9 : bytes.Index(raw, []byte("\r\n\r\n"))])
	}
	failing := true
	var handled []string
	var mu sync.Mutex
	handle := func(raw []byte) error {
		s := subjectOf(raw)
		if s == "a1" && failing {
			return errors.New("the store is busy")
		}
		mu.Lock()
		handled = append(handled, s)
		mu.Unlock()
		return nil
	}
	ok := func(uint32) error { return nil }
	p := newPipeline(4, handle, ok)
	p.add(1, msg("alice@x.test", "a1"), false)
	p.add(2, msg("bob@x.test", "b1"), false)
	p.add(3, msg("alice@x.test", "a2"), false)
	res, _ := p.finish()
	if res[1] == nil || res[3] != errNotHandled || res[2] != nil {
		t.Fatalf("first pass: a1 %v, b1 %v, a2 %v; want a1's error, b1 handled, a2 held back", res[1], res[2], res[3])
	}
	if strings.Join(handled, " ") != "b1" {
		t.Errorf("handled %q in the first pass, want only b1", handled)
	}
	// The next pass: alice is blocked until a1 (a retry) goes through.
	failing = false
	handled = nil
	p = newPipeline(4, handle, ok)
	p.block(mailfmt.FromKey(msg("alice@x.test", "")))
	p.add(1, msg("alice@x.test", "a1"), true)
	p.add(3, msg("alice@x.test", "a2"), false)
	res, _ = p.finish()
	if res[1] != nil || res[3] != nil || strings.Join(handled, " ") != "a1 a2" {
		t.Errorf("second pass: a1 %v, a2 %v, handled %q; want a1 then a2", res[1], res[3], handled)
	}
}
