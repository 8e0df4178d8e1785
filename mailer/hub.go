package mailer

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
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
// loopback sharing mailboxes. Accounts NAME@DOMAIN exist as soon as they are
// used (mail to them, or their password asked for). Plus-addresses
// (games+TOKEN@DOMAIN) are delivered to the account before the '+'. It
// delivers locally only.
//
// Passwords: with a shared password (NewHub's), every account has it, but
// for those given their own with SetPassword; without one, every account
// has its own random password (Password), kept in Dir when it is set.
//
// With Dir set, each account's INBOX is kept on disk too (see hubdisk.go):
// mail the SMTP server answered 250 for survives a crash or a stop. Mail
// moved out of an INBOX (the service's processed folder) lives in memory
// only, and not for ever: see MovedMax (hubmoved.go).
//
// Its IMAP server answers a client's malformed command BAD [CLIENTBUG]
// where go-imap v2.0.0-beta.8 alone would answer NO [SERVERBUG]: each
// connection is checked command by command first (hubimapcheck.go, until
// go-imap's own fix is released).
type Hub struct {
	Domain string
	// Dir, if set before Start, is where the hub keeps its accounts'
	// passwords and INBOXes (created, mode 0700).
	Dir string
	// TLSConfig, if set before Start, offers STARTTLS on both the SMTP and
	// the IMAP server (tests of TLS clients; the hub itself is loopback only
	// and works without it).
	TLSConfig *tls.Config
	// MovedMax is how many bytes of mail moved out of an account's INBOX
	// (into the service's processed folder) the hub keeps, per account;
	// beyond it the mail moved first is expunged, once MovedGrace has passed
	// since its move. NewHub sets 32 MiB and a minute; a negative MovedMax
	// keeps it all. Set both before Start.
	MovedMax   int64
	MovedGrace time.Duration
	// Listen, if set before Start, gives the hub its listeners instead of
	// net.Listen: serve keeps them open across a reload (daemon.Listeners),
	// so that the ports are never free for another program to take.
	Listen func(network, addr string) (net.Listener, error)

	password string
	log      *slog.Logger
	maxBytes int64

	mu    sync.Mutex
	users map[string]*imapmemserver.User
	own   map[string]string      // accounts with their own password (SetPassword, or random without Dir)
	locks map[string]*sync.Mutex // per account: see lock
	disk  *hubDisk               // nil without Dir
	moved movedMail              // mail moved out of the INBOXes, to expire (hubmoved.go)

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
	stopSweep      chan struct{} // closed by Close: ends the moved mail's sweeper
}

// NewHub makes a hub for domain; password is every account's password.
func NewHub(domain, password string, maxMessageBytes int64, log *slog.Logger) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{Domain: strings.ToLower(domain), password: password, log: log, maxBytes: maxMessageBytes,
		MovedMax: defaultMovedMax, MovedGrace: defaultMovedGrace,
		users: map[string]*imapmemserver.User{}, own: map[string]string{}, locks: map[string]*sync.Mutex{}}
}

// lock is an account's lock, held by whatever changes the account's
// mailboxes: a delivery into the INBOX and its file, an expunge or a move
// and the files they remove, an APPEND or COPY by a client; so that the
// accounting of moved mail (hubmoved.go), which reads the INBOX's size and
// the destination's UIDNEXT before and after a move, counts that move
// alone.
func (h *Hub) lock(name string) *sync.Mutex {
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.locks[name]
	if !ok {
		l = &sync.Mutex{}
		h.locks[name] = l
	}
	return l
}

// SetPassword gives one account a password of its own (the service's
// mailbox, which must not share the players' password).
func (h *Hub) SetPassword(name, password string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.own[strings.ToLower(name)] = password
}

// Password returns an account's password, making the account (and, on a
// hub without a shared password, its random password) if it is new.
func (h *Hub) Password(name string) (string, error) {
	name = h.account(name)
	if name == "" {
		return "", errors.New("mailer: hub: not an account of this hub")
	}
	pw, err := h.passwordOf(name, true)
	if err == nil {
		h.User(name)
	}
	return pw, err
}

// passwordOf is an account's password: its own, else the shared one, else
// the one kept in Dir (or, on a hub without Dir, in memory). With create,
// an account without one gets a random one; without, that is an error.
func (h *Hub) passwordOf(name string, create bool) (string, error) {
	h.mu.Lock()
	if pw, ok := h.own[name]; ok {
		h.mu.Unlock()
		return pw, nil
	}
	shared, disk := h.password, h.disk
	if shared == "" && disk == nil && create {
		var rnd [12]byte
		rand.Read(rnd[:])
		pw := hex.EncodeToString(rnd[:])
		h.own[name] = pw
		h.mu.Unlock()
		return pw, nil
	}
	h.mu.Unlock()
	switch {
	case shared != "":
		return shared, nil
	case disk != nil:
		return disk.password(name, create)
	}
	return "", errors.New("mailer: hub: no such account")
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
	if h.Dir != "" && h.disk == nil {
		if h.disk, err = newHubDisk(h.Dir, h.log); err != nil {
			return err
		}
		n, err := h.disk.load(h)
		if err != nil {
			return fmt.Errorf("mailer: hub: reading the mail kept in %s: %w", h.Dir, err)
		}
		if n > 0 {
			h.log.Info("mail hub: mail kept on disk is back in the INBOXes", "messages", n, "dir", h.Dir)
		}
	}
	listen := h.Listen
	if listen == nil {
		listen = net.Listen
	}
	if h.imapLn, err = listen("tcp", imapAddr); err != nil {
		return fmt.Errorf("mailer: hub: imap: %w", err)
	}
	if h.smtpLn, err = listen("tcp", smtpAddr); err != nil {
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
	stop := make(chan struct{})
	h.stopSweep = stop
	h.wg.Add(3)
	// go-imap's Serve registers its listener and only then counts itself
	// in a WaitGroup that Close waits on: a Close in between is a race
	// (Add concurrent with Wait). Start returns once Serve is accepting.
	accepting := make(chan struct{})
	var once sync.Once
	imapLn := &hubIMAPListener{Listener: h.imapLn, accepting: func() { once.Do(func() { close(accepting) }) }}
	go func() { defer h.wg.Done(); h.imapSrv.Serve(imapLn) }()
	go func() { defer h.wg.Done(); h.smtpSrv.Serve(hubSMTPListener{h.smtpLn}) }()
	go func() { defer h.wg.Done(); h.sweepMoved(stop) }()
	<-accepting
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
	// The servers close only the listeners their Serve has registered: a
	// Close right after Start can come before that, and Serve would then
	// accept forever while wg.Wait waits for it. Closing them here too
	// (a second Close is harmless) ends every Serve.
	for _, ln := range []net.Listener{h.imapLn, h.smtpLn} {
		if ln != nil {
			ln.Close()
		}
	}
	if h.stopSweep != nil {
		close(h.stopSweep)
		h.stopSweep = nil
	}
	h.wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, smtp.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// Deliver puts a message into the INBOX of each local recipient. With Dir
// set, the message is written there too, but not synced (the SMTP server's
// deliveries are, before it answers 250).
func (h *Hub) Deliver(rcpts []string, msg []byte) error {
	return h.deliver(rcpts, msg, false)
}

func (h *Hub) deliver(rcpts []string, msg []byte, sync bool) error {
	for _, r := range rcpts {
		name := h.account(r)
		if name == "" {
			return fmt.Errorf("mailer: hub: %s is not an address of %s", r, h.Domain)
		}
		if h.Keep != nil && !h.Keep(r) {
			continue
		}
		if err := h.deliverTo(name, msg, sync); err != nil {
			return fmt.Errorf("mailer: hub: deliver to %s: %w", r, err)
		}
	}
	if h.Delivered != nil {
		h.Delivered(rcpts, msg)
	}
	return nil
}

// deliverTo appends a message to an account's INBOX, on disk first when
// the hub keeps mail there. An error is the hub's own (the disk), never
// the message's: the SMTP server answers it with a temporary failure.
func (h *Hub) deliverTo(name string, msg []byte, sync bool) error {
	u := h.User(name)
	l := h.lock(name)
	if h.disk == nil {
		l.Lock()
		defer l.Unlock()
		_, err := u.Append("INBOX", literal{bytes.NewReader(msg), int64(len(msg))}, &imap.AppendOptions{Time: time.Now()})
		return err
	}
	file, err := h.disk.write(name, msg, sync) // outside the lock: the sync takes long
	if err != nil {
		return err
	}
	l.Lock()
	defer l.Unlock()
	data, err := u.Append("INBOX", literal{bytes.NewReader(msg), int64(len(msg))}, &imap.AppendOptions{Time: time.Now()})
	if err != nil {
		os.Remove(file)
		return err
	}
	h.disk.keep(name, data.UID, file)
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
	if name == "" {
		return nil, errors.New("mailer: hub: invalid credentials")
	}
	want, err := h.passwordOf(name, false)
	if err != nil || want == "" || subtle.ConstantTimeCompare([]byte(password), []byte(want)) != 1 {
		return nil, errors.New("mailer: hub: invalid credentials")
	}
	return h.User(name), nil
}

// hubSession is an IMAP session whose account is created at login.
type hubSession struct {
	hub *Hub
	*imapmemserver.UserSession
	name     string // the account
	selected string // the mailbox selected, "" when none
}

func (s *hubSession) Login(username, password string) error {
	u, err := s.hub.checkPassword(username, password)
	if err != nil {
		return imapserver.ErrAuthFailed
	}
	s.name = s.hub.account(username)
	s.UserSession = imapmemserver.NewUserSession(u)
	return nil
}

func (s *hubSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	data, err := s.UserSession.Select(name, options)
	s.selected = ""
	if err == nil {
		s.selected = name
	}
	return data, err
}

func (s *hubSession) Unselect() error {
	s.selected = ""
	return s.UserSession.Unselect()
}

// kept says whether the selected mailbox is one the hub keeps on disk.
func (s *hubSession) kept() bool {
	return s.hub.disk != nil && strings.EqualFold(s.selected, "INBOX")
}

// uids are the UIDs of the selected mailbox's messages that criteria match.
func (s *hubSession) uids(criteria *imap.SearchCriteria) ([]imap.UID, error) {
	data, err := s.UserSession.Search(imapserver.NumKindUID, criteria, &imap.SearchOptions{ReturnAll: true})
	if err != nil || data == nil || data.All == nil {
		return nil, err
	}
	set, ok := data.All.(imap.UIDSet)
	if !ok {
		return nil, nil
	}
	uids, _ := set.Nums()
	return uids, nil
}

// Expunge removes the expunged INBOX messages' files too.
func (s *hubSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	l := s.hub.lock(s.name)
	l.Lock()
	defer l.Unlock()
	if !s.kept() {
		return s.UserSession.Expunge(w, uids)
	}
	criteria := &imap.SearchCriteria{Flag: []imap.Flag{imap.FlagDeleted}}
	if uids != nil {
		criteria.UID = []imap.UIDSet{append(imap.UIDSet(nil), (*uids)...)}
	}
	gone, err := s.uids(criteria)
	if err != nil {
		return err
	}
	if err := s.UserSession.Expunge(w, uids); err != nil {
		return err
	}
	return s.hub.disk.forget(s.name, gone)
}

// Move out of the INBOX removes the moved messages' files too, and notes
// the moved mail for expiry (hubmoved.go).
func (s *hubSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	l := s.hub.lock(s.name)
	l.Lock()
	defer l.Unlock()
	if !strings.EqualFold(s.selected, "INBOX") || strings.EqualFold(dest, "INBOX") {
		return s.UserSession.Move(w, numSet, dest)
	}
	before, watch := s.hub.movedBefore(s.name, dest)
	if !s.kept() {
		err := s.UserSession.Move(w, numSet, dest)
		if err == nil && watch {
			s.hub.movedAfter(s.name, dest, before)
		}
		return err
	}
	criteria := &imap.SearchCriteria{}
	switch set := numSet.(type) {
	case imap.UIDSet: // copies: the search resolves "*" in place
		criteria.UID = []imap.UIDSet{append(imap.UIDSet(nil), set...)}
	case imap.SeqSet:
		criteria.SeqNum = []imap.SeqSet{append(imap.SeqSet(nil), set...)}
	}
	moved, err := s.uids(criteria)
	if err != nil {
		return err
	}
	if err := s.UserSession.Move(w, numSet, dest); err != nil {
		return err
	}
	if watch {
		s.hub.movedAfter(s.name, dest, before)
	}
	return s.hub.disk.forget(s.name, moved)
}

// Append and Copy take the account's lock, so that the accounting of moved
// mail (which reads the INBOX's size and a mailbox's UIDNEXT around a
// move) never counts what they add.
func (s *hubSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	l := s.hub.lock(s.name)
	l.Lock()
	defer l.Unlock()
	return s.UserSession.Append(mailbox, r, options)
}

// Copy: see Append.
func (s *hubSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	l := s.hub.lock(s.name)
	l.Lock()
	defer l.Unlock()
	return s.UserSession.Copy(numSet, dest)
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
	text := textBuffers.Get().(*bytes.Buffer)
	defer func() {
		if text.Cap() <= 1<<20 { // an outsized one goes back to the collector
			text.Reset()
			textBuffers.Put(text)
		}
	}()
	if _, err := text.ReadFrom(r); err != nil {
		return err
	}
	// A bare LF is passed through by the server: mail stores CRLF. As the
	// final delivery, the hub records the envelope sender (RFC 5321 4.4):
	// "<>" marks a bounce.
	msg := appendCRLF([]byte("Return-Path: <"+s.from+">\r\n"), text.Bytes())
	err := s.h.deliver(s.rcpts, msg, true) // on disk (with Dir) before the 250
	if err == nil {
		return nil
	}
	var refused *smtp.SMTPError
	if errors.As(err, &refused) {
		return refused // go-smtp reads the answer off the error itself, not a wrapping
	}
	// The hub's own failure (its disk full, read-only, its directory gone
	// and not to be made again): the sender keeps the mail and tries again,
	// as for any server's trouble (RFC 5321 4.2.5), and the operator is told.
	// go-smtp would answer a plain error with a permanent 554, and the mail
	// would bounce.
	s.h.log.Error("mail hub: could not store a mail; answered 451, the sender will try again",
		"from", s.from, "to", strings.Join(s.rcpts, ","), "err", err)
	return errHubTemporary
}

// errHubTemporary is the hub's answer to a mail it could not store.
var errHubTemporary = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
	Message: "the mail hub could not store the mail; try again later"}

// textBuffers hold mail texts while the hub reads them (a move's mail, HTML
// board and all, is about 13 kB); the mail kept is a copy of its own size.
var textBuffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 32<<10)) }}

func (s *smtpSession) Reset()        { s.from, s.rcpts = "", nil }
func (s *smtpSession) Logout() error { return nil }

// appendCRLF appends b to dst with every line ending (LF or CRLF) made
// CRLF, in one pass and one allocation.
func appendCRLF(dst, b []byte) []byte {
	dst = slices.Grow(dst, len(b)+bytes.Count(b, []byte("\n")))
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(dst, b...)
		}
		line := b[:i]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		dst = append(append(dst, line...), '\r', '\n')
		b = b[i+1:]
	}
	return dst
}
