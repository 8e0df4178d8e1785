package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
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
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-msgauth/dkim"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/internal/mailstack"
	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/store"
)

// The deployment of docs/deploy.md, for real: a private Postfix, Dovecot
// and (where installed) OpenDKIM from Debian's packages, configured with
// the files under docs/deploy, on loopback, with a self-signed certificate
// for mail.club.example. check-mail passes against it, and fails, saying
// which setting to fix, against broken configurations; serve, configured
// with docs/deploy/bottlepost.toml (tls_ca_file, and tls_server_name since
// it dials 127.0.0.1), reads Dovecot over TLS and sends through the
// submission port with STARTTLS and AUTH; alice and bob, whose provider
// signs their mail with DKIM, play two games to mate by mail submitted
// through Postfix with AUTH and read from Dovecot: chess, then Seachess with
// a secret move (a mine), which bob's mails do not show while alice's
// receipt does. During the Seachess game serve is stopped with SIGTERM and
// started again twice (once as a move is on its way, once with a move sent
// while it is stopped) and Dovecot is restarted; every move is answered,
// once, and after Dovecot's restart within seconds. Both games are
// archived; the Seachess game's export is the record its final mail
// carries, and verify checks it against bob's receipts and finds the secret
// move opened under the commitment bob was sent. Forged
// Authentication-Results are stripped; with OpenDKIM down, Postfix defers
// mail (milter_default_action = tempfail); without plus-addressing,
// check-mail says so.
func TestRealMailStack(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	st := mailstack.Start(t, "../../docs/deploy", mailstack.Options{TestDNS: map[string]string{
		"club2026._domainkey." + mailstack.Domain: "v=DKIM1;k=rsa;p=" + base64.StdEncoding.EncodeToString(pub),
	}})
	defer func() {
		if t.Failed() {
			t.Log(st.Logs())
		}
	}()
	if !st.OpenDKIM {
		t.Log("OpenDKIM is not installed (Debian: apt-get install opendkim): the game runs without trusted_authserv")
	}
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "password")
	os.WriteFile(pwFile, []byte(mailstack.Password+"\n"), 0o600)
	_, imapsPort, _ := strings.Cut(st.IMAPS, ":")
	_, imapPort, _ := strings.Cut(st.IMAP, ":")
	_, subPort, _ := strings.Cut(st.Submission, ":")
	docCfg, err := os.ReadFile("../../docs/deploy/bottlepost.toml")
	if err != nil {
		t.Fatal(err)
	}
	// The documented configuration, moved: 127.0.0.1 for the host (the
	// certificate holds only mail.club.example, so tls_server_name names
	// it), the test's ports and files.
	cfgText := string(docCfg)
	for _, r := range [][2]string{
		{`host = "mail.club.example"`, `host = "127.0.0.1"`},
		{`port = 993`, "port = " + imapsPort},
		{`port = 587`, "port = " + subPort},
		{`"/var/lib/bottlepost"`, fmt.Sprintf("%q", filepath.Join(dir, "data"))},
		{`file:/etc/bottlepost/imap-password`, "file:" + pwFile},
		{`tls_ca_file = "/etc/ssl/club/cert.pem"`, fmt.Sprintf("tls_ca_file = %q\ntls_server_name = %q", st.CertFile, mailstack.Host)},
	} {
		if !strings.Contains(cfgText, r[0]) {
			t.Fatalf("docs/deploy/bottlepost.toml no longer holds %q: update the test with the docs", r[0])
		}
		cfgText = strings.ReplaceAll(cfgText, r[0], r[1])
	}
	if !st.OpenDKIM {
		cfgText = strings.Replace(cfgText, `trusted_authserv = "mail.club.example"`, `trusted_authserv = ""`, 1)
	}
	cfgText += "\n[web]\nlisten = \"\"\n"
	cfgPath := filepath.Join(dir, "bottlepost.toml")
	os.WriteFile(cfgPath, []byte(cfgText), 0o600)
	writeCfg := func(name, text string, repl ...string) string {
		for i := 0; i+1 < len(repl); i += 2 {
			if !strings.Contains(text, repl[i]) {
				t.Fatalf("%s: the configuration holds no %q", name, repl[i])
			}
			text = strings.Replace(text, repl[i], repl[i+1], 1)
		}
		p := filepath.Join(dir, name+".toml")
		os.WriteFile(p, []byte(text), 0o600)
		return p
	}

	// check-mail: every step passes, the probe proving plus-addressing.
	code, out, errOut := runCLI("check-mail", "--config", cfgPath, "--wait", "30s")
	t.Logf("check-mail:\n%s%s", out, errOut)
	if code != 0 || strings.Contains(out, "FAIL") || !strings.Contains(out, "plus-addressing") || strings.Count(out, "\nok ") < 6 {
		t.Fatalf("check-mail against the documented set-up: exit %d\n%s%s", code, out, errOut)
	}
	// … and against broken ones, each line saying what to fix.
	wrongPW := filepath.Join(dir, "wrong")
	os.WriteFile(wrongPW, []byte("not the password\n"), 0o600)
	for _, tc := range []struct {
		name  string
		repl  []string
		wants []string
	}{
		{"untrusted certificate, wrong smtp password", []string{
			"tls_ca_file = " + fmt.Sprintf("%q", st.CertFile), "",
			`password = "file:` + pwFile + `"` + "\nhelo", `password = "file:` + wrongPW + `"` + "\nhelo",
		}, []string{"FAIL imap connect", "set imap.tls_ca_file", "FAIL smtp session", "check smtp.username and smtp.password"}},
		{"tls on the starttls port", []string{"port = " + imapsPort, "port = " + imapPort},
			[]string{"FAIL imap connect", `set imap.security = "starttls"`}},
		{"starttls on the tls port", []string{`security = "tls"`, `security = "starttls"`},
			[]string{"FAIL imap connect", `speaks TLS at once`}},
		{"no such mailbox", []string{`[imap]`, "[imap]\nmailbox = \"Games\""},
			[]string{"FAIL imap mailbox", "check imap.mailbox"}},
		{"certificate for another name", []string{fmt.Sprintf("tls_server_name = %q", mailstack.Host), ""},
			[]string{"FAIL imap connect", "set imap.tls_server_name"}},
	} {
		p := writeCfg(strings.ReplaceAll(tc.name, " ", "-"), cfgText, tc.repl...)
		code, out, errOut := runCLI("check-mail", "--config", p, "--wait", "10s")
		t.Logf("check-mail, %s:\n%s%s", tc.name, out, errOut)
		if code != 1 {
			t.Errorf("check-mail, %s: exit %d, want 1", tc.name, code)
		}
		for _, w := range tc.wants {
			if !strings.Contains(out, w) {
				t.Errorf("check-mail, %s: no %q in\n%s", tc.name, w, out)
			}
		}
	}

	// serve.
	stop, reload := make(chan os.Signal, 1), make(chan os.Signal, 1)
	old := signals
	signals = func() (<-chan os.Signal, <-chan os.Signal, func()) { return stop, reload, func() {} }
	defer func() { signals = old }()
	// One log across serve's runs: a restart keeps writing to the same
	// buffers, so a failure shows every run.
	var sout, serr syncBuffer
	var done chan int
	stopped := true
	startServe := func() {
		stopped = false
		done = make(chan int, 1)
		go func(done chan<- int) { done <- run([]string{"serve", "--config", cfgPath}, &sout, &serr) }(done)
	}
	stopServe := func() (ok bool) { // ok: serve is not running (any more)
		if stopped {
			return true
		}
		stopped = true
		stop <- syscall.SIGTERM
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d:\n%s", code, serr.String())
			}
			return true
		case <-time.After(30 * time.Second):
			t.Errorf("serve did not stop within 30s")
			return false
		}
	}
	startServe()
	defer stopServe()
	defer func() {
		if t.Failed() {
			t.Logf("serve's log:\n%s", serr.String())
		}
	}()
	clientTLS := &tls.Config{RootCAs: x509.NewCertPool(), ServerName: mailstack.Host}
	clientTLS.RootCAs.AppendCertsFromPEM(st.CertPEM)
	signer := func(raw []byte) ([]byte, error) {
		var b bytes.Buffer
		if err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: mailstack.Domain, Selector: "club2026", Signer: key}); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	player := func(name string) *daemon.Player {
		p := daemon.NewMailUser(name+"@"+mailstack.Domain, mailstack.Password, st.IMAP, st.Submission, clientTLS)
		p.Sign = signer
		return p
	}
	alice, bob, eve := player("alice"), player("bob"), player("eve")
	eve.Sign = nil // eve's mail carries no signature, only a forged verdict
	const within = 30 * time.Second
	send := func(p *daemon.Player, m daemon.Mail) {
		t.Helper()
		if _, err := p.Send(m); err != nil {
			t.Fatalf("%s sends %q: %v", p.Address, m.Subject, err)
		}
	}
	reply := func(p *daemon.Player, body string) {
		t.Helper()
		if _, err := p.Reply(body); err != nil {
			t.Fatalf("%s replies %q: %v", p.Address, body, err)
		}
	}
	await := func(p *daemon.Player, want string) *daemon.Received {
		t.Helper()
		r, err := p.Await(want, within)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	service := "games@" + mailstack.Domain
	send(alice, daemon.Mail{To: service, Subject: "hello", Body: "hi"})
	welcome := await(alice, "your personal address")
	if !strings.HasPrefix(welcome.ReplyTo, "games+") || !strings.HasSuffix(welcome.ReplyTo, "@"+mailstack.Domain) {
		t.Fatalf("welcome Reply-To %q, want a plus-address of %s", welcome.ReplyTo, service)
	}
	send(alice, daemon.Mail{To: welcome.ReplyTo, Subject: "new game", Body: "new chess vs bob@" + mailstack.Domain + " as white time 3d\n"})
	await(alice, "Your challenge to bob@"+mailstack.Domain)
	await(bob, "challenges you to a game of Chess")
	reply(bob, "accept")
	await(alice, "The game has begun")
	await(bob, "The game has begun")
	reply(alice, "f3")
	await(bob, "White played 1. f3.")
	reply(bob, "e5")
	await(alice, "Black played 1... e5.")

	// Eve forges the mail server's verdict: Postfix removes the header,
	// OpenDKIM adds its own (no signature: dkim=none), and the service
	// does not act on her mail.
	if st.OpenDKIM {
		send(eve, daemon.Mail{To: service, Subject: "forged", Body: "hello",
			Headers: map[string]string{"Authentication-Results": mailstack.Host + "; dkim=pass header.d=" + mailstack.Domain}})
		ar := awaitHeader(t, st, clientTLS, "forged", "Authentication-Results")
		if len(ar) != 1 || strings.Contains(ar[0], "dkim=pass") || !strings.Contains(ar[0], "dkim=none") {
			t.Errorf("eve's mail arrived with Authentication-Results %q; want only OpenDKIM's dkim=none", ar)
		}
	}

	reply(alice, "g4")
	await(bob, "White played 2. g4.")
	reply(bob, "Qh4#")
	final := await(alice, "Game over: Black wins: checkmate")
	if !strings.Contains(final.Text(), "Result: 0-1") {
		t.Errorf("final mail:\n%s", final.Text())
	}
	await(bob, "Game over: Black wins: checkmate")
	if st.OpenDKIM {
		if eve.Fetch(); len(eve.Inbox) > 0 {
			t.Errorf("eve, whose mail nothing vouches for, got an answer:\n%s", eve.Inbox[0].Text())
		}
	}

	// Seachess, the variant with secret moves, through the same stack: a
	// mine laid (a hidden move), serve stopped and started again twice and
	// Dovecot restarted mid-game, and the carrier's mate in five: from j4
	// its aircraft's outline (S7.4) checks the commando ship on g1, boxed
	// in by its own pieces, and nothing of White's reaches j4.
	aliceFrom, bobFrom := len(alice.Inbox), len(bob.Inbox)
	send(alice, daemon.Mail{To: welcome.ReplyTo, Subject: "new game", Body: "new seachess vs bob@" + mailstack.Domain + " as white time 3d\n"})
	await(alice, "Your challenge to bob@"+mailstack.Domain)
	await(bob, "challenges you to a game of Seachess")
	reply(bob, "accept")
	await(alice, "The game has begun")
	begun := await(bob, "The game has begun")
	gameNo := regexp.MustCompile(`\[bp-([0-9]+)\]`).FindStringSubmatch(begun.Msg.Subject)
	if gameNo == nil {
		t.Fatalf("the Seachess game's mail has no tag in its subject %q", begun.Msg.Subject)
	}
	plies := []struct{ move, seen string }{ // alice (White) plays the even plies
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
	mover := func(ply int) (p, opp *daemon.Player) {
		if ply%2 == 0 {
			return alice, bob
		}
		return bob, alice
	}
	halt := func() {
		t.Helper()
		if !stopServe() {
			t.FailNow() // a serve still running would read the mailbox beside the next one
		}
	}
	var finals [2]*daemon.Received // the last mail of each, alice's then bob's
	for ply, m := range plies {
		p, opp := mover(ply)
		var back time.Time
		switch ply {
		case 1:
			// serve stopped (SIGTERM) as bob's move goes out, and started
			// again: whether it read the move before it stopped or finds it
			// in the INBOX afterwards, the move is answered, once.
			reply(p, m.move)
			halt()
			startServe()
			t.Logf("serve restarted while %d... %s was on its way", ply/2+1, m.move)
		case 2:
			// … and stopped before alice's move is sent: the move waits in
			// Dovecot, unread, until serve runs again.
			halt()
			reply(p, m.move)
			startServe()
			t.Logf("serve restarted after %d. %s was sent while it was stopped", ply/2+1, m.move)
		case 4:
			// Dovecot restarted: serve is back within seconds (its backoff
			// starts over after every session that selected the mailbox)
			// and answers the next move.
			st.RestartDovecot(t)
			back = time.Now()
			reply(p, m.move)
		default:
			reply(p, m.move)
		}
		receipt := await(p, "Your move "+m.move+" was accepted.")
		if !back.IsZero() {
			if took := time.Since(back); took > 20*time.Second { // seconds, not the minute of a grown backoff; room for a loaded machine
				t.Errorf("the answer came %v after Dovecot's restart; want within seconds", took.Round(100*time.Millisecond))
			}
			t.Logf("answered %v after Dovecot's restart", time.Since(back).Round(100*time.Millisecond))
		}
		theirs := await(opp, m.seen)
		if ply == 0 {
			secretKept(t, receipt, theirs)
		}
		if ply == len(plies)-1 {
			finals = [2]*daemon.Received{theirs, receipt}
		}
	}
	for i, f := range finals {
		for _, want := range []string{"Game over: Black wins: checkmate", "Result: 0-1", "1. Cc1-M (White's secret move)"} {
			if !strings.Contains(f.Text(), want) {
				t.Errorf("the final Seachess mail to %s lacks %q:\n%s", []string{"alice", "bob"}[i], want, f.Text())
			}
		}
	}
	t.Logf("the final Seachess mail to bob:\n%s", finals[1].Text())
	// Nothing lost, nothing twice: each move was answered to each player
	// exactly once, and no mail says a move was not played.
	for _, p := range []*daemon.Player{alice, bob} {
		if _, err := p.Fetch(); err != nil {
			t.Fatal(err)
		}
	}
	game := map[*daemon.Player][]*daemon.Received{alice: alice.Inbox[aliceFrom:], bob: bob.Inbox[bobFrom:]}
	count := func(p *daemon.Player, text string) (n int) {
		for _, r := range game[p] {
			if strings.Contains(r.Text(), text) {
				n++
			}
		}
		return n
	}
	for ply, m := range plies {
		p, opp := mover(ply)
		if n := count(p, "Your move "+m.move+" was accepted."); n != 1 {
			t.Errorf("%s got %d receipts for %s, want 1", p.Address, n, m.move)
		}
		if n := count(opp, m.seen); n != 1 {
			t.Errorf("%s was told %d times %q, want once", opp.Address, n, m.seen)
		}
	}
	for _, p := range []*daemon.Player{alice, bob} {
		if n := count(p, "was not played"); n != 0 {
			t.Errorf("%s was told %d times that a move was not played", p.Address, n)
		}
	}
	stopServe()
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

	// Offline, as bob can: the exported record is the one his final mail
	// carries, it verifies against the receipts his mails quoted (the last
	// one anchoring every record), and it opens the secret move under the
	// commitment bob was sent when it was played.
	pgn := filepath.Join(dir, "bp-"+gameNo[1]+".pgn")
	if code, _, errOut := runCLI("export", gameNo[1], "--config", cfgPath, "-o", pgn); code != 0 {
		t.Fatalf("export %s: exit %d: %s", gameNo[1], code, errOut)
	}
	exported := mustRead(t, pgn)
	if att := attachment(t, finals[1].Raw, "bp-"+gameNo[1]+".pgn"); strings.ReplaceAll(att, "\r\n", "\n") != exported {
		t.Errorf("the record attached to bob's final mail is not the export:\n%s\n---\n%s", att, exported)
	}
	var bobReceipts []string
	for _, r := range game[bob] {
		bobReceipts = append(bobReceipts, receiptLine.FindAllString(strings.ReplaceAll(r.Text(), "\r", ""), -1)...)
	}
	if len(bobReceipts) < len(plies) {
		t.Fatalf("bob's mails quoted %d receipts, want one at least for each of the %d moves", len(bobReceipts), len(plies))
	}
	last := bobReceipts[len(bobReceipts)-1]
	records, _, _ := strings.Cut(last, ":")
	code, out, errOut = runCLI(append([]string{"verify", pgn}, bobReceipts...)...)
	t.Logf("verify %s with bob's %d receipts:\n%s%s", filepath.Base(pgn), len(bobReceipts), out, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := fmt.Sprintf("verified: game %s (Seachess, standard, 3d): alice v bob, %d moves (1 secret), 0-1 (Black wins: checkmate", gameNo[1], len(plies))
	wantLast := "anchored by your receipt " + last + ": all " + records + " records are the ones you were sent"
	if code != 0 || !strings.Contains(out, want) || lines[len(lines)-1] != wantLast {
		t.Errorf("verify: exit %d; want 0, a line %q and, last, %q", code, want, wantLast)
	}
	var commitment []string
	for _, r := range game[bob] {
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

	// Plus-addressing off (Postfix without recipient_delimiter): check-mail
	// says the replies cannot arrive.
	pf := filepath.Join(st.Dir, "postfix")
	for _, args := range [][]string{{"-c", pf, "-e", "recipient_delimiter="}} {
		if out, err := exec.Command("postconf", args...).CombinedOutput(); err != nil {
			t.Fatalf("postconf %v: %v\n%s", args, err, out)
		}
	}
	if out, err := exec.Command("postfix", "-c", pf, "reload").CombinedOutput(); err != nil {
		t.Fatalf("postfix reload: %v\n%s", err, out)
	}
	time.Sleep(time.Second) // the reload reaches the smtpd processes
	code, out, errOut = runCLI("check-mail", "--config", cfgPath, "--wait", "15s")
	t.Logf("check-mail without plus-addressing:\n%s%s", out, errOut)
	if code != 1 || !strings.Contains(out, "FAIL plus-addressing") || !strings.Contains(out, "recipient_delimiter") {
		t.Errorf("check-mail without plus-addressing: exit %d\n%s", code, out)
	}

	// The outbox's windows through Postfix: the service's client, set up as
	// docs/deploy has it (STARTTLS, AUTH, chunking), sends a dozen mails in
	// one SendAll, their groups pipelined before any answer is read, with
	// an address Postfix does not know among them. That one is refused at
	// RCPT (550), and every other mail reaches alice's mailbox, once (the
	// groups after the first each begin with RSET; Postfix ends a BDAT
	// transaction without recipients by itself, so this holds without them
	// too: TestSendAllRefusalInsideAWindow covers a server that does not).
	sender, err := mailer.NewSender(mailer.SMTPConfig{Addr: st.Submission, Security: "starttls", Username: service,
		Password: mailstack.Password, TLSConfig: clientTLS, Chunking: true, Timeout: within})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := sender.Dial()
	if err != nil {
		t.Fatalf("the service's SMTP client against Postfix: %v", err)
	}
	var batch []mailer.Outgoing
	var wantAnswers []string
	for i := range 12 {
		to := alice.Address
		if i == 5 {
			to = "nobody@" + mailstack.Domain
		}
		batch = append(batch, mailer.Outgoing{From: service, To: []string{to}, Data: fmt.Appendf(nil,
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
		rs, err := alice.Fetch()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
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

	// OpenDKIM down: Postfix defers incoming mail rather than pass it
	// unverified (milter_default_action = tempfail).
	if st.OpenDKIM {
		st.StopOpenDKIM()
		_, err := alice.Send(daemon.Mail{To: service, Subject: "while the milter is down", Body: "hello"})
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code/100 != 4 {
			t.Errorf("mail accepted with OpenDKIM down (err %v); want it deferred (4xx)", err)
		}
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
