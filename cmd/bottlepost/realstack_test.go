package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/internal/mailstack"
	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// The deployment of docs/deploy.md, for real: a private Postfix, Dovecot
// and (where installed) OpenDKIM from Debian's packages, configured with
// the files under docs/deploy, on loopback, with a self-signed certificate
// for mail.club.example. check-mail passes against it, and fails, saying
// which setting to fix, against broken configurations (a TLS port used
// with STARTTLS or plain failing within seconds); serve, configured with
// docs/deploy/bottlepost.toml (tls_ca_file, and tls_server_name since it
// dials 127.0.0.1; trusted_authserv set), reads Dovecot over TLS and sends
// through the submission port with STARTTLS and AUTH. alice and bob, the
// club's members, submit their mail unsigned through port 587 with AUTH,
// exactly as a member's mail program does, and play two games to mate:
// chess, then Seachess with a secret move (a mine), which bob's mails do
// not show while alice's receipt does. During the Seachess game serve is
// stopped with SIGTERM and started again twice (once as a move is on its
// way, once with a move sent while it is stopped) and Dovecot is
// restarted; every move is answered, once, and after Dovecot's restart
// within seconds. Both games are archived; the Seachess game's export is
// the record its final mail carries, and verify checks it against bob's
// receipts and finds the secret move opened under the commitment bob was
// sent. Forgeries of a member's address are not acted on, each owner told
// once: from outside (its forged Authentication-Results stripped), and by
// another member (with another's From; with another's envelope sender,
// Postfix refuses it). With OpenDKIM down, Postfix defers incoming mail
// (milter_default_action = tempfail) and the members still submit; without
// plus-addressing in Postfix or in Dovecot, and with a submission port that
// vouches for nobody, check-mail says so and whose setting it is.
func TestRealMailStack(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts Postfix, Dovecot and OpenDKIM (tens of seconds); the default go test ./... runs it")
	}
	rs := startRealStack(t)
	rs.checkMailDocumented()
	rs.checkMailBroken()
	rs.serve = startServeRuns(t, rs.cfgPath)
	defer rs.serve.stop()
	defer func() {
		if t.Failed() {
			t.Logf("serve's log:\n%s", rs.serve.log())
		}
	}()
	welcome := rs.chess()
	gameNo, finals, game := rs.seachess(welcome)
	rs.serve.stop()
	rs.archivedAndVerified(gameNo, finals, game)
	rs.plusAddressingFaults()
	rs.submissionVouchingForNobody()
	rs.windowsThroughPostfix()
	rs.milterDown()
}

// realStack is TestRealMailStack's deployment: the mail stack, the
// documented bottlepost.toml moved into a temporary directory, the members.
type realStack struct {
	t               *testing.T
	st              *mailstack.Stack
	dir             string
	cfgPath         string
	cfgText, pwFile string
	imapsPort       string
	imapPort        string
	clientTLS       *tls.Config
	alice, bob, eve *daemon.Player
	serve           *serveRuns
}

// within bounds every wait for a mail.
const within = 30 * time.Second

// service is the club's bottlepost address.
const service = "games@" + mailstack.Domain

func startRealStack(t *testing.T) *realStack {
	st := mailstack.Start(t, "../../docs/deploy", mailstack.Options{})
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(st.Logs())
		}
	})
	if !st.OpenDKIM {
		t.Log("OpenDKIM is not installed (Debian: apt-get install opendkim): the game runs without trusted_authserv")
	}
	rs := &realStack{t: t, st: st, dir: t.TempDir()}
	rs.pwFile = filepath.Join(rs.dir, "password")
	os.WriteFile(rs.pwFile, []byte(mailstack.Password+"\n"), 0o600)
	_, rs.imapsPort, _ = strings.Cut(st.IMAPS, ":")
	_, rs.imapPort, _ = strings.Cut(st.IMAP, ":")
	rs.cfgText = movedConfig(t, st, "", filepath.Join(rs.dir, "data"), rs.pwFile)
	if !st.OpenDKIM {
		rs.cfgText = strings.Replace(rs.cfgText, `trusted_authserv = "mail.club.example"`, `trusted_authserv = ""`, 1)
	}
	rs.cfgPath = filepath.Join(rs.dir, "bottlepost.toml")
	os.WriteFile(rs.cfgPath, []byte(rs.cfgText), 0o600)
	rs.clientTLS = &tls.Config{RootCAs: x509.NewCertPool(), ServerName: mailstack.Host}
	rs.clientTLS.RootCAs.AppendCertsFromPEM(st.CertPEM)
	// The members' mail programs: unsigned mail, submitted on 587 with AUTH.
	member := func(name string) *daemon.Player {
		return daemon.NewMailUser(name+"@"+mailstack.Domain, mailstack.Password, st.IMAP, st.Submission, rs.clientTLS)
	}
	rs.alice, rs.bob, rs.eve = member("alice"), member("bob"), member("eve")
	return rs
}

// movedConfig is docs/deploy/bottlepost.toml (with extra appended, as
// docs/deploy.md appends docs/deploy/pipe/bottlepost.toml) moved to the
// stack: 127.0.0.1 for the host (the certificate holds only
// mail.club.example, so tls_server_name names it), the stack's ports, the
// test's files; the web view off. Each replacement must find its text.
func movedConfig(t *testing.T, st *mailstack.Stack, extra, dataDir, pwFile string, repl ...string) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/deploy/bottlepost.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, imapsPort, _ := strings.Cut(st.IMAPS, ":")
	_, subPort, _ := strings.Cut(st.Submission, ":")
	text := string(doc) + extra
	all := append([]string{
		`host = "mail.club.example"`, `host = "127.0.0.1"`,
		`port = 993`, "port = " + imapsPort,
		`port = 587`, "port = " + subPort,
		`"/var/lib/bottlepost"`, fmt.Sprintf("%q", dataDir),
		`file:/etc/bottlepost/imap-password`, "file:" + pwFile,
		`tls_ca_file = "/etc/ssl/club/cert.pem"`, fmt.Sprintf("tls_ca_file = %q\ntls_server_name = %q", st.CertFile, mailstack.Host),
	}, repl...)
	for i := 0; i+1 < len(all); i += 2 {
		if !strings.Contains(text, all[i]) {
			t.Fatalf("docs/deploy's bottlepost.toml no longer holds %q: update the test with the docs", all[i])
		}
		text = strings.ReplaceAll(text, all[i], all[i+1])
	}
	return text + "\n[web]\nlisten = \"\"\n"
}

// writeCfg writes the configuration with replacements (old, new pairs,
// each of which must be found once) as NAME.toml and returns its path.
func (rs *realStack) writeCfg(name string, repl ...string) string {
	text := rs.cfgText
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(text, repl[i]) {
			rs.t.Fatalf("%s: the configuration holds no %q", name, repl[i])
		}
		text = strings.Replace(text, repl[i], repl[i+1], 1)
	}
	p := filepath.Join(rs.dir, name+".toml")
	os.WriteFile(p, []byte(text), 0o600)
	return p
}

// checkMail runs check-mail with a configuration and logs what it said.
func (rs *realStack) checkMail(what, cfgPath, wait string) (code int, out string, took time.Duration) {
	start := time.Now()
	code, out, errOut := runCLI("check-mail", "--config", cfgPath, "--wait", wait)
	took = time.Since(start)
	rs.t.Logf("check-mail, %s (%v):\n%s%s", what, took.Round(100*time.Millisecond), out, errOut)
	return code, out, took
}

// checkMailDocumented: every step passes against the documented set-up,
// the probe proving plus-addressing and, with trusted_authserv, that the
// submission port vouches for its logins.
func (rs *realStack) checkMailDocumented() {
	t := rs.t
	code, out, _ := rs.checkMail("the documented set-up", rs.cfgPath, "30s")
	steps := 7
	if rs.st.OpenDKIM {
		steps++
		if !strings.Contains(out, "ok   trusted_authserv       the probe arrived vouched for by "+mailstack.Host) {
			t.Errorf("check-mail did not find the probe vouched for:\n%s", out)
		}
	}
	if code != 0 || strings.Contains(out, "FAIL") || strings.Contains(out, "WARN") || !strings.Contains(out, "plus-addressing") ||
		strings.Count(out, "\nok ")+1 < steps || !strings.Contains(out, "all good") {
		t.Fatalf("check-mail against the documented set-up: exit %d, want %d steps ok\n%s", code, steps, out)
	}
}

// checkMailBroken: against broken configurations, each line says what to
// fix; a TLS port used with STARTTLS is found within seconds.
func (rs *realStack) checkMailBroken() {
	t := rs.t
	wrongPW := filepath.Join(rs.dir, "wrong")
	os.WriteFile(wrongPW, []byte("not the password\n"), 0o600)
	for _, tc := range []struct {
		name   string
		repl   []string
		wants  []string
		within time.Duration // check-mail's whole run; 0: not timed
	}{
		{"untrusted certificate, wrong smtp password", []string{
			"tls_ca_file = " + fmt.Sprintf("%q", rs.st.CertFile), "",
			`password = "file:` + rs.pwFile + `"` + "\nhelo", `password = "file:` + wrongPW + `"` + "\nhelo",
		}, []string{"FAIL imap connect", "set imap.tls_ca_file", "FAIL smtp session", "check smtp.username and smtp.password"}, 0},
		{"tls on the starttls port", []string{"port = " + rs.imapsPort, "port = " + rs.imapPort},
			[]string{"FAIL imap connect", `set imap.security = "starttls"`}, 0},
		{"starttls on the tls port", []string{`security = "tls"`, `security = "starttls"`},
			[]string{"FAIL imap connect", `speaks TLS at once`, `set imap.security = "tls"`}, 5 * time.Second},
		{"plain on the tls port", []string{`security = "tls"`, `security = "plain"`},
			[]string{"FAIL imap connect", `speaks TLS at once`, `set imap.security = "tls"`}, 5 * time.Second},
		{"no such mailbox", []string{`[imap]`, "[imap]\nmailbox = \"Games\""},
			[]string{"FAIL imap mailbox", "check imap.mailbox"}, 0},
		{"certificate for another name", []string{fmt.Sprintf("tls_server_name = %q", mailstack.Host), ""},
			[]string{"FAIL imap connect", "set imap.tls_server_name"}, 0},
	} {
		p := rs.writeCfg(strings.ReplaceAll(tc.name, " ", "-"), tc.repl...)
		code, out, took := rs.checkMail(tc.name, p, "10s")
		if code != 1 {
			t.Errorf("check-mail, %s: exit %d, want 1", tc.name, code)
		}
		for _, w := range tc.wants {
			if !strings.Contains(out, w) {
				t.Errorf("check-mail, %s: no %q in\n%s", tc.name, w, out)
			}
		}
		if tc.within > 0 && took > tc.within {
			t.Errorf("check-mail, %s: took %v, want the mistake found within %v", tc.name, took.Round(100*time.Millisecond), tc.within)
		}
	}
}

// serveRuns is serve, run in this process and stopped (SIGTERM) and
// started again at will, with one log across its runs.
type serveRuns struct {
	t          *testing.T
	cfgPath    string
	stopC      chan os.Signal
	done       chan int
	stopped    bool
	sout, serr syncBuffer
}

func startServeRuns(t *testing.T, cfgPath string) *serveRuns {
	s := &serveRuns{t: t, cfgPath: cfgPath, stopC: make(chan os.Signal, 1), stopped: true}
	old := signals
	reload := make(chan os.Signal, 1)
	signals = func() (<-chan os.Signal, <-chan os.Signal, func()) { return s.stopC, reload, func() {} }
	t.Cleanup(func() { signals = old })
	s.start()
	return s
}

func (s *serveRuns) start() {
	s.stopped = false
	s.done = make(chan int, 1)
	go func(done chan<- int) { done <- run([]string{"serve", "--config", s.cfgPath}, &s.sout, &s.serr) }(s.done)
}

// stop ends serve; ok is false when it is still running.
func (s *serveRuns) stop() (ok bool) {
	if s.stopped {
		return true
	}
	s.stopped = true
	s.stopC <- syscall.SIGTERM
	select {
	case code := <-s.done:
		if code != 0 {
			s.t.Errorf("serve exited %d:\n%s", code, s.serr.String())
		}
		return true
	case <-time.After(30 * time.Second):
		s.t.Errorf("serve did not stop within 30s")
		return false
	}
}

// halt stops serve, or ends the test: a serve still running would read
// the mailbox beside the next one.
func (s *serveRuns) halt() {
	s.t.Helper()
	if !s.stop() {
		s.t.FailNow()
	}
}

func (s *serveRuns) log() string { return s.serr.String() }

func (rs *realStack) send(p *daemon.Player, m daemon.Mail) {
	rs.t.Helper()
	if _, err := p.Send(m); err != nil {
		rs.t.Fatalf("%s sends %q: %v", p.Address, m.Subject, err)
	}
}

func (rs *realStack) reply(p *daemon.Player, body string) {
	rs.t.Helper()
	if _, err := p.Reply(body); err != nil {
		rs.t.Fatalf("%s replies %q: %v", p.Address, body, err)
	}
}

func (rs *realStack) await(p *daemon.Player, want string) *daemon.Received {
	rs.t.Helper()
	r, err := p.Await(want, within)
	if err != nil {
		rs.t.Fatal(err)
	}
	return r
}

// chess: alice's first mail is welcomed (and logged so), she challenges
// bob, and they play the fool's mate; then the forgeries. It returns
// alice's welcome.
func (rs *realStack) chess() *daemon.Received {
	t, alice, bob := rs.t, rs.alice, rs.bob
	rs.send(alice, daemon.Mail{To: service, Subject: "hello", Body: "hi"})
	welcome := rs.await(alice, "your personal address")
	if !strings.HasPrefix(welcome.ReplyTo, "games+") || !strings.HasSuffix(welcome.ReplyTo, "@"+mailstack.Domain) {
		t.Fatalf("welcome Reply-To %q, want a plus-address of %s", welcome.ReplyTo, service)
	}
	if log := rs.serve.log(); !strings.Contains(log, "first mail answered with the welcome") || strings.Contains(log, "message refused") {
		t.Errorf("serve's log of the welcome: want it called a welcome, not a refusal:\n%s", log)
	}
	rs.send(alice, daemon.Mail{To: welcome.ReplyTo, Subject: "new game", Body: "new chess vs bob@" + mailstack.Domain + " as white time 3d\n"})
	rs.await(alice, "Your challenge to player 2 <bob@"+mailstack.Domain+">")
	rs.await(bob, "challenges you to a game of Chess")
	rs.reply(bob, "accept")
	rs.await(alice, "The game has begun")
	rs.await(bob, "The game has begun")
	rs.reply(alice, "f3")
	rs.await(bob, "White played 1. f3.")
	rs.reply(bob, "e5")
	rs.await(alice, "Black played 1... e5.")
	rs.reply(alice, "g4")
	rs.await(bob, "White played 2. g4.")
	rs.reply(bob, "Qh4#")
	rs.await(alice, "Game over: 0-1, Black wins: checkmate")
	rs.await(bob, "Game over: 0-1, Black wins: checkmate")
	if rs.st.OpenDKIM {
		rs.forgeries()
	}
	return welcome
}

// forgeries of the members' addresses, each asking the service to
// challenge eve: none is acted on, and the owner of each forged address is
// told once.
//
//   - From outside, on port 25, in bob's name, with the server's verdict
//     forged (a DKIM pass and an AUTH pass): Postfix removes both, OpenDKIM
//     adds its own (no signature: dkim=none).
//   - By eve, a member, logged in, with alice's From and her own envelope
//     sender: the submission port says it was eve's login.
//   - By eve with alice's envelope sender: Postfix refuses it (553).
func (rs *realStack) forgeries() {
	t, alice, bob, eve := rs.t, rs.alice, rs.bob, rs.eve
	challenge := "new chess vs " + eve.Address + "\n"
	forgedAR := []string{mailstack.Host + "; dkim=pass header.d=" + mailstack.Domain, mailstack.Host + "; auth=pass smtp.auth=" + bob.Address}
	rs.rawSend(rs.st.SMTP, nil, "mallory@elsewhere.example", bob.Address, "forged from outside", challenge, forgedAR...)
	if ar := awaitHeader(t, rs.st, rs.clientTLS, "forged from outside", "Authentication-Results"); len(ar) != 1 || strings.Contains(ar[0], "pass") || !strings.Contains(ar[0], "dkim=none") {
		t.Errorf("the mail forged from outside arrived with Authentication-Results %q; want only OpenDKIM's dkim=none", ar)
	}
	rs.rawSend(rs.st.Submission, eve, eve.Address, alice.Address, "forged by a member", challenge, mailstack.Host+"; auth=pass smtp.auth="+alice.Address)
	if ar := awaitHeader(t, rs.st, rs.clientTLS, "forged by a member", "Authentication-Results"); len(ar) == 0 || ar[0] != mailstack.Host+"; auth=pass smtp.auth="+eve.Address {
		t.Errorf("the member's forgery arrived with Authentication-Results %q; want Postfix's naming eve's login on top", ar)
	}
	_, err := eve.Send(daemon.Mail{From: alice.Address, To: service, Subject: "forged envelope", Body: challenge})
	if se := (*smtp.SMTPError)(nil); !errors.As(err, &se) || se.Code != 553 || !strings.Contains(se.Message, "not owned by user "+eve.Address) {
		t.Errorf("eve sending with alice's envelope sender: %v; want Postfix's 553, not owned by user %s", err, eve.Address)
	}
	for _, p := range []*daemon.Player{bob, alice} {
		told := rs.await(p, "was not acted on")
		if !strings.Contains(told.Msg.Subject, "your mail was not acted on") || strings.Contains(told.Text(), "new chess") {
			t.Errorf("%s was told:\n%s", p.Address, told.Text())
		}
	}
	if log := rs.serve.log(); !strings.Contains(log, "submitted by the login "+eve.Address+", not by the sender") {
		t.Errorf("serve's log does not say whose login sent the member's forgery:\n%s", log)
	}
}

// rawSend submits a message as a mail program would, to addr: with STARTTLS
// and AUTH as p when p is set, else as a server on port 25 does. arFields
// are Authentication-Results fields written into it (forgeries).
func (rs *realStack) rawSend(addr string, p *daemon.Player, envFrom, from, subject, body string, arFields ...string) {
	t := rs.t
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s.%d@client.test>\r\n",
		from, service, subject, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(subject, " ", "-"), time.Now().UnixNano())
	for _, f := range arFields {
		fmt.Fprintf(&b, "Authentication-Results: %s\r\n", f)
	}
	fmt.Fprintf(&b, "\r\n%s", strings.ReplaceAll(body, "\n", "\r\n"))
	var c *smtp.Client
	var err error
	if p != nil {
		c, err = smtp.DialStartTLS(addr, rs.clientTLS)
	} else {
		c, err = smtp.Dial(addr)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		t.Fatal(err)
	}
	if p != nil {
		if err := c.Auth(sasl.NewPlainClient("", p.Address, mailstack.Password)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SendMail(envFrom, []string{service}, strings.NewReader(b.String())); err != nil {
		t.Fatalf("%q to %s: %v", subject, addr, err)
	}
	c.Quit()
}

// seachess is the variant with secret moves through the same stack: a mine
// laid (a hidden move), serve stopped and started again twice and Dovecot
// restarted mid-game, and the carrier's mate in five: from j4 its
// aircraft's outline (S7.4) checks the commando ship on g1, boxed in by its
// own pieces, and nothing of White's reaches j4. It returns the game's
// number, the last mail of each (alice's, bob's) and each member's mail of
// the game.
func (rs *realStack) seachess(welcome *daemon.Received) (gameNo string, finals [2]*daemon.Received, game map[*daemon.Player][]*daemon.Received) {
	t, alice, bob := rs.t, rs.alice, rs.bob
	aliceFrom, bobFrom := len(alice.Inbox), len(bob.Inbox)
	rs.send(alice, daemon.Mail{To: welcome.ReplyTo, Subject: "new game", Body: "new seachess vs bob@" + mailstack.Domain + " as white time 3d\n"})
	rs.await(alice, "Your challenge to player 2 <bob@"+mailstack.Domain+">")
	rs.await(bob, "challenges you to a game of Seachess")
	rs.reply(bob, "accept")
	rs.await(alice, "The game has begun")
	begun := rs.await(bob, "The game has begun")
	m := regexp.MustCompile(`\[bp-([0-9]+)\]`).FindStringSubmatch(begun.Msg.Subject)
	if m == nil {
		t.Fatalf("the Seachess game's mail has no tag in its subject %q", begun.Msg.Subject)
	}
	for ply, m := range seachessPlies {
		p, opp := rs.mover(ply)
		back := rs.playDisturbed(ply, p, m.move)
		receipt := rs.await(p, "Your move "+m.move+" was accepted.")
		if !back.IsZero() {
			if took := time.Since(back); took > 20*time.Second { // seconds, not the minute of a grown backoff; room for a loaded machine
				t.Errorf("the answer came %v after Dovecot's restart; want within seconds", took.Round(100*time.Millisecond))
			}
			t.Logf("answered %v after Dovecot's restart", time.Since(back).Round(100*time.Millisecond))
		}
		theirs := rs.await(opp, m.seen)
		if ply == 0 {
			secretKept(t, receipt, theirs)
		}
		if ply == len(seachessPlies)-1 {
			finals = [2]*daemon.Received{theirs, receipt}
		}
	}
	for i, f := range finals {
		for _, want := range []string{"Game over: 0-1, Black wins: checkmate", "1. Cc1-M (White's secret move)"} {
			if !strings.Contains(f.Text(), want) {
				t.Errorf("the final Seachess mail to %s lacks %q:\n%s", []string{"alice", "bob"}[i], want, f.Text())
			}
		}
	}
	t.Logf("the final Seachess mail to bob:\n%s", finals[1].Text())
	for _, p := range []*daemon.Player{alice, bob} {
		if _, err := p.Fetch(); err != nil {
			t.Fatal(err)
		}
	}
	game = map[*daemon.Player][]*daemon.Received{alice: alice.Inbox[aliceFrom:], bob: bob.Inbox[bobFrom:]}
	rs.answeredOnce(game)
	return m[1], finals, game
}

// seachessPlies are the Seachess game's moves, alice (White) playing the
// even plies, and what the opponent is told of each.
var seachessPlies = []struct{ move, seen string }{
	{"Cc1-M", "White played 1. (h)."}, // the cruiser lays a mine on its own square (S3.2): bob reads "(h)" (S10.1)
	{"Bg11-g10", "Black played 1... Bg11-g10."},
	{"Bc2-c3", "White played 2. Bc2-c3."},
	{"Af12-h10", "Black played 2... Af12-h10."}, // two squares diagonally, over g11 (S7.1)
	{"Bd2-d3", "White played 3. Bd2-d3."},
	{"Ah10-j8", "Black played 3... Ah10-j8."},
	{"Be2-e3", "White played 4. Be2-e3."},
	{"Aj8-j6", "Black played 4... Aj8-j6."},
	{"Bc3-c4", "White played 5. Bc3-c4."},
	{"Aj6-j4", "Black played 5... Aj6-j4+."},
}

// mover is who plays a ply of the Seachess game, and the opponent.
func (rs *realStack) mover(ply int) (p, opp *daemon.Player) {
	if ply%2 == 0 {
		return rs.alice, rs.bob
	}
	return rs.bob, rs.alice
}

// playDisturbed sends a ply's move, disturbing some: serve stopped
// (SIGTERM) as bob's first move goes out and started again (whether it
// read the move before it stopped or finds it in the INBOX afterwards, the
// move is answered, once); stopped before alice's second is sent (the move
// waits in Dovecot, unread, until serve runs again); Dovecot restarted
// before her third (serve is back within seconds: its backoff starts over
// after every session that selected the mailbox). It returns when Dovecot
// was back, for the third.
func (rs *realStack) playDisturbed(ply int, p *daemon.Player, move string) (dovecotBack time.Time) {
	switch ply {
	case 1:
		rs.reply(p, move)
		rs.serve.halt()
		rs.serve.start()
		rs.t.Logf("serve restarted while %d... %s was on its way", ply/2+1, move)
	case 2:
		rs.serve.halt()
		rs.reply(p, move)
		rs.serve.start()
		rs.t.Logf("serve restarted after %d. %s was sent while it was stopped", ply/2+1, move)
	case 4:
		rs.st.RestartDovecot(rs.t)
		dovecotBack = time.Now()
		rs.reply(p, move)
	default:
		rs.reply(p, move)
	}
	return dovecotBack
}

// answeredOnce: nothing lost, nothing twice: each move of the Seachess
// game was answered to each player exactly once, and no mail says a move
// was not played.
func (rs *realStack) answeredOnce(game map[*daemon.Player][]*daemon.Received) {
	count := func(p *daemon.Player, text string) (n int) {
		for _, r := range game[p] {
			if strings.Contains(r.Text(), text) {
				n++
			}
		}
		return n
	}
	for ply, m := range seachessPlies {
		p, opp := rs.mover(ply)
		if n := count(p, "Your move "+m.move+" was accepted."); n != 1 {
			rs.t.Errorf("%s got %d receipts for %s, want 1", p.Address, n, m.move)
		}
		if n := count(opp, m.seen); n != 1 {
			rs.t.Errorf("%s was told %d times %q, want once", opp.Address, n, m.seen)
		}
	}
	for _, p := range []*daemon.Player{rs.alice, rs.bob} {
		if n := count(p, "was not played"); n != 0 {
			rs.t.Errorf("%s was told %d times that a move was not played", p.Address, n)
		}
	}
	// The forgeries: each owner told once in all, eve (whom they would have
	// challenged) never written to.
	if rs.st.OpenDKIM {
		for _, p := range []*daemon.Player{rs.alice, rs.bob} {
			n := 0
			for _, r := range p.Inbox {
				if strings.Contains(r.Text(), "was not acted on") {
					n++
				}
			}
			if n != 1 {
				rs.t.Errorf("%s was told %d times that mail in their name was not acted on, want once", p.Address, n)
			}
		}
		if rs.eve.Fetch(); len(rs.eve.Inbox) > 0 {
			rs.t.Errorf("a forgery was acted on: eve got\n%s", rs.eve.Inbox[0].Text())
		}
	}
}

// archivedAndVerified: both games are archived; offline, as bob can, the
// exported record is the one his final mail carries, it verifies against
// the receipts his mails quoted (the last one anchoring every record), and
// it opens the secret move under the commitment bob was sent when it was
// played.
func (rs *realStack) archivedAndVerified(gameNo string, finals [2]*daemon.Received, game map[*daemon.Player][]*daemon.Received) {
	t, dir := rs.t, rs.dir
	s, err := store.Open(filepath.Join(dir, "data", "bottlepost.db"), store.Options{KeyFile: filepath.Join(dir, "data", "bottlepost.key")})
	if err != nil {
		t.Fatal(err)
	}
	var archived []uint64
	s.View(func(tx *store.Tx) error { archived, err = tx.ArchivedGames(); return err })
	s.Close()
	if len(archived) != 2 {
		t.Errorf("archived games %v, want the two played to mate", archived)
	}
	pgn := filepath.Join(dir, "bp-"+gameNo+".pgn")
	if code, _, errOut := runCLI("export", gameNo, "--config", rs.cfgPath, "-o", pgn); code != 0 {
		t.Fatalf("export %s: exit %d: %s", gameNo, code, errOut)
	}
	exported := mustRead(t, pgn)
	if att := attachment(t, finals[1].Raw, "bp-"+gameNo+".pgn"); strings.ReplaceAll(att, "\r\n", "\n") != exported {
		t.Errorf("the record attached to bob's final mail is not the export:\n%s\n---\n%s", att, exported)
	}
	var bobReceipts []string
	for _, r := range game[rs.bob] {
		bobReceipts = append(bobReceipts, receiptLine.FindAllString(strings.ReplaceAll(r.Text(), "\r", ""), -1)...)
	}
	if len(bobReceipts) < len(seachessPlies) {
		t.Fatalf("bob's mails quoted %d receipts, want one at least for each of the %d moves", len(bobReceipts), len(seachessPlies))
	}
	last := bobReceipts[len(bobReceipts)-1]
	records, _, _ := strings.Cut(last, ":")
	code, out, errOut := runCLI(append([]string{"verify", pgn}, bobReceipts...)...)
	t.Logf("verify %s with bob's %d receipts:\n%s%s", filepath.Base(pgn), len(bobReceipts), out, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := fmt.Sprintf("verified: game %s (Seachess, standard, 3d): player 1 v player 2, %d moves (1 secret), 0-1 (Black wins: checkmate", gameNo, rules.FullMoves(len(seachessPlies)))
	wantLast := "anchored by your receipt " + last + ": all " + records + " records are the ones you were sent"
	if code != 0 || !strings.Contains(out, want) || lines[len(lines)-1] != wantLast {
		t.Errorf("verify: exit %d; want 0, a line %q and, last, %q", code, want, wantLast)
	}
	var commitment []string
	for _, r := range game[rs.bob] {
		if commitment = regexp.MustCompile(`1\. White's hidden move:\s+([0-9a-f]{64})`).FindStringSubmatch(r.Text()); commitment != nil {
			break
		}
	}
	if commitment == nil {
		t.Errorf("no mail told bob the commitment to White's hidden move")
	} else if !strings.Contains(strings.Join(strings.Fields(exported), " "), "1. Cc1-M {secret move of White, commitment "+commitment[1]+", opened with key ") {
		// (the move text is broken into lines of at most 79 characters)
		t.Errorf("the export does not open Cc1-M under the commitment bob was sent (%s):\n%s", commitment[1], exported)
	}
}

// plusAddressingFaults: without plus-addressing, check-mail says the
// replies cannot arrive, and whose setting it is: Dovecot's (it refuses
// the address over LMTP, the bounce comes back) or Postfix's (it refuses
// the address on 587).
func (rs *realStack) plusAddressingFaults() {
	for _, tc := range []struct {
		name    string
		breakIt func() (restore func())
		wants   []string
	}{
		{"Dovecot without recipient_delimiter", func() func() {
			return rs.st.ReconfigureDovecot(rs.t, "\nrecipient_delimiter = +\n", "\nrecipient_delimiter =\n")
		}, []string{"FAIL plus-addressing", "its delivery bounced", "User doesn't exist", "Dovecot: recipient_delimiter = + in dovecot.conf"}},
		{"Postfix without recipient_delimiter", func() func() { return rs.st.Postconf(rs.t, "recipient_delimiter=") },
			[]string{"FAIL plus-addressing", "refused the plus-address", "Postfix: recipient_delimiter = + in main.cf"}},
	} {
		restore := tc.breakIt()
		code, out, _ := rs.checkMail(tc.name, rs.cfgPath, "15s")
		restore()
		if code != 1 {
			rs.t.Errorf("check-mail, %s: exit %d, want 1", tc.name, code)
		}
		for _, w := range tc.wants {
			if !strings.Contains(out, w) {
				rs.t.Errorf("check-mail, %s: no %q in\n%s", tc.name, w, out)
			}
		}
	}
}

// submissionVouchingForNobody: a submission port that does not say who
// sent the mail (no submission_auth): with trusted_authserv set, the probe
// arrives vouched for by nothing, and check-mail warns that the members'
// mail will be refused.
func (rs *realStack) submissionVouchingForNobody() {
	if !rs.st.OpenDKIM {
		return
	}
	restore := rs.st.Postconf(rs.t, "submission_sender_restrictions=reject_sender_login_mismatch")
	code, out, _ := rs.checkMail("a submission port vouching for nobody", rs.cfgPath, "15s")
	restore()
	for _, w := range []string{"WARN trusted_authserv", "arrived without a verdict of " + mailstack.Host + " that vouches for it (no Authentication-Results from " + mailstack.Host + ")", "serve will refuse the players' mail", "read the lines marked WARN"} {
		if code != 0 || !strings.Contains(out, w) {
			rs.t.Errorf("check-mail with a submission port vouching for nobody: exit %d, want 0 and %q:\n%s", code, w, out)
		}
	}
}

// windowsThroughPostfix: the outbox's client through Postfix: the
// service's client, set up as docs/deploy has it (STARTTLS, AUTH,
// chunking), sends a dozen mails in one SendAll, each mail's commands
// pipelined, with an address Postfix does not know among them. That one is
// refused at RCPT (550), and every other mail reaches alice's mailbox, once
// (smtpclient's TestSendAllRefusalsAmongManyMails covers the same against a
// scripted server).
func (rs *realStack) windowsThroughPostfix() {
	t, alice := rs.t, rs.alice
	sender, err := smtpclient.New(smtpclient.Config{Addr: rs.st.Submission, Security: "starttls", Username: service,
		Password: mailstack.Password, TLSConfig: rs.clientTLS, Chunking: true, Timeout: within})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := sender.Dial()
	if err != nil {
		t.Fatalf("the service's SMTP client against Postfix: %v", err)
	}
	var batch []smtpclient.Mail
	var wantAnswers []string
	for i := range 12 {
		to := alice.Address
		if i == 5 {
			to = "nobody@" + mailstack.Domain
		}
		batch = append(batch, smtpclient.Mail{From: service, To: []string{to}, Data: fmt.Appendf(nil,
			"From: <%s>\r\nTo: <%s>\r\nSubject: window %d\r\nMessage-ID: <window-%d@%s>\r\nDate: %s\r\n\r\nwindow mail %d\r\n",
			service, to, i, i, mailstack.Domain, time.Now().Format(time.RFC1123Z), i)})
		wantAnswers = append(wantAnswers, fmt.Sprintf("%d:%v", i, map[bool]int{true: 550, false: 0}[i == 5]))
	}
	var answers []string
	if err := conn.SendAll(batch, func(i int, err error) error {
		code := 0
		var se *smtp.SMTPError
		if errors.As(err, &se) {
			code = se.Code
		} else if err != nil {
			t.Errorf("window mail %d: %v is not a refusal", i, err)
		}
		answers = append(answers, fmt.Sprintf("%d:%d", i, code))
		return nil
	}); err != nil {
		t.Fatalf("SendAll through Postfix: %v", err)
	}
	conn.Close()
	if strings.Join(answers, " ") != strings.Join(wantAnswers, " ") {
		t.Errorf("Postfix's answers %q, want %q", answers, wantAnswers)
	}
	got := map[string]int{}
	for end := time.Now().Add(within); len(got) < 11 && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		fetched, err := alice.Fetch()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range fetched {
			if s := r.Msg.Subject; strings.HasPrefix(s, "window ") {
				got[s]++
			}
		}
	}
	for i := range 12 {
		if n := got[fmt.Sprintf("window %d", i)]; n != map[bool]int{true: 0, false: 1}[i == 5] {
			t.Errorf("window mail %d reached alice %d times", i, n)
		}
	}
}

// milterDown: with OpenDKIM down, Postfix defers incoming mail on port 25
// rather than pass it unverified (milter_default_action = tempfail); the
// members' submissions on 587 do not need it.
func (rs *realStack) milterDown() {
	if !rs.st.OpenDKIM {
		return
	}
	rs.st.StopOpenDKIM()
	c, err := smtp.Dial(rs.st.SMTP)
	if err != nil {
		rs.t.Fatal(err)
	}
	defer c.Close()
	err = c.SendMail("mallory@elsewhere.example", []string{service}, strings.NewReader("From: <mallory@elsewhere.example>\r\nTo: <"+service+">\r\nSubject: while the milter is down\r\n\r\nhello\r\n"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code/100 != 4 {
		rs.t.Errorf("mail accepted on port 25 with OpenDKIM down (err %v); want it deferred (4xx)", err)
	}
	if _, err := rs.alice.Send(daemon.Mail{To: service, Subject: "a member while the milter is down", Body: "games"}); err != nil {
		rs.t.Errorf("a member's submission with OpenDKIM down: %v; want it taken", err)
	}
}

// awaitHeader waits for the message with this subject in the service's
// mailbox or its processed folder and returns the values of a header field.
func awaitHeader(t *testing.T, st *mailstack.Stack, tlsCfg *tls.Config, subject, field string) []string {
	t.Helper()
	c, err := imapclient.DialStartTLS(st.IMAP, &imapclient.Options{TLSConfig: tlsCfg})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("games@"+mailstack.Domain, mailstack.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	section := &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true}
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		for _, box := range []string{"INBOX", "bottlepost-processed"} {
			if _, err := c.Select(box, nil).Wait(); err != nil {
				continue
			}
			found, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: subject}}}, nil).Wait()
			if err != nil || len(found.AllUIDs()) == 0 {
				continue
			}
			msgs, err := c.Fetch(imap.UIDSetNum(found.AllUIDs()[0]), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
			if err != nil || len(msgs) == 0 {
				t.Fatalf("fetching %q: %v", subject, err)
			}
			var vals []string
			for _, line := range strings.Split(strings.ReplaceAll(string(msgs[0].FindBodySection(section)), "\r\n\t", " "), "\r\n") {
				if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, field) {
					vals = append(vals, strings.TrimSpace(v))
				}
			}
			return vals
		}
	}
	t.Fatalf("no message %q arrived in the service's mailbox", subject)
	return nil
}

// secretKept checks a hidden move's two mails (Cc1-M, White's mine on c1):
// what names it — the move, White's cruiser on its mine (C*), the square —
// is in its mover's receipt and in no part of the opponent's mail (text,
// HTML, subject), where only "(h)" and the commitment stand for it (S10.1).
// The commitment and the receipt are hex and may hold anything, so they are
// masked first. Each marker must be found in the receipt, so that the check
// of the other mail can fail.
func secretKept(t *testing.T, receipt, theirs *daemon.Received) {
	t.Helper()
	hex := regexp.MustCompile(`[0-9a-f]{64}`)
	for _, m := range []struct {
		what   string
		re     *regexp.Regexp
		inText bool // only the text part: the HTML board titles every cell with its square
	}{
		{"the move", regexp.MustCompile(`Cc1-M`), false},
		{"White's cruiser on its own mine", regexp.MustCompile(`C\*`), false},
		{"the square", regexp.MustCompile(`\bc1\b`), true},
	} {
		read := func(r *daemon.Received) string {
			if m.inText {
				return hex.ReplaceAllString(r.Msg.Subject+"\n"+r.Text(), "DIGEST")
			}
			return hex.ReplaceAllString(r.Msg.Subject+"\n"+decodedParts(t, r.Raw), "DIGEST")
		}
		if !m.re.MatchString(read(receipt)) {
			t.Errorf("the mover's receipt does not show %s (%s):\n%s", m.what, m.re, receipt.Text())
		}
		if loc := m.re.FindStringIndex(read(theirs)); loc != nil {
			text := read(theirs)
			t.Errorf("the opponent's mail shows %s: %q in\n%s", m.what, text[max(0, loc[0]-60):min(len(text), loc[1]+60)], theirs.Text())
		}
	}
	t.Logf("secret move: alice's receipt says %q; bob's mail says %q",
		firstLine(receipt.Text(), "hidden move"), firstLine(theirs.Text(), "hidden move"))
}

// firstLine is the first line of text holding sub.
func firstLine(text, sub string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// decodedParts is every part of a raw mail, its transfer encoding
// (quoted-printable, base64) undone, one after the other: all a mail
// client could show of it.
func decodedParts(t *testing.T, raw []byte) string {
	t.Helper()
	var b strings.Builder
	for _, p := range mimeParts(t, raw) {
		b.WriteString(p.body)
		b.WriteString("\n")
	}
	return b.String()
}

// attachment is the body of the mail's part with that file name.
func attachment(t *testing.T, raw []byte, name string) string {
	t.Helper()
	for _, p := range mimeParts(t, raw) {
		if p.filename == name {
			return p.body
		}
	}
	t.Fatalf("the mail has no attachment %s", name)
	return ""
}

type mimePart struct{ filename, body string }

// mimeParts walks a raw mail's MIME tree and returns its leaves, decoded.
func mimeParts(t *testing.T, raw []byte) []mimePart {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("a received mail does not parse: %v", err)
	}
	var parts []mimePart
	var walk func(h textproto.MIMEHeader, body io.Reader)
	walk = func(h textproto.MIMEHeader, body io.Reader) {
		mt, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
		if strings.HasPrefix(mt, "multipart/") {
			mr := multipart.NewReader(body, params["boundary"])
			for {
				p, err := mr.NextPart() // undoes quoted-printable itself
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatalf("a received mail's MIME structure: %v", err)
				}
				walk(p.Header, p)
			}
		}
		switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
		case "base64":
			body = base64.NewDecoder(base64.StdEncoding, body) // line breaks are skipped
		case "quoted-printable":
			body = quotedprintable.NewReader(body)
		}
		data, err := io.ReadAll(body)
		if err != nil {
			t.Fatalf("a received mail's %s part: %v", mt, err)
		}
		_, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
		name := dparams["filename"]
		if name == "" {
			name = params["name"]
		}
		parts = append(parts, mimePart{filename: name, body: string(data)})
	}
	walk(textproto.MIMEHeader(msg.Header), msg.Body)
	return parts
}
