package daemon

// Fault tests of the whole daemon: a running daemon configured with external
// IMAP and SMTP servers ([imap] and [smtp], security "plain" on loopback)
// that reach a mailer.Hub through fault-injecting TCP proxies, while players
// play chess against it by mail directly on the hub. The mail servers drop
// connections, become unreachable, stop answering, answer slowly or refuse
// mail for a while; the disk under the data directory fills up; the store
// is read-only. Each test asserts that the daemon keeps going (or refuses to
// start and says why), that every move sent is applied exactly once once the
// fault clears, that every player gets the replies, and that the log says
// what went wrong.
//
// Component-level versions of these faults are in mailer/imapsource_test.go,
// mailer/outbox_test.go and store/fs_test.go; these tests prove the same at
// the level of the daemon, end to end.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// faultWait bounds every wait of the fault tests for something that must
// happen; they normally take well under a second.
const faultWait = 20 * time.Second

// ---- log capture ----

// logBuffer collects a daemon's log records (text format) for assertions;
// it is safe for concurrent writers.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends one or more log records.
func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything logged so far.
func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// mark is a position in the log, for since.
func (l *logBuffer) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// since is what was logged after mark m.
func (l *logBuffer) since(m int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b.Bytes()[m:])
}

// count is how many log lines after mark m contain every one of parts.
func (l *logBuffer) count(m int, parts ...string) int {
	n := 0
	for _, line := range strings.Split(l.since(m), "\n") {
		if containsAll(line, parts...) {
			n++
		}
	}
	return n
}

// lines returns the log lines after mark m that contain every one of parts.
func (l *logBuffer) lines(m int, parts ...string) []string {
	var out []string
	for _, line := range strings.Split(l.since(m), "\n") {
		if containsAll(line, parts...) {
			out = append(out, line)
		}
	}
	return out
}

// tail is the last n lines of the log.
func (l *logBuffer) tail(n int) string {
	lines := strings.Split(strings.TrimRight(l.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// containsAll reports whether s contains every one of parts.
func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// captureLogger is a debug-level logger into a fresh logBuffer; when the
// test fails, the end of the log is printed with it.
func captureLogger(t testing.TB) (*slog.Logger, *logBuffer) {
	t.Helper()
	buf := &logBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the end of the daemon's log:\n%s", buf.tail(120))
		}
	})
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), buf
}

// within polls cond every 10 ms until it holds (true) or d has passed (false).
func within(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// waitFor polls cond every 10 ms until it holds, failing the test with what
// after d.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if !within(d, cond) {
		t.Fatalf("after %v: %s", d, what)
	}
}

// waitLog waits until the log after mark m has a line containing every one
// of parts.
func waitLog(t testing.TB, l *logBuffer, m int, within time.Duration, parts ...string) {
	t.Helper()
	waitFor(t, within, fmt.Sprintf("no log line with %q", parts), func() bool { return l.count(m, parts...) > 0 })
}

// waitLogMatch waits until a line of the log after mark m matches the
// regular expression expr.
func waitLogMatch(t testing.TB, l *logBuffer, m int, within time.Duration, expr string) {
	t.Helper()
	re := regexp.MustCompile(expr)
	waitFor(t, within, fmt.Sprintf("no log line matching %s", expr), func() bool { return re.MatchString(l.since(m)) })
}

// ---- a fault-injecting TCP proxy ----

// proxyMode is what a faultProxy does with new connections.
type proxyMode int

const (
	pass      proxyMode = iota // forward them to the target
	refuse                     // close them at once: the server is unreachable
	blackhole                  // accept them and never answer: the server is hung
)

// faultProxy forwards TCP connections to a target and injects faults: it
// cuts open connections (cut), makes them forward nothing more (stall),
// refuses or swallows new ones (setMode), delays every chunk it forwards
// (setDelay), and can give every new connection a random byte budget after
// which it is cut, wherever the protocol is (setBudget).
type faultProxy struct {
	ln     net.Listener
	target string

	mu       sync.Mutex
	mode     proxyMode
	delay    time.Duration
	budgetLo int // 0: no budget
	budgetHi int
	rng      *rand.Rand
	conns    map[*proxyLink]bool
	accepted int
	budgeted int // connections cut because their budget ran out
	wg       sync.WaitGroup
	bytes    atomic.Int64 // forwarded, both ways
}

// proxyLink is one forwarded connection.
type proxyLink struct {
	client, server net.Conn // server is nil for a swallowed connection
	stalled        chan struct{}
	stallOnce      sync.Once
	budget         atomic.Int64 // bytes left before the link is cut; <0: none
}

// startFaultProxy listens on loopback and forwards to target until the test ends.
func startFaultProxy(t testing.TB, target string, seed uint64) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target, conns: map[*proxyLink]bool{}, rng: rand.New(rand.NewPCG(seed, 0x5eed))}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// port is the proxy's loopback port.
func (p *faultProxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// serve accepts connections until the listener closes and treats each as
// the mode at that moment says.
func (p *faultProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		mode := p.mode
		budget := int64(-1)
		if p.budgetLo > 0 {
			budget = int64(p.budgetLo + p.rng.IntN(p.budgetHi-p.budgetLo+1))
		}
		p.accepted++
		p.mu.Unlock()
		switch mode {
		case refuse:
			c.Close()
			continue
		case blackhole:
			l := &proxyLink{client: c, stalled: make(chan struct{})}
			p.track(l)
			p.wg.Add(1)
			go func() { defer p.wg.Done(); io.Copy(io.Discard, c); p.drop(l) }()
			continue
		}
		s, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			c.Close()
			continue
		}
		l := &proxyLink{client: c, server: s, stalled: make(chan struct{})}
		l.budget.Store(budget)
		p.track(l)
		p.wg.Add(2)
		go p.pipe(l, s, c)
		go p.pipe(l, c, s)
	}
}

// track records an open link so that cut and stall reach it.
func (p *faultProxy) track(l *proxyLink) {
	p.mu.Lock()
	p.conns[l] = true
	p.mu.Unlock()
}

// pipe copies src to dst chunk by chunk, applying the delay and the budget,
// until either side ends; a stalled link swallows everything until cut.
func (p *faultProxy) pipe(l *proxyLink, dst, src net.Conn) {
	defer p.wg.Done()
	buf := make([]byte, 16<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-l.stalled:
			io.Copy(io.Discard, src)
			return
		default:
		}
		if n > 0 {
			p.mu.Lock()
			delay := p.delay
			p.mu.Unlock()
			if delay > 0 {
				time.Sleep(delay) // the injected latency, not a wait for the test
			}
			chunk := buf[:n]
			cutAfter := false
			if b := l.budget.Load(); b >= 0 {
				if int64(n) >= b {
					chunk, cutAfter = buf[:b], true
				}
				l.budget.Add(-int64(len(chunk)))
			}
			if _, werr := dst.Write(chunk); werr != nil {
				err = werr
			}
			p.bytes.Add(int64(len(chunk)))
			if cutAfter {
				p.mu.Lock()
				p.budgeted++
				p.mu.Unlock()
				p.drop(l)
				return
			}
		}
		if err != nil {
			p.drop(l)
			return
		}
	}
}

// drop closes both ends of a link and forgets it.
func (p *faultProxy) drop(l *proxyLink) {
	l.client.Close()
	if l.server != nil {
		l.server.Close()
	}
	p.mu.Lock()
	delete(p.conns, l)
	p.mu.Unlock()
}

// cut closes every open connection, as a network failure would.
func (p *faultProxy) cut() {
	p.mu.Lock()
	links := make([]*proxyLink, 0, len(p.conns))
	for l := range p.conns {
		links = append(links, l)
	}
	p.mu.Unlock()
	for _, l := range links {
		p.drop(l)
	}
}

// stall makes every open connection forward nothing more without closing
// it: the server seems to stop answering.
func (p *faultProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.conns {
		l.stallOnce.Do(func() { close(l.stalled) })
	}
}

// setMode decides what happens to new connections.
func (p *faultProxy) setMode(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
}

// setDelay makes every chunk forwarded wait d first (0: none).
func (p *faultProxy) setDelay(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay = d
}

// setBudget gives each new connection a byte budget drawn from [lo, hi]
// (both directions together), after which the proxy cuts it; lo 0 turns
// budgets off for new connections.
func (p *faultProxy) setBudget(lo, hi int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.budgetLo, p.budgetHi = lo, hi
}

// stats returns how many connections the proxy accepted, how many it cut
// for their budget, and how many bytes it forwarded.
func (p *faultProxy) stats() (accepted, budgeted int, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted, p.budgeted, p.bytes.Load()
}

// close stops the proxy: no new connections, every open one cut.
func (p *faultProxy) close() {
	p.ln.Close()
	p.cut()
	p.wg.Wait()
}

// ---- an SMTP server that can refuse mail ----

// gateSMTP is the SMTP server the daemon submits to: it checks AUTH PLAIN
// against the hub's password and delivers into the hub (recording the
// envelope sender as Return-Path, as the hub's own server does), unless it
// is told to refuse mail with 451 for a while.
type gateSMTP struct {
	hub      *mailer.Hub
	password string
	addr     string
	// refuseEvery: 0 accepts all mail, 1 refuses all, n refuses every n-th
	// message at the end of DATA with 451 (a temporary failure).
	refuseEvery atomic.Int64
	datas       atomic.Int64
	refused     atomic.Int64
	accepted    atomic.Int64
}

// startGate runs a gateSMTP on loopback until the test ends.
func startGate(t testing.TB, hub *mailer.Hub, password string) *gateSMTP {
	t.Helper()
	g := &gateSMTP{hub: hub, password: password}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &gateSession{g: g}, nil }))
	srv.Domain = "gate.localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	srv.ErrorLog = discardPrintf{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(mailer.SMTPServerListener(ln)) }()
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return g
}

// discardPrintf is a go-smtp logger that drops everything.
type discardPrintf struct{}

// Printf drops a log line.
func (discardPrintf) Printf(string, ...any) {}

// Println drops a log line.
func (discardPrintf) Println(...any) {}

// gateSession is one SMTP session of a gateSMTP.
type gateSession struct {
	g      *gateSMTP
	authed bool
	from   string
	rcpts  []string
}

// AuthMechanisms offers AUTH PLAIN.
func (s *gateSession) AuthMechanisms() []string { return []string{sasl.Plain} }

// Auth accepts any user with the hub's password.
func (s *gateSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, _, pass string) error {
		if pass != s.g.password {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

// Mail takes the envelope sender, after AUTH only.
func (s *gateSession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	s.from = from
	return nil
}

// Rcpt takes a recipient (the hub refuses other domains at delivery).
func (s *gateSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpts = append(s.rcpts, to)
	return nil
}

// errTryLater is the gate's temporary refusal.
var errTryLater = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "gate: try again later"}

// Data refuses the message with 451 when the gate is told to, else
// delivers it into the hub.
func (s *gateSession) Data(r io.Reader) error {
	msg, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	n := s.g.datas.Add(1)
	if every := s.g.refuseEvery.Load(); every > 0 && n%every == 0 {
		s.g.refused.Add(1)
		return errTryLater
	}
	if err := s.g.hub.Deliver(s.rcpts, append([]byte("Return-Path: <"+s.from+">\r\n"), msg...)); err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 0, 0}, Message: err.Error()}
	}
	s.g.accepted.Add(1)
	return nil
}

// Reset forgets the transaction.
func (s *gateSession) Reset() { s.from, s.rcpts = "", nil }

// Logout ends the session.
func (s *gateSession) Logout() error { return nil }

// ---- the rig: hub, proxies, gate and a daemon configured to use them ----

// rigPassword is every hub account's password.
const rigPassword = "faults"

// rig is a daemon whose IMAP and SMTP servers are external: the hub, behind
// a faultProxy each way (the SMTP one in front of a gateSMTP).
type rig struct {
	t    *testing.T
	hub  *mailer.Hub
	imap *faultProxy // daemon → hub's IMAP server
	smtp *faultProxy // daemon → gate → hub
	gate *gateSMTP
	cfg  config.Config
	log  *logBuffer
	lg   *slog.Logger

	d      *Daemon
	cancel context.CancelFunc
	done   chan error
}

// newRig starts the hub, the gate and the proxies, and configures a daemon
// on dataDir for them (edit, if set, adjusts the configuration); start runs
// it. Durations are short so that every retry comes within milliseconds.
func newRig(t *testing.T, dataDir string, edit func(*config.Config)) *rig {
	t.Helper()
	lg, buf := captureLogger(t)
	hub := mailer.NewHub("localhost", rigPassword, 1<<20, lg.With("test", "hub"))
	if err := hub.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	hub.User("games")
	r := &rig{t: t, hub: hub, log: buf, lg: lg}
	r.gate = startGate(t, hub, rigPassword)
	seed := uint64(time.Now().UnixNano())
	t.Logf("proxy seed %d", seed)
	r.imap = startFaultProxy(t, hub.IMAPAddr(), seed)
	r.smtp = startFaultProxy(t, r.gate.addr, seed+1)

	cfg := config.Defaults()
	cfg.Service.DataDir = dataDir
	cfg.Web.Listen = ""
	cfg.IMAP.Host, cfg.IMAP.Port, cfg.IMAP.Security = "127.0.0.1", r.imap.port(), "plain"
	cfg.IMAP.Username, cfg.IMAP.Password = "games", config.Secret{Source: rigPassword}
	cfg.IMAP.PollInterval = config.Duration(time.Second) // the least allowed; the hub has IDLE anyway
	cfg.IMAP.IdleRefresh = config.Duration(time.Second)  // a connection hung in IDLE is found within a second
	cfg.SMTP.Host, cfg.SMTP.Port, cfg.SMTP.Security = "127.0.0.1", r.smtp.port(), "plain"
	cfg.SMTP.Username, cfg.SMTP.Password = "games", config.Secret{Source: rigPassword}
	cfg.Limits.OutboxRetryBackoff = config.Duration(50 * time.Millisecond)
	cfg.Limits.OutboxRetryCeiling = config.Duration(400 * time.Millisecond)
	quickTimeouts(&cfg)
	if edit != nil {
		edit(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	r.cfg = cfg
	return r
}

// start builds and runs the daemon; it fails the test if it cannot.
func (r *rig) start() {
	r.t.Helper()
	r.d, r.cancel, r.done = runDaemon(r.t, r.cfg, r.lg, quicken)
	r.t.Cleanup(func() { r.stop() })
}

// stop ends Run and returns its error; Run must return within faultWait.
func (r *rig) stop() error {
	if r.cancel == nil {
		return nil
	}
	r.cancel()
	r.cancel = nil
	select {
	case err := <-r.done:
		return err
	case <-time.After(faultWait):
		r.t.Errorf("Run did not return within %v of its context ending", faultWait)
		return nil
	}
}

// quickTimeouts shortens the IMAP silence timeout (default one minute,
// here 2 s) and the SMTP timeout (one minute; here 1 s: a server on
// loopback answers within milliseconds, so a second of silence is a hung
// server).
func quickTimeouts(cfg *config.Config) {
	cfg.IMAP.Timeout = config.Duration(2 * time.Second)
	cfg.SMTP.Timeout = config.Duration(time.Second)
}

// quicken shortens what the configuration has no field for: the IMAP
// source's reconnection backoff (1 s doubling to 5 min; here 50 to 500 ms).
// It runs between Start and Run and changes nothing else.
func quicken(d *Daemon) {
	d.imapCfg.MinBackoff, d.imapCfg.MaxBackoff = 50*time.Millisecond, 500*time.Millisecond
}

// ---- players and games ----

// seat is a player in one game: where their moves go.
type seat struct {
	p     *Player
	side  string // "White" or "Black"
	token string // the seat's reply address, games+TOKEN@localhost
}

// match is a game of chess between two players, set up by mail.
type match struct {
	id    uint64
	seats [2]*seat // White, Black
	hdr   map[string]string
	sent  []string // the moves sent, in order
	ids   []string // their Message-IDs
	setup []string // the log records other than moves once the game began
}

// newMatch sets up a chess game between white and black by mail (hello,
// challenge, accept) and returns it once both have been told it began. hdr
// are extra header fields on every mail the players send (an
// Authentication-Results field, say).
func newMatch(t testing.TB, st *store.Store, white, black *Player, hdr map[string]string) *match {
	t.Helper()
	mustSend(t, white, Mail{To: "games@localhost", Subject: "hello", Body: "hi", Headers: hdr})
	welcome := mustAwait(t, white, "your personal address")
	mustSend(t, white, Mail{To: welcome.ReplyTo, Subject: "new game", Body: "new chess vs " + black.Address + " as white time 30d", Headers: hdr})
	inv := mustAwait(t, black, "challenges you")
	mustSend(t, black, Mail{To: inv.ReplyTo, Subject: "Re: " + inv.Msg.Subject, Body: "accept", Headers: hdr, InReplyTo: inv.Msg.MessageID})
	m := &match{hdr: hdr}
	for i, p := range []*Player{white, black} {
		began := mustAwait(t, p, "The game has begun")
		id, ok := mailfmt.ParseTag(began.Msg.Subject)
		if !ok || (m.id != 0 && id != m.id) {
			t.Fatalf("game mail to %s has subject %q", p.Address, began.Msg.Subject)
		}
		m.id = id
		m.seats[i] = &seat{p: p, side: []string{"White", "Black"}[i], token: began.ReplyTo}
	}
	m.setup = eventRecords(t, st, m.id)
	return m
}

// eventRecords lists the game's log records that are not moves (the start
// of the game, a resignation, a draw, an adjudication).
func eventRecords(t testing.TB, st *store.Store, game uint64) []string {
	t.Helper()
	var out []string
	if err := st.View(func(tx *store.Tx) error {
		recs, err := tx.Log(game)
		for _, r := range recs {
			if r.Kind != store.KindMove {
				out = append(out, fmt.Sprintf("%d:%s", r.Index, r.Text))
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// mustSend sends m from p, failing the test on error; it returns the Message-ID.
func mustSend(t testing.TB, p *Player, m Mail) string {
	t.Helper()
	id, err := p.Send(m)
	if err != nil {
		t.Fatalf("%s sending: %v", p.Address, err)
	}
	return id
}

// mustAwait waits for p to receive a mail containing want.
func mustAwait(t testing.TB, p *Player, want string) *Received {
	t.Helper()
	r, err := p.Await(want, faultWait)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The plies played in the fault tests: no captures, no checks, no
// repetition, and every move's text is different, so each receipt names one
// move.
var plies = []string{"Nf3", "Nf6", "Nc3", "Nc6", "e3", "e6", "d3", "d6", "b3", "b6", "g3", "g6", "a3", "a6", "h3", "h6"}

// mover is the seat whose turn the next ply is.
func (m *match) mover() *seat { return m.seats[len(m.sent)%2] }

// send has the player to move send mv to their seat's address.
func (m *match) send(t testing.TB, mv string) {
	t.Helper()
	s := m.mover()
	id := mustSend(t, s.p, Mail{To: s.token, Subject: "Re: " + mailfmt.FormatTag(m.id) + " your move", Body: mv, Headers: m.hdr})
	m.sent = append(m.sent, mv)
	m.ids = append(m.ids, id)
}

// moves are the moves on the game's log in the store.
func moves(t testing.TB, st *store.Store, game uint64) []string {
	t.Helper()
	var out []string
	err := st.View(func(tx *store.Tx) error {
		recs, err := tx.Log(game)
		for _, r := range recs {
			if r.Kind == store.KindMove {
				out = append(out, r.Text)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// waitApplied waits until the game's log holds as many moves as were sent.
func (m *match) waitApplied(t testing.TB, st *store.Store) {
	t.Helper()
	waitFor(t, faultWait, fmt.Sprintf("game %d: the moves sent %q are not all on the log", m.id, m.sent), func() bool {
		return len(moves(t, st, m.id)) >= len(m.sent)
	})
}

// play sends the next n plies, each once the previous one is applied.
func (m *match) play(t testing.TB, st *store.Store, n int) {
	t.Helper()
	for range n {
		m.send(t, plies[len(m.sent)])
		m.waitApplied(t, st)
	}
}

// checkExactlyOnce fails the test unless the game's log holds exactly the
// moves sent, in order, each once, and the chain verifies.
func (m *match) checkExactlyOnce(t testing.TB, st *store.Store) {
	t.Helper()
	if got := moves(t, st, m.id); strings.Join(got, " ") != strings.Join(m.sent, " ") {
		t.Errorf("game %d: log has moves %q, want exactly the moves sent %q", m.id, got, m.sent)
	}
	// Nothing else happened to the game: no record but the moves and those
	// of its start (none of a resignation, a draw, an adjudication), no result.
	if got := eventRecords(t, st, m.id); strings.Join(got, "|") != strings.Join(m.setup, "|") {
		t.Errorf("game %d: records other than moves %q, want those of its start %q", m.id, got, m.setup)
	}
	if err := st.View(func(tx *store.Tx) error {
		g, err := tx.Game(m.id)
		if err == nil && g.Result != "" {
			t.Errorf("game %d has the result %q", m.id, g.Result)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.View(func(tx *store.Tx) error { return tx.VerifyGame(m.id) }); err != nil {
		t.Errorf("game %d does not verify: %v", m.id, err)
	}
}

// expectedReplies are, per player, the notices the moves sent must have
// brought them: a receipt to the mover, the move to the opponent.
func (m *match) expectedReplies() map[*Player][]string {
	want := map[*Player][]string{}
	for i, mv := range m.sent {
		mover, opp := m.seats[i%2], m.seats[1-i%2]
		want[mover.p] = append(want[mover.p], "Your move "+mv+" was accepted.")
		want[opp.p] = append(want[opp.p], mover.side+" played "+rules.MoveLabel(i)+" "+mv+".")
	}
	return want
}

// checkReplies waits until every player has every notice the moves sent
// must have brought, then checks each came in exactly one mail: a mail may
// arrive twice (delivery is at least once: the same Message-ID), but two
// different mails would mean a move was handled twice. It returns how many
// duplicate deliveries there were.
func (m *match) checkReplies(t testing.TB) (dups int) {
	t.Helper()
	for p, wants := range m.expectedReplies() {
		awaitAll(t, p, wants, faultWait)
		for _, w := range wants {
			got := mailsWith(p, w)
			ids := map[string]bool{}
			for _, r := range got {
				ids[r.Msg.MessageID] = true
			}
			if len(ids) != 1 {
				t.Errorf("%s got %d different mails saying %q, want one", p.Address, len(ids), w)
			}
			dups += len(got) - 1
		}
	}
	return dups
}

// awaitAll fetches p's new mail until, for each of wants, some mail p
// received contains it.
func awaitAll(t testing.TB, p *Player, wants []string, within time.Duration) {
	t.Helper()
	waitFor(t, within, fmt.Sprintf("%s did not get all of %q", p.Address, wants), func() bool {
		if _, err := p.Fetch(); err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if len(mailsWith(p, w)) == 0 {
				return false
			}
		}
		return true
	})
}

// mailsWith are the mails p received whose text contains want.
func mailsWith(p *Player, want string) []*Received {
	var out []*Received
	for _, r := range p.Inbox {
		if strings.Contains(r.Text(), want) {
			out = append(out, r)
		}
	}
	return out
}

// ---- the tests ----

// mailFault is one way the mail servers misbehave, for TestFaultMailServers.
type mailFault struct {
	name string
	// on starts the fault, off ends it.
	on, off func(r *rig)
	// blocksIMAP: no mail reaches the daemon during the fault, so only one
	// move is sent then (and must not be applied before the fault ends).
	blocksIMAP bool
	// holdsSMTP: no mail can leave during the fault (the gate must accept
	// nothing until it ends).
	holdsSMTP bool
	// logWant are regular expressions each of which must match a log line
	// written during the fault: the daemon saying what is wrong (and, for
	// outgoing mail held up, that it tried a mail again: attempt=2).
	logWant []string
	// quiet: nothing is wrong (a slow server within the timeouts): the log
	// must show no lost connection and no retry.
	quiet bool
	// imapCuts, smtpCuts: the proxy must have cut connections mid-stream
	// (their byte budget ran out), or the fault did not happen.
	imapCuts, smtpCuts bool
	// slow: the fault is found out only by the daemon's timeouts, seconds
	// each; skipped with -short.
	slow bool
}

// TestFaultMailServers plays a game by mail through a daemon whose IMAP and
// SMTP servers misbehave in each of the ways below, one per subtest: two
// players set up a game, the fault starts, moves are sent (and, unless the
// fault stops mail in or out altogether, their replies must come through
// the fault itself), the fault ends, more moves are sent. Every move sent
// must be applied exactly once (the store's log), every player must get
// every receipt and notice (each once, by Message-ID), the daemon must say
// in its log what went wrong, and it must stop cleanly at the end.
func TestFaultMailServers(t *testing.T) {
	faults := []mailFault{
		{
			name: "imap drops connections",
			on: func(r *rig) {
				r.imap.setBudget(300, 3000) // every connection is cut after 300 B to 3 kB, mid-command
				r.imap.cut()
			},
			off:      func(r *rig) { r.imap.setBudget(0, 0); r.imap.cut() },
			logWant:  []string{`imap connection lost; reconnecting`},
			imapCuts: true,
		},
		{
			name:       "imap unreachable for a while",
			on:         func(r *rig) { r.imap.setMode(refuse); r.imap.cut() },
			off:        func(r *rig) { r.imap.setMode(pass) },
			blocksIMAP: true,
			logWant:    []string{`imap connection lost; reconnecting.*err=.*(EOF|connection reset|broken pipe)`},
		},
		{
			name:       "imap stops answering",
			slow:       true,
			on:         func(r *rig) { r.imap.setMode(blackhole); r.imap.stall() },
			off:        func(r *rig) { r.imap.setMode(pass); r.imap.cut() },
			blocksIMAP: true,
			logWant:    []string{`imap connection lost; reconnecting.*did not answer within`},
		},
		{
			name:  "imap answers slowly",
			on:    func(r *rig) { r.imap.setDelay(30 * time.Millisecond) },
			off:   func(r *rig) { r.imap.setDelay(0) },
			quiet: true,
		},
		{
			name: "smtp drops connections",
			// Cut mid-session, mid-DATA (a move's mail is about 13 kB with its
			// HTML board); the budgets apply to connections made from now on,
			// so the sessions the outbox keeps open are cut first.
			on:       func(r *rig) { r.smtp.setBudget(100, 40000); r.smtp.cut() },
			off:      func(r *rig) { r.smtp.setBudget(0, 0) },
			logWant:  []string{`outgoing mail not accepted; will retry.*err=.*(EOF|connection reset|broken pipe|closed)`},
			smtpCuts: true,
		},
		{
			name:      "smtp refuses mail for a while",
			on:        func(r *rig) { r.gate.refuseEvery.Store(1) },
			off:       func(r *rig) { r.gate.refuseEvery.Store(0) },
			holdsSMTP: true,
			logWant:   []string{`outgoing mail not accepted; will retry.* attempt=2 .*451.*gate: try again later`},
		},
		{
			name:      "smtp unreachable for a while",
			on:        func(r *rig) { r.smtp.setMode(refuse); r.smtp.cut() },
			off:       func(r *rig) { r.smtp.setMode(pass) },
			holdsSMTP: true,
			logWant:   []string{`smtp server unreachable; outgoing mail waits.*err=.*(EOF|connection reset|refused).* probe_in=(2s|1\.[89][0-9]*s)`}, // 2 s less its jitter
		},
		{
			name:      "smtp stops answering",
			slow:      true,
			on:        func(r *rig) { r.smtp.setMode(blackhole); r.smtp.stall() },
			off:       func(r *rig) { r.smtp.setMode(pass); r.smtp.cut() },
			holdsSMTP: true,
			logWant:   []string{`smtp server unreachable; outgoing mail waits.*(did not answer within|i/o timeout).* probe_in=(2s|1\.[89][0-9]*s)`}, // 2 s less its jitter
		},
		{
			name:  "smtp answers slowly",
			on:    func(r *rig) { r.smtp.setDelay(40 * time.Millisecond) },
			off:   func(r *rig) { r.smtp.setDelay(0) },
			quiet: true,
		},
		{
			name: "everything at once",
			slow: true,
			on: func(r *rig) {
				r.imap.setBudget(150, 2500)
				r.smtp.setBudget(100, 40000)
				r.imap.setDelay(5 * time.Millisecond)
				r.smtp.setDelay(5 * time.Millisecond)
				r.gate.refuseEvery.Store(3)
				r.imap.cut() // the budgets apply to the connections made from now on
				r.smtp.cut()
			},
			off: func(r *rig) {
				r.imap.setBudget(0, 0)
				r.smtp.setBudget(0, 0)
				r.imap.setDelay(0)
				r.smtp.setDelay(0)
				r.gate.refuseEvery.Store(0)
			},
			logWant:  []string{`imap connection lost; reconnecting`, `outgoing mail not accepted; will retry`},
			imapCuts: true, smtpCuts: true,
		},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			if f.slow && testing.Short() {
				t.Skip("waits out the daemon's timeouts; the full run has it")
			}
			t.Parallel()
			r := newRig(t, t.TempDir(), nil)
			r.start()
			st := r.d.Store()
			alice, bob := NewPlayer(r.hub, "alice", rigPassword), NewPlayer(r.hub, "bob", rigPassword)
			m := newMatch(t, st, alice, bob, nil)
			m.play(t, st, 2)
			m.checkReplies(t)

			mark := r.log.mark()
			accepted := r.gate.accepted.Load()
			start := time.Now()
			f.on(r)
			if f.blocksIMAP {
				m.send(t, plies[len(m.sent)])
			} else {
				m.play(t, st, 6)
			}
			for _, want := range f.logWant {
				waitLogMatch(t, r.log, mark, faultWait, want)
			}
			if f.blocksIMAP {
				if got := moves(t, st, m.id); len(got) >= len(m.sent) {
					t.Errorf("a move was applied while the IMAP server was out of reach: %q", got)
				}
			}
			if f.holdsSMTP {
				if n := r.gate.accepted.Load() - accepted; n != 0 {
					t.Errorf("%d mails were accepted during the fault", n)
				}
			}
			if !f.blocksIMAP && !f.holdsSMTP {
				m.checkReplies(t) // the replies must get through the fault itself
			}
			f.off(r)
			m.waitApplied(t, st)
			m.play(t, st, 4)
			dups := m.checkReplies(t)
			took := time.Since(start)
			m.checkExactlyOnce(t, st)
			if f.quiet {
				for _, bad := range []string{"imap connection lost", "will retry"} {
					if lines := r.log.lines(mark, bad); len(lines) > 0 {
						t.Errorf("a slow server within the timeouts was treated as failing:\n%s", strings.Join(lines, "\n"))
					}
				}
			}
			if err := r.stop(); err != nil {
				t.Errorf("Run: %v", err)
			}
			ia, ib, ibytes := r.imap.stats()
			sa, sb, sbytes := r.smtp.stats()
			if f.imapCuts && ib == 0 || f.smtpCuts && sb == 0 {
				t.Errorf("no connection was cut mid-stream (imap %d, smtp %d): the fault did not happen", ib, sb)
			}
			t.Logf("%s: %d moves in %v; imap: %d connections (%d cut mid-stream), %d bytes; smtp: %d connections (%d cut), %d bytes; gate refused %d; duplicate deliveries %d; %d reconnections and %d retries logged",
				f.name, len(m.sent)-2, took.Round(time.Millisecond), ia, ib, ibytes, sa, sb, sbytes, r.gate.refused.Load(), dups,
				r.log.count(mark, "imap connection lost"), r.log.count(mark, "will retry"))
		})
	}
}

// mountFS mounts a file system for the test, or skips the test with a
// message when that is not allowed (not root, no mount permission in the
// container), as store/fs_test.go does. It unmounts at the end.
func mountFS(t *testing.T, args ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting a file system for this test needs root")
	}
	target := args[len(args)-1]
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot mount (%v: %s); this test needs root with mount permission", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", target).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", target, err, out)
		}
	})
}

// fillDisk writes a file in dir until the file system is full and returns
// its path; removing it frees the space.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "ballast")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			break
		}
	}
	// Whatever is left is smaller than a page: fill it byte by byte.
	for {
		if _, err := f.Write(chunk[:1]); err != nil {
			break
		}
	}
	return path
}

// TestFaultDiskFull runs the daemon on a 2 MiB tmpfs and fills it while a
// game is played: the moves that cannot be stored must be kept (the mail
// stays in the mailbox and is offered again) with "disk is full" in the
// log, and once space is freed the same daemon applies each exactly once
// and every player gets the replies. Then the daemon is restarted on the
// full disk: it must either stop at once with an error saying the disk is
// full, or serve and keep what it cannot store in the same way. Skipped
// when mount is not permitted.
func TestFaultDiskFull(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	mountFS(t, "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir)
	r := newRig(t, dir, nil)
	r.start()
	alice, bob := NewPlayer(r.hub, "alice", rigPassword), NewPlayer(r.hub, "bob", rigPassword)
	m := newMatch(t, r.d.Store(), alice, bob, nil)
	m.play(t, r.d.Store(), 2)
	m.checkReplies(t)

	mark := r.log.mark()
	ballast := fillDisk(t, dir)
	stuck := playUntilStuck(t, r, m, mark)
	t.Logf("disk full after %d moves; %s kept for retry; the log says:\n%s", len(m.sent), stuck, r.log.lines(mark, "mail kept for retry")[0])
	dups := freeAndFinish(t, r, m, ballast)
	t.Logf("after freeing space: %d moves in all, %d duplicate deliveries, %d failed handlings and %d outbox errors logged",
		len(m.sent), dups, r.log.count(mark, "mail kept for retry"), r.log.count(mark, "disk is full", "outbox"))

	// A restart on the full disk.
	if err := r.stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	ballast = fillDisk(t, dir)
	mark = r.log.mark()
	d, err := New(r.cfg, Options{Logger: r.lg})
	if err != nil {
		if !strings.Contains(err.Error(), "disk is full") {
			t.Fatalf("New on a full disk: %v, want it to say the disk is full", err)
		}
		t.Logf("restart on a full disk: New refused: %v", err)
		return
	}
	d.Close()
	r.start()
	var runErr error
	waitFor(t, faultWait, "the daemon restarted on a full disk neither stopped nor connected", func() bool {
		select {
		case runErr = <-r.done:
			r.cancel() // Run is over: nothing for stop to wait for
			r.cancel = nil
			return true
		default:
			return r.log.count(mark, "imap connected") > 0
		}
	})
	if runErr != nil {
		if !strings.Contains(runErr.Error(), "disk is full") {
			t.Errorf("Run on a full disk: %v, want it to say the disk is full", runErr)
		}
		t.Logf("restart on a full disk: Run stopped: %v", runErr)
		return
	}
	stuck = playUntilStuck(t, r, m, mark)
	t.Logf("restart on a full disk: the daemon serves; %s kept for retry", stuck)
	freeAndFinish(t, r, m, ballast)
	if err := r.stop(); err != nil {
		t.Errorf("Run: %v", err)
	}
}

// playUntilStuck plays m on a full disk until a move cannot be stored: it
// returns that move once the daemon has logged twice (it keeps trying) that
// it kept the mail for retry because the disk is full. A move kept and then
// applied on a retry (it fitted in pages freed meanwhile) is played past.
// The SMTP server refuses mail meanwhile, so that the replies stay in the
// outbox and the database must grow (sent mail leaves the outbox, and its
// pages would be reused).
func playUntilStuck(t *testing.T, r *rig, m *match, mark int) string {
	t.Helper()
	st := r.d.Store()
	r.gate.refuseEvery.Store(1)
	for len(m.sent) < len(plies)-2 {
		m.send(t, plies[len(m.sent)])
		id := m.ids[len(m.ids)-1]
		stuck := false
		waitFor(t, faultWait, "the move was neither applied nor kept for retry", func() bool {
			stuck = r.log.count(mark, "mail kept for retry", id, "disk is full") > 0
			return stuck || len(moves(t, st, m.id)) >= len(m.sent)
		})
		if !stuck {
			continue
		}
		// The retry may go through: a full file system is not a full
		// database. The commit that failed needed more free pages than the
		// file had at that moment; other commits (the outbox recording its
		// refused replies) free and take pages all the time, so a retry a
		// moment later may find enough. Then the move is applied once, and
		// the test plays on to the next one.
		retried, handled := false, false
		waitFor(t, faultWait, "the stuck move was neither retried nor applied", func() bool {
			retried = r.log.count(mark, "mail kept for retry", id) >= 2
			handled = r.log.count(mark, "mail handled", id) > 0
			return retried || handled
		})
		if !handled && len(moves(t, st, m.id)) >= len(m.sent) {
			// Applied after the second failure: only a retry that went
			// through may have done it, never a commit that failed.
			waitFor(t, faultWait, "the stuck move was applied though every commit of it failed", func() bool {
				return r.log.count(mark, "mail handled", id) > 0
			})
			handled = true
		}
		if handled {
			t.Logf("%s was kept for retry and applied on a retry; playing on", m.sent[len(m.sent)-1])
			continue
		}
		return m.sent[len(m.sent)-1]
	}
	t.Fatalf("the disk never filled up: all of %q applied on a full disk", m.sent)
	return ""
}

// freeAndFinish frees the disk and lets mail out again, then checks that
// the stuck move and two more are applied exactly once, every player got
// every reply, and the store verifies; it returns the duplicate deliveries.
func freeAndFinish(t *testing.T, r *rig, m *match, ballast string) int {
	t.Helper()
	st := r.d.Store()
	if err := os.Remove(ballast); err != nil {
		t.Fatal(err)
	}
	r.gate.refuseEvery.Store(0)
	m.waitApplied(t, st)
	m.play(t, st, 2)
	dups := m.checkReplies(t)
	m.checkExactlyOnce(t, st)
	if err := st.Verify(t.Context()); err != nil {
		t.Errorf("the store does not verify after the disk was full: %v", err)
	}
	return dups
}

// TestFaultReadOnlyStore starts the daemon on a store it cannot write: it
// must refuse to start with an error that names the file and says it is
// read-only, and leave the data as it was. The cases needing mount are
// skipped when it is not permitted. Last, it tries to make the store
// read-only under a running daemon with a bind remount.
func TestFaultReadOnlyStore(t *testing.T) {
	// populate makes a data directory with a store holding a game.
	populate := func(t *testing.T, dir string) {
		t.Helper()
		r := newRig(t, dir, nil)
		r.start()
		m := newMatch(t, r.d.Store(), NewPlayer(r.hub, "alice", rigPassword), NewPlayer(r.hub, "bob", rigPassword), nil)
		m.play(t, r.d.Store(), 1)
		if err := r.stop(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		// prepare returns the data directory the daemon is started on.
		prepare func(t *testing.T) string
		want    []string // in the error
		// readOnly: the error must be store.ErrReadOnly (the store's own check).
		readOnly bool
	}{
		{
			name: "database file without write permission",
			prepare: func(t *testing.T) string {
				dir := t.TempDir()
				populate(t, dir)
				if err := os.Chmod(filepath.Join(dir, "bottlepost.db"), 0o444); err != nil {
					t.Fatal(err)
				}
				return dir
			},
			want:     []string{"bottlepost.db", "read-only", "mode 0444"},
			readOnly: true,
		},
		{
			name: "data directory on a read-only mount",
			prepare: func(t *testing.T) string {
				src := t.TempDir()
				populate(t, src)
				ro := filepath.Join(t.TempDir(), "ro")
				os.Mkdir(ro, 0o700)
				mountFS(t, "--bind", src, ro)
				if out, err := exec.Command("mount", "-o", "remount,bind,ro", ro).CombinedOutput(); err != nil {
					t.Skipf("skipped: cannot remount read-only: %v: %s", err, bytes.TrimSpace(out))
				}
				return ro
			},
			want:     []string{"bottlepost.db", "read-only file system"},
			readOnly: true,
		},
		{
			name: "new data directory on a read-only mount",
			prepare: func(t *testing.T) string {
				src, ro := t.TempDir(), filepath.Join(t.TempDir(), "ro")
				os.Mkdir(ro, 0o700)
				mountFS(t, "--bind", src, ro)
				if out, err := exec.Command("mount", "-o", "remount,bind,ro", ro).CombinedOutput(); err != nil {
					t.Skipf("skipped: cannot remount read-only: %v: %s", err, bytes.TrimSpace(out))
				}
				return filepath.Join(ro, "data")
			},
			want: []string{"data directory", "read-only file system"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.prepare(t)
			before := snapshot(t, dir)
			r := newRig(t, dir, nil)
			d, err := New(r.cfg, Options{Logger: r.lg})
			if err == nil {
				d.Close()
				t.Fatal("the daemon started on a read-only store")
			}
			t.Logf("New: %v", err)
			if !containsAll(err.Error(), tc.want...) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if tc.readOnly && !errors.Is(err, store.ErrReadOnly) {
				t.Errorf("error %v is not store.ErrReadOnly", err)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the data directory changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}

	t.Run("read-only under a running daemon", func(t *testing.T) {
		src, dir := t.TempDir(), filepath.Join(t.TempDir(), "data")
		os.Mkdir(dir, 0o700)
		mountFS(t, "--bind", src, dir)
		r := newRig(t, dir, nil)
		r.start()
		m := newMatch(t, r.d.Store(), NewPlayer(r.hub, "alice", rigPassword), NewPlayer(r.hub, "bob", rigPassword), nil)
		m.play(t, r.d.Store(), 1)
		out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput()
		if err != nil {
			// Linux refuses to make a mount read-only while a file on it is
			// open for writing (the database is): EBUSY.
			t.Skipf("skipped: cannot remount the data directory read-only under the running daemon (%v: %s); "+
				"the kernel refuses while the database is open for writing", err, bytes.TrimSpace(out))
		}
		t.Cleanup(func() { exec.Command("mount", "-o", "remount,bind,rw", dir).Run() })
		mark := r.log.mark()
		m.send(t, plies[len(m.sent)])
		waitLog(t, r.log, mark, faultWait, "mail kept for retry", "read-only")
		if out, err := exec.Command("mount", "-o", "remount,bind,rw", dir).CombinedOutput(); err != nil {
			t.Fatalf("remount read-write: %v: %s", err, out)
		}
		m.waitApplied(t, r.d.Store())
		m.checkReplies(t)
		m.checkExactlyOnce(t, r.d.Store())
	})
}

// snapshot describes a directory's files (name, size, modification time,
// mode) so that a test can tell whether anything was written.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "(none)"
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %s %v; ", e.Name(), fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
	}
	return b.String()
}
