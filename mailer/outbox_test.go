package mailer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"github.com/bottlepost/bottlepost/store"
)

// scriptSMTP is an in-process SMTP server whose answers the test scripts.
type scriptSMTP struct {
	addr       string
	user, pass string // when user is set, mail is refused until AUTH

	mu       sync.Mutex
	datas    int      // DATA commands begun
	accepted []string // subjects of the accepted mails, in order
	// mail, rcpt and data, when set, answer MAIL FROM, RCPT TO and the end
	// of DATA (nil accepts); n counts DATA commands, this one included.
	mail func(from string) error
	rcpt func(to string) error
	data func(n int, r io.Reader, conn *smtp.Conn) error
}

func startScriptSMTP(t *testing.T, sc *scriptSMTP) *scriptSMTP {
	t.Helper()
	srv := smtp.NewServer(scriptBackend{sc})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sc.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	// Closing the listener too: a Close that races with Serve's start would
	// otherwise leave Serve waiting for ever.
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return sc
}

func (sc *scriptSMTP) stats() (datas int, accepted []string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.datas, append([]string(nil), sc.accepted...)
}

type scriptBackend struct{ sc *scriptSMTP }

func (b scriptBackend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &scriptSession{sc: b.sc, conn: c}, nil
}

type scriptSession struct {
	sc     *scriptSMTP
	conn   *smtp.Conn
	authed bool
}

func (s *scriptSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *scriptSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if s.sc.user == "" || user != s.sc.user || pass != s.sc.pass {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *scriptSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.sc.user != "" && !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	if f := s.sc.mail; f != nil {
		return f(from)
	}
	return nil
}

func (s *scriptSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if f := s.sc.rcpt; f != nil {
		return f(to)
	}
	return nil
}

func (s *scriptSession) Data(r io.Reader) error {
	s.sc.mu.Lock()
	s.sc.datas++
	n := s.sc.datas
	s.sc.mu.Unlock()
	var msg []byte
	if f := s.sc.data; f != nil {
		var buf strings.Builder
		if err := f(n, io.TeeReader(r, &buf), s.conn); err != nil {
			return err
		}
		rest, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		msg = append([]byte(buf.String()), rest...)
	} else {
		var err error
		if msg, err = io.ReadAll(r); err != nil {
			return err
		}
	}
	s.sc.mu.Lock()
	s.sc.accepted = append(s.sc.accepted, subjectOf(appendCRLF(nil, msg)))
	s.sc.mu.Unlock()
	return nil
}

func (s *scriptSession) Reset()        {}
func (s *scriptSession) Logout() error { return nil }

var (
	errTemporary = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	errPermanent = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
)

// outboxFixture is an Outbox on a fresh store with a settable clock.
type outboxFixture struct {
	o     *Outbox
	st    *store.Store
	clock *fakeClock
	logs  *syncBuffer
	t0    time.Time

	mu        sync.Mutex
	delivered []uint64
}

func newOutboxFixture(t *testing.T, cfg smtpclient.Config) *outboxFixture {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "bottlepost.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if cfg.Security == "" {
		cfg.Security = "plain"
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	sender, err := smtpclient.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	logger, logs := captureLog()
	f := &outboxFixture{st: st, logs: logs, t0: time.Date(2025, 3, 3, 10, 0, 0, 0, time.UTC)}
	f.clock = &fakeClock{t: f.t0}
	f.o = &Outbox{Queue: boltQueue{st}, Sender: sender, Log: logger, Now: f.clock.now, MaxAttempts: 10,
		Backoff: time.Minute, Ceiling: 3 * time.Minute,
		Delivered: func(m Queued) {
			f.mu.Lock()
			f.delivered = append(f.delivered, m.ID)
			f.mu.Unlock()
		}}
	t.Cleanup(f.o.Close)
	return f
}

func (f *outboxFixture) enqueue(t *testing.T, subject string, to ...string) uint64 {
	t.Helper()
	if len(to) == 0 {
		to = []string{"alice@example.org"}
	}
	m := &store.Mail{From: "games@example.org", To: to, Data: testMail(subject, 0), Created: f.clock.now()}
	if err := f.st.Update(func(tx *store.Tx) error { return tx.Enqueue(m) }); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// all lists the whole outbox, due or not, given up included.
func (f *outboxFixture) all(t *testing.T) map[uint64]store.Mail {
	t.Helper()
	var ms []store.Mail
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		ms, err = tx.PendingMail(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	out := map[uint64]store.Mail{}
	for _, m := range ms {
		out[m.ID] = m
	}
	return out
}

// want checks one mail is still in the outbox with these attempts and next
// try, and its last error says what it should; it returns the next try.
// A next try after now may come up to a tenth of its wait sooner (the
// backoff's jitter); the zero time (untouched) must be exact.
func (f *outboxFixture) want(t *testing.T, id uint64, attempts uint32, next time.Time, errHas string) time.Time {
	t.Helper()
	m, ok := f.all(t)[id]
	if !ok {
		t.Fatalf("mail %d left the outbox", id)
	}
	early := next.Sub(f.clock.now()) / 10
	if next.IsZero() {
		early = 0
	}
	if m.Attempts != attempts || m.NextTry.After(next) || m.NextTry.Before(next.Add(-early)) || m.NextTry.IsZero() != next.IsZero() ||
		!strings.Contains(m.LastError, errHas) {
		t.Errorf("mail %d: attempts %d, next try %v, last error %q; want %d, %v (or up to %v sooner), …%s…",
			id, m.Attempts, m.NextTry.Sub(f.t0), m.LastError, attempts, next.Sub(f.t0), early, errHas)
	}
	return m.NextTry
}

func (f *outboxFixture) drain(t *testing.T) (int, error) {
	t.Helper()
	return f.o.Drain()
}

// A temporary refusal (451), at MAIL FROM, RCPT TO or the end of DATA,
// keeps the mail: each attempt is counted, the next try is pushed back by
// a doubling wait (1, 2, then the 3-minute ceiling) with the reason kept,
// nothing is tried before it is due, and the mail leaves the outbox only
// when the server accepts it, exactly once.
func TestOutboxRetriesTemporaryRefusals(t *testing.T) {
	for _, stage := range []string{"mail", "rcpt", "data"} {
		t.Run("refused at "+stage, func(t *testing.T) {
			sc := &scriptSMTP{}
			refusals := 0
			refuse := func() error {
				sc.mu.Lock()
				defer sc.mu.Unlock()
				if refusals < 3 {
					refusals++
					return errTemporary
				}
				return nil
			}
			tried := func() int {
				sc.mu.Lock()
				defer sc.mu.Unlock()
				return refusals
			}
			switch stage {
			case "mail":
				sc.mail = func(string) error { return refuse() }
			case "rcpt":
				sc.rcpt = func(string) error { return refuse() }
			case "data":
				sc.data = func(int, io.Reader, *smtp.Conn) error { return refuse() }
			}
			startScriptSMTP(t, sc)
			f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
			id := f.enqueue(t, "retry me")
			for i, wait := range []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute} {
				n, err := f.drain(t)
				if n != 0 || err != nil {
					t.Fatalf("attempt %d: drain = %d, %v; want 0, nil (a refusal is no transport error)", i+1, n, err)
				}
				next := f.want(t, id, uint32(i+1), f.clock.now().Add(wait), "451")
				// Not due yet: nothing is tried.
				f.clock.advance(next.Sub(f.clock.now()) - time.Second)
				before := tried()
				if n, err := f.drain(t); n != 0 || err != nil || tried() != before {
					t.Fatalf("drain before the mail is due: %d, %v, tried %d times", n, err, tried()-before)
				}
				f.clock.advance(time.Second)
			}
			if n, err := f.drain(t); n != 1 || err != nil {
				t.Fatalf("drain once accepted = %d, %v; want 1, nil", n, err)
			}
			if _, ok := f.all(t)[id]; ok {
				t.Errorf("the accepted mail is still in the outbox")
			}
			if _, acc := sc.stats(); strings.Join(acc, "|") != "retry me" {
				t.Errorf("server accepted %q, want the mail once", acc)
			}
			if len(f.delivered) != 1 || f.delivered[0] != id {
				t.Errorf("Delivered told of %v", f.delivered)
			}
			if !strings.Contains(f.logs.String(), "will retry") {
				t.Errorf("the refusals were not logged:\n%s", f.logs)
			}
		})
	}
}

// A mail refused permanently (550) on every attempt is given up after
// MaxAttempts: it stays in the outbox (for the operator) with the reason,
// is not tried again, and the giving up is logged. A good mail in the same
// batch goes out at once: one refusal does not block the session.
func TestOutboxGivesUp(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{rcpt: func(to string) error {
		if strings.HasPrefix(to, "nobody@") {
			return errPermanent
		}
		return nil
	}})
	f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
	f.o.MaxAttempts = 3
	bad := f.enqueue(t, "to nobody", "nobody@example.org")
	good := f.enqueue(t, "to alice")
	if n, err := f.drain(t); n != 1 || err != nil {
		t.Fatalf("first drain = %d, %v; want the good mail sent", n, err)
	}
	if _, ok := f.all(t)[good]; ok {
		t.Errorf("the good mail is still in the outbox")
	}
	f.want(t, bad, 1, f.t0.Add(time.Minute), "550")
	f.clock.advance(time.Minute)
	f.drain(t)
	f.want(t, bad, 2, f.t0.Add(3*time.Minute), "550")
	f.clock.advance(2 * time.Minute)
	f.drain(t)
	m := f.all(t)[bad]
	if m.Attempts != 3 || !strings.HasPrefix(m.LastError, "given up: ") || !strings.Contains(m.LastError, "550") {
		t.Errorf("after %d attempts: last error %q, want given up with the 550", m.Attempts, m.LastError)
	}
	if m.NextTry.Before(f.clock.now().AddDate(99, 0, 0)) {
		t.Errorf("a given-up mail is due again at %v", m.NextTry)
	}
	if !strings.Contains(f.logs.String(), "outgoing mail given up") || !strings.Contains(f.logs.String(), "attempts=3") {
		t.Errorf("giving up was not logged:\n%s", f.logs)
	}
	datas, _ := sc.stats()
	f.clock.advance(365 * 24 * time.Hour)
	if n, err := f.drain(t); n != 0 || err != nil {
		t.Errorf("drain a year later = %d, %v", n, err)
	}
	if d, _ := sc.stats(); d != datas || f.all(t)[bad].Attempts != 3 {
		t.Errorf("a given-up mail was tried again")
	}
}

// The server is unreachable: every due mail stays, untouched (an outage
// is no verdict on the mails), Drain says why with an *Unreachable; when
// it is back, they all leave.
func TestOutboxServerUnreachable(t *testing.T) {
	f := newOutboxFixture(t, smtpclient.Config{Addr: closedPort(t)})
	var ids []uint64
	for i := 1; i <= 3; i++ {
		ids = append(ids, f.enqueue(t, fmt.Sprintf("waiting %d", i)))
	}
	n, err := f.drain(t)
	var down *Unreachable
	if n != 0 || !errors.As(err, &down) || !strings.Contains(err.Error(), "smtpclient: connect to") {
		t.Fatalf("drain = %d, %v; want 0 and an *Unreachable connection error", n, err)
	}
	for _, id := range ids {
		f.want(t, id, 0, time.Time{}, "")
	}
	// However long the outage, an unreachable server is no verdict on the
	// mails: they are never given up for it.
	for range f.o.MaxAttempts + 3 {
		f.clock.advance(f.o.Ceiling)
		f.drain(t)
	}
	for _, m := range f.all(t) {
		if strings.HasPrefix(m.LastError, "given up") || m.NextTry.After(f.clock.now().Add(f.o.Ceiling)) {
			t.Errorf("mail %d given up after an outage: %q, next try %v", m.ID, m.LastError, m.NextTry)
		}
	}
	sc := startScriptSMTP(t, &scriptSMTP{})
	f.o.Sender, _ = smtpclient.New(smtpclient.Config{Addr: sc.addr, Security: "plain"})
	f.clock.advance(f.o.Ceiling)
	if n, err := f.drain(t); n != 3 || err != nil {
		t.Fatalf("drain when the server is back = %d, %v", n, err)
	}
	if left := f.all(t); len(left) != 0 {
		t.Errorf("%d mails left", len(left))
	}
}

// The server drops the connection during DATA (after the whole message but
// before answering, or halfway through it): the mail is not marked sent,
// the attempt counts, the mails after it are left untouched (not counted
// as attempts), and the next drain sends them all.
func TestOutboxDropMidData(t *testing.T) {
	for _, tc := range []struct {
		name string
		read int64 // bytes of the message read before dropping; -1 all
	}{
		{"before the answer", -1},
		{"halfway through the message", 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := startScriptSMTP(t, &scriptSMTP{data: func(n int, r io.Reader, c *smtp.Conn) error {
				if n != 2 {
					return nil
				}
				if tc.read < 0 {
					io.Copy(io.Discard, r)
				} else {
					io.CopyN(io.Discard, r, tc.read)
				}
				c.Conn().Close()
				return errors.New("dropped")
			}})
			f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
			first := f.enqueue(t, "first")
			big := &store.Mail{From: "games@example.org", To: []string{"alice@example.org"}, Data: testMail("dropped", 512<<10)}
			if err := f.st.Update(func(tx *store.Tx) error { return tx.Enqueue(big) }); err != nil {
				t.Fatal(err)
			}
			third := f.enqueue(t, "third")
			n, err := f.drain(t)
			if n != 1 || err == nil {
				t.Fatalf("drain = %d, %v; want the first mail sent and a transport error", n, err)
			}
			var se *smtp.SMTPError
			if errors.As(err, &se) {
				t.Errorf("a dropped connection reported as a server answer: %v", err)
			}
			t.Logf("drain: %v", err)
			left := f.all(t)
			if _, ok := left[first]; ok {
				t.Errorf("the accepted mail is still in the outbox")
			}
			if m, ok := left[big.ID]; !ok || m.Attempts != 1 || m.LastError == "" {
				t.Errorf("the dropped mail: %+v, present %v; want kept with one attempt and the reason", m.LastError, ok)
			}
			if m, ok := left[third]; !ok || m.Attempts != 0 {
				t.Errorf("the mail after the drop: present %v, attempts %d; want kept, untried", ok, m.Attempts)
			}
			if n, err := f.drain(t); n != 1 || err != nil {
				t.Fatalf("drain at once = %d, %v; want the untried third mail sent", n, err)
			}
			f.clock.advance(time.Minute)
			if n, err := f.drain(t); n != 1 || err != nil {
				t.Fatalf("drain when due = %d, %v; want the dropped mail sent", n, err)
			}
			if _, acc := sc.stats(); strings.Join(acc, "|") != "first|third|dropped" {
				t.Errorf("server accepted %q", acc)
			}
		})
	}
}

// The server wants AUTH: a wrong password fails with a clear error and
// keeps every mail; without credentials the server's refusal is kept as
// the reason; with the right password the mails go (and a refusal of one
// does not end the authenticated session: the next mail still goes).
func TestOutboxAuth(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{user: "games@example.org", pass: testPass, rcpt: func(to string) error {
		if strings.HasPrefix(to, "nobody@") {
			return errPermanent
		}
		return nil
	}})
	for _, tc := range []struct {
		name, user, pass string
		drainErr         string // "" for none
		mailErr          string
	}{
		{"wrong password", "games@example.org", "wrong", "smtpclient: auth as games@example.org: SMTP error 535", ""},
		{"no credentials", "", "", "", "530"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr, Username: tc.user, Password: tc.pass})
			id := f.enqueue(t, "needs auth")
			n, err := f.drain(t)
			if n != 0 || (tc.drainErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.drainErr)) {
				t.Fatalf("drain = %d, %v; want 0 and error %q", n, err, tc.drainErr)
			}
			if tc.drainErr != "" {
				f.want(t, id, 0, time.Time{}, "") // the session was refused: the mail waits untouched
				if p := smtpServer(f.o.Sender.Config()).Explain(err); !p.Permanent || !strings.Contains(p.Advice, "smtp.password") {
					t.Errorf("explained as %+v, want a permanent problem naming smtp.password", p)
				}
			} else {
				f.want(t, id, 1, f.t0.Add(time.Minute), tc.mailErr)
			}
		})
	}
	t.Run("right password", func(t *testing.T) {
		f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr, Username: "games@example.org", Password: testPass})
		bad := f.enqueue(t, "refused", "nobody@example.org")
		f.enqueue(t, "authed 1")
		f.enqueue(t, "authed 2")
		if n, err := f.drain(t); n != 2 || err != nil {
			t.Fatalf("drain = %d, %v; want 2 sent", n, err)
		}
		f.want(t, bad, 1, f.t0.Add(time.Minute), "550")
	})
	if _, acc := sc.stats(); strings.Join(acc, "|") != "authed 1|authed 2" {
		t.Errorf("server accepted %q", acc)
	}
}

// A server that answers too slowly (longer than the Sender's Timeout) is
// given up on: the mail is not marked sent, and Drain returns promptly with
// a timeout. This covers the opening (a server that never greets, whatever
// the security) and the end of DATA.
func TestOutboxSlowServer(t *testing.T) {
	const timeout = 200 * time.Millisecond
	release := make(chan struct{})
	slowData := startScriptSMTP(t, &scriptSMTP{data: func(int, io.Reader, *smtp.Conn) error {
		<-release
		return errTemporary
	}})
	// mute accepts connections and never says a word.
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mute.Close() })
	go func() {
		for {
			c, err := mute.Accept()
			if err != nil {
				return
			}
			go func() { <-release; c.Close() }()
		}
	}()
	t.Cleanup(func() { close(release) }) // runs first: frees the servers' handlers
	for _, tc := range []struct{ name, addr, security string }{
		{"slow end of data", slowData.addr, "plain"},
		{"no greeting, plain", mute.Addr().String(), "plain"},
		{"no greeting, starttls", mute.Addr().String(), "starttls"},
		{"no handshake, tls", mute.Addr().String(), "tls"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newOutboxFixture(t, smtpclient.Config{Addr: tc.addr, Security: tc.security, Timeout: timeout})
			id := f.enqueue(t, "slow")
			start := time.Now()
			n, err := f.drain(t)
			took := time.Since(start)
			if n != 0 || err == nil {
				t.Fatalf("drain = %d, %v; want a failure", n, err)
			}
			t.Logf("drain after %v: %v", took.Round(time.Millisecond), err)
			if !isTimeout(err) && !strings.Contains(err.Error(), "did not answer") {
				t.Errorf("err = %v, want it to say the server did not answer in time", err)
			}
			if took > 10*timeout {
				t.Errorf("drain took %v with a %v timeout", took, timeout)
			}
			if tc.name == "slow end of data" {
				f.want(t, id, 1, f.t0.Add(time.Minute), "i/o timeout") // tried: the attempt counts
			} else {
				f.want(t, id, 0, time.Time{}, "") // no session: the mail waits untouched
			}
		})
	}
}

// More mail than one batch (100) is all sent in one Drain.
func TestOutboxBatches(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{})
	f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
	for i := range 130 {
		f.enqueue(t, fmt.Sprintf("batch %d", i))
	}
	if n, err := f.drain(t); n != 130 || err != nil {
		t.Fatalf("drain = %d, %v; want 130", n, err)
	}
	if _, acc := sc.stats(); len(acc) != 130 {
		t.Errorf("server accepted %d", len(acc))
	}
}

// Run drains when woken and stops when its context ends.
func TestOutboxRun(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{})
	f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
	f.o.Now = time.Now
	ctx, cancel := context.WithCancel(context.Background())
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() { defer close(done); f.o.Run(ctx, wake, time.Hour) }()
	time.Sleep(20 * time.Millisecond) // the first drain finds nothing
	f.enqueue(t, "woken")
	wake <- struct{}{}
	eventually(t, 5*time.Second, "mail sent after the wake-up", func() bool { return len(f.all(t)) == 0 })
	cancel()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not return")
	}
}

func TestNewSenderChecks(t *testing.T) {
	if _, err := smtpclient.New(smtpclient.Config{Addr: "h:1", Security: "ssl"}); err == nil || !strings.HasPrefix(err.Error(), "smtpclient: ") {
		t.Errorf("err = %v", err)
	}
}

// With several sessions, every due mail is sent exactly once and marked
// sent, and each recipient's mail goes out in the order it was queued (one
// recipient's mail keeps to one session).
func TestOutboxSeveralConnections(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{})
	f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
	f.o.Connections = 4
	for i := range 300 {
		f.enqueue(t, fmt.Sprintf("to %d mail %03d", i%7, i), fmt.Sprintf("p%d@example.org", i%7))
	}
	if n, err := f.drain(t); n != 300 || err != nil {
		t.Fatalf("drain = %d, %v; want 300", n, err)
	}
	_, acc := sc.stats()
	if len(acc) != 300 {
		t.Fatalf("server accepted %d, want 300", len(acc))
	}
	seen := map[string]bool{}
	last := map[string]string{}
	for _, subject := range acc {
		if seen[subject] {
			t.Errorf("%q sent twice", subject)
		}
		seen[subject] = true
		who := subject[:strings.Index(subject, " mail")]
		if subject < last[who] {
			t.Errorf("%q after %q: a recipient's mail out of order", subject, last[who])
		}
		last[who] = subject
	}
	if left := f.all(t); len(left) != 0 {
		t.Errorf("%d mails left in the outbox", len(left))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.delivered) != 300 {
		t.Errorf("Delivered told of %d", len(f.delivered))
	}
}

// The SMTP server is down while replies wait: Run probes it with growing
// pauses up to ProbeMax (a handful of connections, not one per wake-up),
// and the mail goes out within ProbeMax of the server's return, not after
// a doubling per-mail wait.
func TestOutboxRunProbesUntilTheServerReturns(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{})
	px := startProxy(t, sc.addr, nil)
	px.refuse(true) // connections are accepted and closed at once: the server is down
	f := newOutboxFixture(t, smtpclient.Config{Addr: px.addr()})
	f.o.Now = time.Now
	f.o.ProbeMin, f.o.ProbeMax = 20*time.Millisecond, 200*time.Millisecond
	f.enqueue(t, "waits for the server")
	ctx, cancel := context.WithCancel(context.Background())
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() { defer close(done); f.o.Run(ctx, wake, time.Hour) }()
	defer func() { cancel(); <-done }()
	for range 20 { // replies queued meanwhile must not each cause a connection
		time.Sleep(50 * time.Millisecond)
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	// The proxy accepts and closes: each retry is a bare probe that
	// succeeds and a session that fails (and, once, a look whether the port
	// speaks TLS): about 8 retries at 20 ms doubling to 200 ms.
	if n := px.tries(); n < 3 || n > 25 {
		t.Errorf("%d connections in 1 s of outage, want a few probes (3 to 25), not one per wake-up", n)
	}
	if !strings.Contains(f.logs.String(), "smtp server unreachable; outgoing mail waits") {
		t.Errorf("the outage was not logged:\n%s", f.logs)
	}
	if m := f.all(t); len(m) != 1 {
		t.Fatalf("%d mails in the outbox, want the one waiting", len(m))
	}
	back := time.Now()
	px.refuse(false)
	eventually(t, 5*time.Second, "mail sent after the server's return", func() bool { return len(f.all(t)) == 0 })
	if took := time.Since(back); took > 3*time.Second { // ProbeMax and a send, with room for a loaded machine
		t.Errorf("mail went out %v after the server came back; want within ProbeMax (200ms) and a send", took)
	}
	if _, acc := sc.stats(); strings.Join(acc, "|") != "waits for the server" {
		t.Errorf("server accepted %q", acc)
	}
}

// A server that refuses the session (a wrong password) is a permanent
// problem: logged as an error naming the setting, and not retried at the
// probe's pace.
func TestOutboxRunWrongPasswordIsAnError(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{user: "games@example.org", pass: testPass})
	px := startProxy(t, sc.addr, nil)
	f := newOutboxFixture(t, smtpclient.Config{Addr: px.addr(), Username: "games@example.org", Password: "wrong"})
	f.o.Now = time.Now
	f.o.ProbeMin, f.o.ProbeMax, f.o.ProbePermanent = 10*time.Millisecond, 20*time.Millisecond, 300*time.Millisecond
	f.enqueue(t, "never sent")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.o.Run(ctx, nil, time.Hour) }()
	time.Sleep(700 * time.Millisecond)
	cancel()
	<-done
	if n := px.connections(); n < 1 || n > 8 {
		t.Errorf("%d sessions in 700 ms, want the doubling waits up to 300 ms (10, 20, 40 … ms: at most 8, not one per 20 ms)", n)
	}
	if !strings.Contains(f.logs.String(), "level=ERROR") || !strings.Contains(f.logs.String(), "check smtp.username and smtp.password") {
		t.Errorf("the refused password was not logged as an error naming the settings:\n%s", f.logs)
	}
}

// failingMarks is a Queue whose commits fail as the store's do when the
// disk is full: every Record while broken is set, a Record of a verdict (a
// failed attempt's reason) while verdictsBroken is, MarkSent while
// sentBroken is; the rest is the store's.
type failingMarks struct {
	boltQueue
	mu                                 sync.Mutex
	broken, verdictsBroken, sentBroken bool
	verdicts, sentCalls                int // Record calls with a verdict, MarkSent calls
}

var errCommit = errors.New("store: commit: the disk is full")

func (q *failingMarks) Record(as []Attempt) error {
	q.mu.Lock()
	verdict := slices.ContainsFunc(as, func(a Attempt) bool { return a.Reason != "" })
	if verdict {
		q.verdicts++
	}
	broken := q.broken || verdict && q.verdictsBroken
	q.mu.Unlock()
	if broken {
		return errCommit
	}
	return q.boltQueue.Record(as)
}

// A mail whose attempt the Queue cannot record (Record fails: the disk is
// full) is not sent: Drain returns the Queue's error and the server sees
// nothing. A refused mail whose verdict cannot be recorded (the disk
// filled between the attempt's record and the verdict) still waits before
// it is tried again: its attempt, recorded before the sending, set the next
// try as if it failed, doubling with the attempts, so that neither the
// server nor the log sees it at every Drain. Other mail goes out meanwhile,
// and once the Queue records again the mail's verdict is stored.
func TestOutboxWaitsWhenTheFailureCannotBeRecorded(t *testing.T) {
	var mu sync.Mutex
	tries := 0
	sc := startScriptSMTP(t, &scriptSMTP{rcpt: func(to string) error {
		if !strings.HasPrefix(to, "held@") {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		tries++
		return errTemporary
	}})
	triesNow := func() int { mu.Lock(); defer mu.Unlock(); return tries }
	f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
	q := &failingMarks{boltQueue: boltQueue{f.st}, broken: true}
	f.o.Queue = q
	held := f.enqueue(t, "refused", "held@example.org")

	if _, err := f.drain(t); !errors.Is(err, errCommit) || triesNow() != 0 {
		t.Fatalf("drain while nothing can be recorded: err %v, %d tries; want the Queue's error and none", err, triesNow())
	}
	f.want(t, held, 0, time.Time{}, "")

	q.mu.Lock()
	q.broken, q.verdictsBroken = false, true
	q.mu.Unlock()
	if _, err := f.drain(t); !errors.Is(err, errCommit) {
		t.Fatalf("first drain: err %v, want the Queue's", err)
	}
	if triesNow() != 1 {
		t.Fatalf("first drain: %d tries, want 1", triesNow())
	}
	next := f.want(t, held, 1, f.clock.now().Add(time.Minute), "") // recorded before the sending; the verdict was not
	logged := strings.Count(f.logs.String(), "will retry")
	good := f.enqueue(t, "to alice")
	for i := range 20 {
		if n, err := f.drain(t); err != nil || (i == 0 && n != 1) || (i > 0 && n != 0) {
			t.Fatalf("drain %d before the wait is over = %d, %v; want the other mail sent once, no error", i, n, err)
		}
	}
	if _, ok := f.all(t)[good]; ok {
		t.Errorf("the other mail was held back too")
	}
	if triesNow() != 1 || strings.Count(f.logs.String(), "will retry") != logged {
		t.Fatalf("the mail was tried %d times (and %d retries logged) before its wait was over; want once",
			triesNow(), strings.Count(f.logs.String(), "will retry"))
	}

	// After the first wait (about a minute) it is tried again; the next
	// wait is about two minutes, though no verdict was recorded.
	f.clock.advance(next.Sub(f.clock.now()) - time.Second)
	f.drain(t)
	if triesNow() != 1 {
		t.Fatalf("tried %d times a second before the wait was over", triesNow())
	}
	f.clock.advance(time.Second)
	if _, err := f.drain(t); !errors.Is(err, errCommit) || triesNow() != 2 {
		t.Fatalf("when due: err %v, %d tries; want the Queue's error and a second try", err, triesNow())
	}
	next = f.want(t, held, 2, f.clock.now().Add(2*time.Minute), "")
	f.clock.advance(next.Sub(f.clock.now()) - time.Second)
	f.drain(t)
	if triesNow() != 2 {
		t.Fatalf("tried %d times before the doubled wait was over", triesNow())
	}

	// The Queue records again: the next failure is stored.
	q.mu.Lock()
	q.verdictsBroken = false
	q.mu.Unlock()
	f.clock.advance(time.Second)
	if n, err := f.drain(t); n != 0 || err != nil || triesNow() != 3 {
		t.Fatalf("drain once the Queue records = %d, %v, %d tries; want 0, nil, 3", n, err, triesNow())
	}
	f.want(t, held, 3, f.clock.now().Add(3*time.Minute), "451")
	if c := q.verdicts; c != 3 {
		t.Errorf("%d verdicts recorded or tried, want one a try (3)", c)
	}
}

// Each attempt is recorded before the mail is sent (as mox's queue does):
// when the server has the text, the store already counts the attempt and
// holds the next try as if it failed, so a crash at that moment (the
// process gone before the answer) leaves the mail counted and waiting its
// turn rather than due again at once. Once accepted, the mail is gone.
func TestOutboxRecordsTheAttemptBeforeSending(t *testing.T) {
	var f *outboxFixture
	var mu sync.Mutex
	var seen []string // each queued mail as the store has it when a text arrives
	sc := startScriptSMTP(t, &scriptSMTP{data: func(int, io.Reader, *smtp.Conn) error {
		var ms []store.Mail
		f.st.View(func(tx *store.Tx) error {
			var err error
			ms, err = tx.PendingMail(f.t0.AddDate(1, 0, 0), 0)
			return err
		})
		mu.Lock()
		defer mu.Unlock()
		for _, m := range ms {
			seen = append(seen, fmt.Sprintf("%d %v", m.Attempts, m.NextTry.After(f.clock.now())))
		}
		return nil
	}})
	f = newOutboxFixture(t, smtpclient.Config{Addr: sc.addr})
	f.enqueue(t, "one")
	f.enqueue(t, "two")
	if n, err := f.drain(t); n != 2 || err != nil {
		t.Fatalf("drain = %d, %v; want both sent", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 || slices.ContainsFunc(seen, func(s string) bool { return s != "1 true" }) {
		t.Errorf("as the texts arrived the store had %q; want every mail counted once and not due (\"1 true\")", seen)
	}
	if left := f.all(t); len(left) != 0 {
		t.Errorf("%d mails left once accepted", len(left))
	}
}

// MarkSent fails while sentBroken is set (see failingMarks).
func (q *failingMarks) MarkSent(ids []uint64) error {
	q.mu.Lock()
	q.sentCalls++
	broken := q.sentBroken
	q.mu.Unlock()
	if broken {
		return errCommit
	}
	return q.boltQueue.MarkSent(ids)
}

// A mail the server accepted but the Queue cannot mark sent (MarkSent
// fails: the disk is full) is never sent again while the process lives:
// the outbox holds it in memory, retries only the mark at each Drain, and
// sends nothing else meanwhile (its marks would fail too). Once the Queue
// commits again the marks land, Delivered is told of each mail once, the
// hold is empty and the rest of the outbox goes out.
func TestOutboxNeverResendsMailItCouldNotMarkSent(t *testing.T) {
	for _, tc := range []struct {
		conns    int
		chunking bool // BDAT, or DATA
	}{{1, false}, {3, false}, {1, true}, {3, true}} {
		t.Run(fmt.Sprintf("%d connections, %s", tc.conns, map[bool]string{false: "data", true: "bdat"}[tc.chunking]), func(t *testing.T) {
			sc := startScriptSMTP(t, &scriptSMTP{})
			f := newOutboxFixture(t, smtpclient.Config{Addr: sc.addr, Chunking: tc.chunking})
			f.o.Connections = tc.conns
			q := &failingMarks{boltQueue: boltQueue{f.st}, sentBroken: true}
			f.o.Queue = q
			var ids []uint64
			for i := range 40 { // the sessions stop at the first failed commit: most wait
				ids = append(ids, f.enqueue(t, fmt.Sprintf("mail %d", i), fmt.Sprintf("p%d@example.org", i%7)))
			}
			accepted := func() []string { sc.mu.Lock(); defer sc.mu.Unlock(); return slices.Clone(sc.accepted) }

			if n, err := f.drain(t); n != 0 || !errors.Is(err, errCommit) {
				t.Fatalf("first drain = %d, %v; want 0 and the Queue's error", n, err)
			}
			first := len(accepted())
			if first == 0 {
				t.Fatal("the server accepted nothing")
			}
			late := f.enqueue(t, "late", "late@example.org")
			calls := q.sentCalls
			for i := range 10 {
				f.clock.advance(time.Hour)
				if n, err := f.drain(t); n != 0 || !errors.Is(err, errCommit) {
					t.Fatalf("drain %d while the marks fail = %d, %v; want 0 and the Queue's error", i, n, err)
				}
			}
			if c := q.sentCalls - calls; c != 10 {
				t.Errorf("MarkSent called %d times over 10 drains while the marks failed, want once a drain (the retry)", c)
			}
			if got := accepted(); len(got) != first {
				t.Fatalf("while the marks failed the server received %d mails, after %d at the first drain: %q", len(got), first, got)
			}
			if n := f.o.heldCount(); n != first {
				t.Errorf("%d mails held, want the %d accepted", n, first)
			}
			if len(f.delivered) != 0 {
				t.Errorf("Delivered told of %v before any mark landed", f.delivered)
			}
			if len(f.all(t)) != len(ids)+1 {
				t.Errorf("%d mails in the outbox, want all %d (none could be marked)", len(f.all(t)), len(ids)+1)
			}

			q.mu.Lock()
			q.sentBroken = false
			q.mu.Unlock()
			if n, err := f.drain(t); n != len(ids)+1 || err != nil {
				t.Fatalf("drain once the marks succeed = %d, %v; want %d, nil", n, err, len(ids)+1)
			}
			if left := f.all(t); len(left) != 0 {
				t.Errorf("%d mails left in the outbox", len(left))
			}
			if n := f.o.heldCount(); n != 0 {
				t.Errorf("%d mails still held once marked", n)
			}
			got := accepted()
			seen := map[string]int{}
			for _, s := range got {
				seen[s]++
			}
			for s, c := range seen {
				if c != 1 {
					t.Errorf("the server received %q %d times", s, c)
				}
			}
			if len(got) != len(ids)+1 {
				t.Errorf("the server received %d mails, want %d", len(got), len(ids)+1)
			}
			slices.Sort(f.delivered)
			want := append(slices.Clone(ids), late)
			slices.Sort(want)
			if !slices.Equal(f.delivered, want) {
				t.Errorf("Delivered told of %v, want each mail once: %v", f.delivered, want)
			}
			if n, err := f.drain(t); n != 0 || err != nil || len(accepted()) != len(ids)+1 {
				t.Errorf("a further drain = %d, %v, %d received; want nothing more", n, err, len(accepted()))
			}
		})
	}
}

// The hold of accepted mails that could not be marked sent is bounded:
// past unmarkedMax a mail is not held but logged as one to be sent again,
// and the mails held stay held.
func TestOutboxUnmarkedHoldIsBounded(t *testing.T) {
	f := newOutboxFixture(t, smtpclient.Config{Addr: "127.0.0.1:1"})
	ms := make([]Queued, unmarkedMax+2)
	for i := range ms {
		ms[i] = Queued{ID: uint64(i + 1), To: []string{"alice@example.org"}, Data: []byte("x")}
	}
	f.o.holdUnmarked(ms)
	if n := f.o.heldCount(); n != unmarkedMax {
		t.Fatalf("%d mails held, want the bound %d", n, unmarkedMax)
	}
	if c := strings.Count(f.logs.String(), "it will be sent again"); c != 2 {
		t.Errorf("%d mails past the bound logged, want 2:\n%s", c, f.logs)
	}
	batch := f.o.notHeld(slices.Clone(ms))
	if len(batch) != 2 || batch[0].ID != unmarkedMax+1 || batch[1].ID != unmarkedMax+2 {
		t.Errorf("due after the hold: %d mails, want only the 2 past the bound", len(batch))
	}
}

// Sessions are kept open between drains: three drains, one connection; a
// kept session the server dropped meanwhile is replaced at the next drain
// without counting an attempt against any mail; Run closes a session idle
// for IdleKeep (the server sees it go), and Close closes the rest.
func TestOutboxKeepsSessionsOpen(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{})
	px := startProxy(t, sc.addr, nil)
	f := newOutboxFixture(t, smtpclient.Config{Addr: px.addr()})
	for i := range 3 {
		f.enqueue(t, fmt.Sprintf("drain %d", i))
		if n, err := f.drain(t); n != 1 || err != nil {
			t.Fatalf("drain %d = %d, %v", i, n, err)
		}
	}
	if n := px.connections(); n != 1 {
		t.Errorf("%d connections for three drains; want one kept open", n)
	}

	px.cut() // the server (or a NAT) drops the idle session
	f.sendsOnANewSession(t, px, "after the drop")

	// Run closes the session once it has been idle for IdleKeep.
	f.o.IdleKeep = 100 * time.Millisecond
	f.o.Now = time.Now
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.o.Run(ctx, make(chan struct{}), time.Hour) }()
	eventually(t, 5*time.Second, "the idle session closed", func() bool {
		f.o.sessMu.Lock()
		defer f.o.sessMu.Unlock()
		return len(f.o.idle) == 0
	})
	cancel()
	<-done
	// Run's drain found nothing due and opened no session; the kept one
	// was closed, not replaced.
	if n := px.connections(); n != 2 {
		t.Errorf("%d connections; want still 2", n)
	}
}

// With several sessions at once, no more than Connections stay open.
func TestOutboxKeepsAtMostConnectionsSessions(t *testing.T) {
	sc := startScriptSMTP(t, &scriptSMTP{})
	px := startProxy(t, sc.addr, nil)
	f := newOutboxFixture(t, smtpclient.Config{Addr: px.addr()})
	f.o.Connections = 3
	for round := range 3 {
		for i := range 40 {
			f.enqueue(t, fmt.Sprintf("round %d mail %d", round, i), fmt.Sprintf("p%d@example.org", i))
		}
		if n, err := f.drain(t); n != 40 || err != nil {
			t.Fatalf("drain = %d, %v", n, err)
		}
	}
	if n := px.connections(); n > 3 {
		t.Errorf("%d connections for three rounds on three sessions; want them kept", n)
	}
	f.o.sessMu.Lock()
	open := len(f.o.idle)
	f.o.sessMu.Unlock()
	if open > 3 || open == 0 {
		t.Errorf("%d sessions kept open; want 1 to 3", open)
	}
	f.o.sessMu.Lock()
	kept := slices.Clone(f.o.idle)
	f.o.sessMu.Unlock()
	f.o.Close()
	for _, s := range kept { // each connection is closed on our side
		if err := s.c.Noop(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("a kept session reads %v after Close; want it closed", err)
		}
	}
}

// sendsOnANewSession queues a mail and drains: it goes out on a second
// connection, the first kept session having failed, and counts no failed
// attempt.
func (f *outboxFixture) sendsOnANewSession(t *testing.T, px *proxy, subject string) {
	t.Helper()
	id := f.enqueue(t, subject)
	if n, err := f.drain(t); n != 1 || err != nil {
		t.Fatalf("drain %s = %d, %v; want the mail sent on a new session", subject, n, err)
	}
	if n := px.connections(); n != 2 {
		t.Errorf("%d connections; want a second %s", n, subject)
	}
	f.mu.Lock()
	last := f.delivered[len(f.delivered)-1]
	f.mu.Unlock()
	if last != id || strings.Contains(f.logs.String(), "will retry") {
		t.Errorf("the mail %s counted a failed attempt:\n%s", subject, f.logs)
	}
}

// A kept session that has stopped answering (a stalled link) is found out
// by the NOOP asked of a session idle for a second or more, within the
// NOOP's short wait, and replaced before any mail goes out on it: the mail
// counts no failed attempt. Without the check the mail would be sent on the
// stalled session, time out and count one.
func TestOutboxAsksAnIdleSessionWhetherItLives(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out a NOOP of 2 s; the full run has it")
	}
	sc := startScriptSMTP(t, &scriptSMTP{})
	px := startProxy(t, sc.addr, nil)
	f := newOutboxFixture(t, smtpclient.Config{Addr: px.addr(), Timeout: 2 * time.Second}) // the NOOP's wait
	f.enqueue(t, "first")
	if n, err := f.drain(t); n != 1 || err != nil {
		t.Fatalf("first drain = %d, %v", n, err)
	}
	px.stall()
	f.o.sessMu.Lock()
	if len(f.o.idle) != 1 {
		f.o.sessMu.Unlock()
		t.Fatalf("%d sessions kept; want 1", len(f.o.idle))
	}
	f.o.idle[0].since = time.Now().Add(-2 * time.Second) // idle long enough to be asked
	f.o.sessMu.Unlock()
	f.sendsOnANewSession(t, px, "after the stall")
}
