package game

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// Mail that nothing vouches for (trusted_authserv) is refused and its
// sender told why: once a UTC day per address, in a fixed text that carries
// nothing of the refused mail (not its subject, lines or Message-ID, no
// In-Reply-To, no reply address with a token), and asking the sender's
// reply allowance. A refused sender whose allowance is spent uses the day's
// answer all the same, so that forged mail cannot buy a second one. The
// answer is one of the day's WelcomesPerDay answers of first contact.
func TestUnverifiedMailIsAnsweredOnceADay(t *testing.T) {
	const server = "mail.club.test"
	const carol = "carol@example.com"
	f := newFixture(t, Config{TrustedAuthServ: server})
	// What a forger controls: every part of it is looked for in the answer.
	marks := []string{"SUBJECT-MARK", "forged-id-mark", "LINE-MARK", "carol@mark.test"}
	send := func(from string, allow func() Allowance, ar ...string) Result {
		t.Helper()
		f.seq++
		res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("forged-id-mark-%d@x", f.seq), From: from, Recipients: []string{f.svc.cfg.Address},
			Subject: "SUBJECT-MARK", Lines: []string{"new chess vs carol@mark.test", "LINE-MARK"}, AuthResults: ar, Allow: allow})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	yes := func() Allowance { return Allowance{OK: true} }
	no := func() Allowance { return Allowance{Notice: true} }
	steps := []struct {
		name    string
		advance time.Duration // the clock moves on first
		from    string
		allow   func() Allowance
		ar      []string
		answer  bool   // one mail to the sender
		why     string // in Result.Refused
	}{
		{"first unverified mail of the day", 0, alice, yes, nil, true, "authentication: no Authentication-Results from " + server},
		{"second, same day", time.Hour, alice, yes, []string{server + "; dkim=none"}, false, "the day's answer to the sender was sent"},
		{"another sender, same day", 0, eve, yes, []string{server + "; dkim=fail header.d=evil.test"}, true, "DKIM signature of evil.test failed"},
		{"submitted by another login", 0, bob, yes, []string{server + "; auth=pass smtp.auth=eve@evil.test"}, true, "submitted by the login eve@evil.test"},
		{"the next day", 24 * time.Hour, alice, yes, nil, true, "authentication:"},
		{"allowance spent: no answer, the day's taken", 24 * time.Hour, alice, no, nil, false, "authentication:"},
		{"… so none later that day either", time.Minute, alice, yes, nil, false, "the day's answer to the sender was sent"},
		// Welcomes and this answer share the day's WelcomesPerDay answers of
		// first contact: an address used for both gets no more in all.
		{"welcomed", 24 * time.Hour, carol, yes, []string{server + "; dkim=pass header.d=example.com"}, true, "no reply token"},
		{"welcomed again", 0, carol, yes, []string{server + "; dkim=pass header.d=example.com"}, true, "no reply token"},
		{"welcomed a third time", 0, carol, yes, []string{server + "; dkim=pass header.d=example.com"}, true, "no reply token"},
		{"unverified after the day's welcomes", 0, carol, yes, nil, false, "authentication: no Authentication-Results from " + server + "; the day's welcomes to the sender were sent"},
	}
	for _, s := range steps {
		f.now = f.now.Add(s.advance)
		res := send(s.from, s.allow, s.ar...)
		out := f.drain()
		if !strings.Contains(res.Refused, s.why) {
			t.Errorf("%s: refused %q, want it to say %q", s.name, res.Refused, s.why)
		}
		if n := map[bool]int{true: 1, false: 0}[s.answer]; len(out) != n {
			t.Errorf("%s: %d mails, want %d", s.name, len(out), n)
			continue
		}
		if !s.answer {
			continue
		}
		m := out[0]
		if s.from == carol {
			continue // welcomes
		}
		if m.To != s.from || m.Subject != "bottlepost: your mail was not acted on" {
			t.Errorf("%s: mail to %s, subject %q", s.name, m.To, m.Subject)
		}
		if text := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(text, "was not acted on: the mail server "+server+" did not confirm") || !strings.Contains(text, "at most once a day") {
			t.Errorf("%s: the answer does not say why:\n%s", s.name, m.Text)
		}
		if m.InReplyTo != "" || m.References != "" || m.ReplyTo != "" {
			t.Errorf("%s: In-Reply-To %q, References %q, Reply-To %q; want none", s.name, m.InReplyTo, m.References, m.ReplyTo)
		}
		for _, mark := range marks {
			if bytes.Contains(m.Raw, []byte(mark)) {
				t.Errorf("%s: the answer carries %q from the refused mail:\n%s", s.name, mark, m.Raw)
			}
		}
	}
	// Nothing was acted on: no challenge, no player.
	f.st.View(func(tx *store.Tx) error {
		if _, err := tx.PlayerByAddress(alice); err == nil {
			t.Errorf("a player was made from unverified mail")
		}
		return nil
	})
}

// The club's submission port vouches for its member's own address
// (auth=pass smtp.auth=ADDRESS, docs/deploy.md), for no other.
func TestAuthenticationResultsOfTheSubmissionPort(t *testing.T) {
	const server = "mail.club.test"
	for _, tt := range []struct {
		name, from string
		ar         []string
		want       string // "" acted on, else in the reason
	}{
		{"the login is the sender", "alice@club.test", []string{server + "; auth=pass smtp.auth=alice@club.test"}, ""},
		{"… in other case and with a display name", "Alice <Alice@Club.test>", []string{server + "; auth=pass (plain) smtp.auth=alice@club.test"}, ""},
		{"another login of the domain", "alice@club.test", []string{server + "; auth=pass smtp.auth=eve@club.test"}, "submitted by the login eve@club.test"},
		{"a login without domain", "alice@club.test", []string{server + "; auth=pass smtp.auth=alice"}, "submitted by the login alice,"},
		{"auth failed", "alice@club.test", []string{server + "; auth=fail smtp.auth=alice@club.test"}, "nothing vouches"},
		{"another server's auth pass", "alice@club.test", []string{"evil.test; auth=pass smtp.auth=alice@club.test"}, "no Authentication-Results from " + server},
		{"a forged pass below the server's own", "alice@club.test", []string{server + "; auth=pass smtp.auth=eve@club.test", server + "; auth=pass smtp.auth=alice@club.test"}, "submitted by the login eve@club.test"},
		{"dkim none and nothing else", "alice@club.test", []string{server + "; dkim=none"}, "nothing vouches for the sender's domain club.test"},
		{"no trusted server set", "alice@club.test", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			authserv := server
			if tt.name == "no trusted server set" {
				authserv = ""
			}
			got := Unvouched(authserv, tt.from, tt.ar)
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Unvouched = %q, want %q", got, tt.want)
			}
		})
	}
}

// A first mail to the bare address is answered with the welcome: the log
// says so, not that the message was refused.
func TestWelcomeIsLoggedAsAWelcome(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "bp.key")
	os.WriteFile(key, bytes.Repeat([]byte{7}, 32), 0o600)
	st, err := store.Open(filepath.Join(dir, "bp.db"), store.Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs bytes.Buffer
	svc, err := New(Config{Address: "games@bottlepost.test"}, Options{Store: st, Rand: rand.NewChaCha8([32]byte{9}),
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for i, lines := range [][]string{{"new chess vs bob@example.net"}, {"hello"}} {
		res, err := svc.Handle(&Incoming{MessageID: fmt.Sprintf("w%d@x", i), From: alice, Recipients: []string{"games@bottlepost.test"}, Lines: lines})
		if err != nil || res.Mails != 1 {
			t.Fatalf("first mail %d: %+v, %v; want the welcome", i, res, err)
		}
	}
	if got := strings.Count(logs.String(), `msg="first mail answered with the welcome"`); got != 2 || strings.Contains(logs.String(), "message refused") {
		t.Errorf("log:\n%s\nwant two lines saying the welcome was sent, none that the message was refused", logs.String())
	}
}
