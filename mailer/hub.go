package mailer

import (
	"bytes"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Hub is the embedded mail hub: an IMAP server and an SMTP server on
// loopback sharing in-memory mailboxes. Accounts NAME@DOMAIN exist as soon
// as they are used (a login, or mail to them); all share one password.
// Plus-addresses (games+TOKEN@DOMAIN) are delivered to the account before
// the '+'. It delivers locally only and keeps nothing on disk.
type Hub struct {
	Domain string
	// TLSConfig, if set before Start, offers STARTTLS on both the SMTP and
	// the IMAP server (tests of TLS clients; the hub itself is loopback only
	// and works without it).
	TLSConfig *tls.Config

	password string
	log      *slog.Logger
	maxBytes int64

	mu    sync.Mutex
	users map[string]*imapmemserver.User

	// Delivered, if set, is called after each message is stored, with its
	// recipients (benchmarks and tests time deliveries with it).
	Delivered func(rcpts []string, msg []byte)
	// Keep, if set, says whether mail for a recipient is stored; mail it
	// refuses to keep is still reported to Delivered. Load tests watch
	// thousands of players through Delivered and keep only the service's
	// mailbox, so the hub's memory does not grow with every reply.
	Keep func(rcpt string) bool

	imapLn, smtpLn net.Listener
	imapSrv        *imapserver.Server
	smtpSrv        *smtp.Server
	wg             sync.WaitGroup
}

// NewHub makes a hub for domain; password is every account's password.
func NewHub(domain, password string, maxMessageBytes int64, log *slog.Logger) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{Domain: strings.ToLower(domain), password: password, log: log, maxBytes: maxMessageBytes,
		users: map[string]*imapmemserver.User{}}
}

// account returns the account name for an address or login ("alice",
// "Alice@localhost", "games+tok@localhost" → "alice", "alice", "games"),
// or "" when it is not of this hub's domain.
func (h *Hub) account(addr string) string {
	addr = strings.TrimSpace(addr)
	local := strings.ToLower(addr)
	if strings.Contains(addr, "@") {
		key := mailfmt.Key(addr)
		at := strings.LastIndexByte(key, '@')
		if at < 0 || key[at+1:] != h.Domain {
			return ""
		}
		local = key[:at]
	}
	local, _, _ = strings.Cut(local, "+")
	if local == "" || strings.ContainsAny(local, " \t\"\\/") {
		return ""
	}
	return local
}

// User returns (creating it) the account name's mailbox owner.
func (h *Hub) User(name string) *imapmemserver.User {
	h.mu.Lock()
	defer h.mu.Unlock()
	if u, ok := h.users[name]; ok {
		return u
	}
	u := imapmemserver.NewUser(name, h.password)
	u.Create("INBOX", nil)
	h.users[name] = u
	return u
}

// Start listens on the two loopback addresses ("127.0.0.1:0" picks a port)
// and serves until Close.
func (h *Hub) Start(imapAddr, smtpAddr string) error {
	var err error
	if h.imapLn, err = net.Listen("tcp", imapAddr); err != nil {
		return fmt.Errorf("mailer: hub: imap: %w", err)
	}
	if h.smtpLn, err = net.Listen("tcp", smtpAddr); err != nil {
		h.imapLn.Close()
		return fmt.Errorf("mailer: hub: smtp: %w", err)
	}
	h.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &hubSession{hub: h}, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true, // loopback only
		Logger:       slogPrintf{h.log.With("server", "hub-imap")},
		TLSConfig:    h.TLSConfig, // STARTTLS when set
	})
	h.smtpSrv = smtp.NewServer(hubBackend{h})
	h.smtpSrv.Domain = h.Domain
	h.smtpSrv.TLSConfig = h.TLSConfig
	h.smtpSrv.ErrorLog = slogPrintf{h.log.With("server", "hub-smtp")}
	h.smtpSrv.AllowInsecureAuth = true
	h.smtpSrv.MaxMessageBytes = h.maxBytes
	h.smtpSrv.MaxRecipients = 50
	h.smtpSrv.ReadTimeout = time.Minute
	h.smtpSrv.WriteTimeout = time.Minute
	h.wg.Add(2)
	go func() { defer h.wg.Done(); h.imapSrv.Serve(h.imapLn) }()
	go func() { defer h.wg.Done(); h.smtpSrv.Serve(h.smtpLn) }()
	h.log.Info("mail hub listening", "imap", h.imapLn.Addr().String(), "smtp", h.smtpLn.Addr().String(), "domain", h.Domain)
	return nil
}

// IMAPAddr and SMTPAddr are where the hub listens (after Start).
func (h *Hub) IMAPAddr() string { return h.imapLn.Addr().String() }

// SMTPAddr is where the hub's SMTP server listens.
func (h *Hub) SMTPAddr() string { return h.smtpLn.Addr().String() }

// Close stops both servers.
func (h *Hub) Close() error {
	var errs []error
	if h.imapSrv != nil {
		errs = append(errs, h.imapSrv.Close())
	}
	if h.smtpSrv != nil {
		errs = append(errs, h.smtpSrv.Close())
	}
	h.wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, smtp.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// Deliver puts a message into the INBOX of each local recipient.
func (h *Hub) Deliver(rcpts []string, msg []byte) error {
	for _, r := range rcpts {
		name := h.account(r)
		if name == "" {
			return fmt.Errorf("mailer: hub: %s is not an address of %s", r, h.Domain)
		}
		if h.Keep != nil && !h.Keep(r) {
			continue
		}
		if _, err := h.User(name).Append("INBOX", literal{bytes.NewReader(msg), int64(len(msg))}, &imap.AppendOptions{Time: time.Now()}); err != nil {
			return fmt.Errorf("mailer: hub: deliver to %s: %w", r, err)
		}
	}
	if h.Delivered != nil {
		h.Delivered(rcpts, msg)
	}
	return nil
}

// slogPrintf adapts the servers' Printf loggers to slog (at debug level:
// they report dropped connections, which are routine on a hub).
type slogPrintf struct{ l *slog.Logger }

func (p slogPrintf) Printf(format string, args ...any) {
	p.l.Debug(fmt.Sprintf(format, args...))
}

func (p slogPrintf) Println(args ...any) { p.l.Debug(strings.TrimSpace(fmt.Sprintln(args...))) }

type literal struct {
	*bytes.Reader
	n int64
}

func (l literal) Size() int64 { return l.n }

func (h *Hub) checkPassword(username, password string) (*imapmemserver.User, error) {
	name := h.account(username)
	if name == "" || subtle.ConstantTimeCompare([]byte(password), []byte(h.password)) != 1 {
		return nil, errors.New("mailer: hub: invalid credentials")
	}
	return h.User(name), nil
}

// hubSession is an IMAP session whose account is created at login.
type hubSession struct {
	hub *Hub
	*imapmemserver.UserSession
}

func (s *hubSession) Login(username, password string) error {
	u, err := s.hub.checkPassword(username, password)
	if err != nil {
		return imapserver.ErrAuthFailed
	}
	s.UserSession = imapmemserver.NewUserSession(u)
	return nil
}

func (s *hubSession) Close() error {
	if s.UserSession == nil {
		return nil
	}
	return s.UserSession.Close()
}

// hubIdleRepoll is how often an IDLE session looks for updates its wake-up
// may have missed.
const hubIdleRepoll = time.Second

// Idle reports new mail to an IDLE client. imapmemserver's Idle wakes only
// for updates queued after it started: mail delivered between the client's
// previous command and IDLE was never reported (until the next delivery or
// the client's IDLE refresh). So pending updates are written first, and
// again every hubIdleRepoll, which also covers the instant between that
// poll and imapmemserver's Idle starting to listen.
func (s *hubSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := s.UserSession.Poll(w, true); err != nil {
			return err
		}
		round := make(chan struct{}) // closed exactly once: by the timer, or on stop
		t := time.AfterFunc(hubIdleRepoll, func() { close(round) })
		go func() {
			select {
			case <-stop:
				if t.Stop() {
					close(round)
				}
			case <-round:
			}
		}()
		if err := s.UserSession.Idle(w, round); err != nil {
			t.Stop()
			return err
		}
		<-round // Idle returns at once when no mailbox is selected
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

type hubBackend struct{ h *Hub }

func (b hubBackend) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{h: b.h}, nil }

// smtpSession accepts mail for the hub's domain from anyone on loopback
// and, after AUTH, to nowhere else: the hub is no relay.
type smtpSession struct {
	h     *Hub
	from  string
	rcpts []string
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if _, err := s.h.checkPassword(username, password); err != nil {
			return smtp.ErrAuthFailed // 535, as real servers answer
		}
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.h.account(to) == "" {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "this hub delivers only to @" + s.h.Domain}
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	msg, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	// A bare LF is passed through by the server: mail stores CRLF. As the
	// final delivery, the hub records the envelope sender (RFC 5321 4.4):
	// "<>" marks a bounce.
	msg = append([]byte("Return-Path: <"+s.from+">\r\n"), normalizeCRLF(msg)...)
	return s.h.Deliver(s.rcpts, msg)
}

func (s *smtpSession) Reset()        { s.from, s.rcpts = "", nil }
func (s *smtpSession) Logout() error { return nil }

// normalizeCRLF turns every line ending into CRLF.
func normalizeCRLF(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
}
