package mailer

// Helpers shared by the transport tests (IMAP source, outbox, TLS, Maildir):
// a self-signed certificate, a TCP proxy that can cut or stall its
// connections (and terminate TLS), in-process IMAP servers, a log capture
// and a mailbox inspector. Everything listens on 127.0.0.1:0.

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

const (
	testUser = "games"
	testPass = "secret"
)

// testPKI is a self-signed certificate for 127.0.0.1 and localhost.
type testPKI struct {
	server          *tls.Config    // serves the certificate
	pool            *x509.CertPool // trusts it
	certPEM, keyPEM []byte
}

// client is a client configuration that trusts the test certificate.
func (p *testPKI) client() *tls.Config { return &tls.Config{RootCAs: p.pool} }

var makeTestPKI = sync.OnceValues(func() (*testPKI, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "bottlepost test"},
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	p := &testPKI{
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}
	cert, err := tls.X509KeyPair(p.certPEM, p.keyPEM)
	if err != nil {
		return nil, err
	}
	p.server = &tls.Config{Certificates: []tls.Certificate{cert}}
	p.pool = x509.NewCertPool()
	p.pool.AppendCertsFromPEM(p.certPEM)
	return p, nil
})

func pki(t *testing.T) *testPKI {
	t.Helper()
	p, err := makeTestPKI()
	if err != nil {
		t.Fatalf("test certificate: %v", err)
	}
	return p
}

// proxy forwards TCP connections to a target; it can cut every open
// connection (a dropped link) or stall them (a server that stops answering),
// and, given a TLS configuration, it terminates TLS in front of a plain
// server.
type proxy struct {
	ln     net.Listener
	target string
	tls    *tls.Config

	mu       sync.Mutex
	pairs    map[*proxyPair]bool
	accepted int
	tried    int // connections accepted, refused ones included
	refusing bool
	cutAt    []byte // cut the link once the server has sent this, right after it
	wg       sync.WaitGroup
}

type proxyPair struct {
	client, server net.Conn
	stalled        chan struct{} // closed: forward nothing more
	stallOnce      sync.Once
}

func startProxy(t *testing.T, target string, tlsCfg *tls.Config) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, tls: tlsCfg, pairs: map[*proxyPair]bool{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refusing := p.refusing
		p.tried++
		p.mu.Unlock()
		if refusing {
			c.Close()
			continue
		}
		if p.tls != nil {
			c = tls.Server(c, p.tls)
		}
		s, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			c.Close()
			continue
		}
		pair := &proxyPair{client: c, server: s, stalled: make(chan struct{})}
		p.mu.Lock()
		p.pairs[pair] = true
		p.accepted++
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(pair, c, s)
		go p.pipe(pair, s, c)
	}
}

// pipe copies src to dst until either side ends or the pair is stalled;
// then both connections are closed (a stalled pair only when cut).
func (p *proxy) pipe(pair *proxyPair, dst, src net.Conn) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-pair.stalled:
			io.Copy(io.Discard, src) // swallow everything until cut
			return
		default:
		}
		if n > 0 && src == pair.server {
			p.mu.Lock()
			at := bytes.Index(buf[:n], p.cutAt)
			if len(p.cutAt) > 0 && at >= 0 {
				n, err, p.cutAt = at+len(p.cutAt), errors.New("cut"), nil
			}
			p.mu.Unlock()
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				err = werr
			}
		}
		if err != nil {
			p.drop(pair)
			return
		}
	}
}

func (p *proxy) drop(pair *proxyPair) {
	pair.client.Close()
	pair.server.Close()
	p.mu.Lock()
	delete(p.pairs, pair)
	p.mu.Unlock()
}

// cut closes every open connection, as a network failure would.
func (p *proxy) cut() {
	p.mu.Lock()
	pairs := make([]*proxyPair, 0, len(p.pairs))
	for pair := range p.pairs {
		pairs = append(pairs, pair)
	}
	p.mu.Unlock()
	for _, pair := range pairs {
		p.drop(pair)
	}
}

// stall makes every open connection forward nothing more, without closing
// it: the server seems to stop answering. New connections work.
func (p *proxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pair := range p.pairs {
		pair.stallOnce.Do(func() { close(pair.stalled) })
	}
}

// cutWhenSent arms a one-time cut: the link is dropped as soon as the
// server has sent marker (forwarded up to its end), in the middle of a
// response.
func (p *proxy) cutWhenSent(marker string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutAt = []byte(marker)
}

// refuse makes the proxy close new connections at once (on) or forward
// them again (off): the server is unreachable for a while.
func (p *proxy) refuse(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refusing = on
}

// connections is how many connections the proxy accepted so far.
func (p *proxy) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// tries is how many connections reached the proxy, refused ones included.
func (p *proxy) tries() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tried
}

func (p *proxy) close() {
	p.ln.Close()
	p.cut()
	p.wg.Wait()
}

// startTestHub runs a Hub for example.org (password testPass) on loopback.
func startTestHub(t *testing.T, tlsCfg *tls.Config) *Hub {
	t.Helper()
	h := NewHub("example.org", testPass, 1<<20, nil)
	h.TLSConfig = tlsCfg
	if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// captureLog returns a logger writing text records into a buffer.
func captureLog() (*slog.Logger, *syncBuffer) {
	var b syncBuffer
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

// memIMAP is an in-process IMAP server (imapmemserver) with one user whose
// capabilities the test chooses; wire is everything said on the wire.
// imapserver always announces IDLE once logged in; noIdle strips it from
// what the server says, making a server without IDLE.
type memIMAP struct {
	addr string
	user *imapmemserver.User
	wire *syncBuffer
}

func startMemIMAP(t *testing.T, caps imap.CapSet, noIdle bool) *memIMAP {
	t.Helper()
	mem := imapmemserver.New()
	user := imapmemserver.NewUser(testUser, testPass)
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(user)
	wire := &syncBuffer{}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         caps,
		InsecureAuth: true,
		Logger:       log.New(io.Discard, "", 0),
		DebugWriter:  wire,
	})
	var ln net.Listener
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if noIdle {
		ln = noIdleListener{ln}
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); <-done })
	return &memIMAP{addr: ln.Addr().String(), user: user, wire: wire}
}

func (m *memIMAP) deliver(t *testing.T, msg []byte) {
	t.Helper()
	if _, err := m.user.Append("INBOX", literal{bytes.NewReader(msg), int64(len(msg))}, &imap.AppendOptions{Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// testMail is a small message; pad adds about that many bytes of body, in
// lines of 78.
func testMail(subject string, pad int) []byte {
	body := strings.Repeat(strings.Repeat("x", 76)+"\r\n", pad/78+1)[:pad]
	return fmt.Appendf(nil, "From: alice@example.org\r\nTo: games@example.org\r\nSubject: %s\r\nMessage-ID: <%s@example.org>\r\n\r\ne4\r\n%s",
		subject, strings.NewReplacer(" ", "-", ",", "").Replace(subject), body)
}

// subjectOf finds the Subject of a raw message.
func subjectOf(raw []byte) string {
	for _, line := range strings.Split(string(raw), "\r\n") {
		if s, ok := strings.CutPrefix(line, "Subject: "); ok {
			return s
		}
		if line == "" {
			break
		}
	}
	return ""
}

// boxMsg is one message as another client sees it.
type boxMsg struct {
	subject string
	seen    bool
}

// mailbox lists a mailbox's messages (subject, \Seen) over a separate
// read-only IMAP session.
func mailbox(t *testing.T, addr, name string) []boxMsg {
	t.Helper()
	return mailboxOf(t, addr, testUser, name)
}

// mailboxOf is mailbox for another user (same password).
func mailboxOf(t *testing.T, addr, user, name string) []boxMsg {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("select %s: %v", name, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{Flags: true, Envelope: true}).Collect()
	if err != nil {
		t.Fatalf("fetch %s: %v", name, err)
	}
	var out []boxMsg
	for _, m := range msgs {
		seen := false
		for _, f := range m.Flags {
			seen = seen || f == imap.FlagSeen
		}
		subject := "(no envelope)" // a message changing under the fetch, while the source works
		if m.Envelope != nil {
			subject = m.Envelope.Subject
		}
		out = append(out, boxMsg{subject: subject, seen: seen})
	}
	return out
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(within); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("after %v: %s", within, what)
		}
	}
}

// recorder is a Handler that counts the messages it saw, by subject; fail,
// if set, decides its answer.
type recorder struct {
	mu    sync.Mutex
	seen  map[string]int
	order []string
	fail  func(subject string, n int) error // n: how often seen, this one included
}

func newRecorder() *recorder { return &recorder{seen: map[string]int{}} }

func (r *recorder) handle(raw []byte) error {
	s := subjectOf(raw)
	r.mu.Lock()
	r.seen[s]++
	r.order = append(r.order, s)
	n, fail := r.seen[s], r.fail
	r.mu.Unlock()
	if fail != nil {
		return fail(s, n)
	}
	return nil
}

func (r *recorder) count(subject string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[subject]
}

func (r *recorder) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.order)
}

// runSource runs src until the test ends (or stop is called) and checks
// that Run returns promptly once its context ends.
func runSource(t *testing.T, src *IMAPSource, h Handler) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, h) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("Run did not return within 5s of its context ending")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// isTimeout reports a network timeout anywhere in err's chain.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// closedPort is a loopback address nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// noIdleListener hands out connections whose CAPABILITY lines lack IDLE.
type noIdleListener struct{ net.Listener }

func (l noIdleListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &noIdleConn{Conn: c}, nil
}

// noIdleConn rewrites the server's output line by line (the server writes
// whole responses, so a line is never left waiting).
type noIdleConn struct {
	net.Conn
	mu      sync.Mutex
	partial []byte
}

var idleCap = regexp.MustCompile(` IDLE([ \]\r])`)

func (c *noIdleConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.partial = append(c.partial, p...)
	end := bytes.LastIndexByte(c.partial, '\n')
	if end < 0 {
		return len(p), nil
	}
	lines := c.partial[:end+1]
	var out []byte
	for _, line := range bytes.SplitAfter(lines, []byte("\n")) {
		if bytes.Contains(line, []byte("CAPABILITY")) {
			line = idleCap.ReplaceAll(line, []byte("$1"))
		}
		out = append(out, line...)
	}
	c.partial = append([]byte(nil), c.partial[end+1:]...)
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
