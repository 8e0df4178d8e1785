// Package game is the game service: the referee at the centre of bottlepost.
// It turns one incoming message into state changes and outgoing messages,
// whatever carries them: a message in, messages out, all committed in one
// store transaction together with the incoming message's id.
//
// It ties together rules (what is legal, what each side sees), store (where
// games, logs, secrets and the outbox live), record (the start and end
// records it writes, the file a finished game is sent as) and templates (how
// mails read).
// It does no network I/O: the mailer delivers messages to Handle and drains
// the outbox the service fills.
//
// One file per command family: handle.go parses and dispatches a message
// (command.go reads its lines); challenge.go (new, accept, decline), move.go,
// conditional.go (if … then …, with conditional_parse.go), finish.go (draw,
// resign, the end of a game), claim.go, vacation.go, timezone.go,
// observe.go, help.go, games.go (games, the open-challenge list), pgncmd.go
// (pgn), referee.go (audit, adjudicate), digests.go; limits.go bounds what
// one sender can make the service do, firstcontact.go and tokens.go answer
// strangers and hand out reply addresses, unverified.go answers mail that
// nothing vouches for. Time-driven work: deadlines.go
// (Tick, reminders, timeouts, the clocks a turn is timed by), outages.go
// (heartbeat, recovery), migrate.go (older versions' data). Mails: drafts.go
// (collected while commands run), render.go (the renderer: what each mail
// shows, gathered in the transaction, and the size limit), mailjob.go (a
// mail's templates and bytes, made from that value alone by work deferred to
// the commit), subjects.go, layout.go. The record
// format (start and end records, the export, the verifier) is package
// record's; public.go is what the web view reads.
package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/emersion/go-msgauth/authres"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Config is what the service needs to know about its deployment.
type Config struct {
	// Address is the service's own address, e.g. games@example.org. Reply
	// addresses are formed from it: games+TOKEN@example.org.
	Address string
	// Name is the display name on outgoing mail ("bottlepost").
	Name string
	// Referees are the addresses allowed to audit and adjudicate.
	Referees []string
	// DefaultTime is the time control of games that name none ("3d").
	DefaultTime string
	// TrustedAuthServ, if set, is the authserv-id of the receiving server
	// whose Authentication-Results header is trusted; mail it does not
	// vouch for (authFailure) is refused, and its sender told why once a
	// day (unverified.go).
	TrustedAuthServ string
	// VacationDays is each player's yearly vacation allowance, in days (0:
	// no vacations), as config's service.vacation_days.
	VacationDays int
	// TimeoutPolicy is what happens when a deadline passes: TimeoutLoss
	// (default) or TimeoutNotify.
	TimeoutPolicy string
	// ReminderBefore is how long before a deadline the second reminder goes
	// out (default one day; negative: none). The first goes out when half
	// the time for a move is gone.
	ReminderBefore time.Duration
	// OutageGap, if positive, makes every Tick compare the clock with the
	// last heartbeat: a longer silence is an outage, as at start-up (see
	// Service.CheckClock). Zero: only Recover at start-up looks.
	OutageGap time.Duration
	// Limits bound what one sender can make the service do (zero fields:
	// DefaultLimits).
	Limits Limits
	// Language is the language of the mails to a player who chose none
	// (language de|en) and to addresses that are no player: "" is
	// lang.Default, English; config's service.language.
	Language lang.Lang
}

// Incoming is a message as the transport hands it over: already parsed and
// cleaned of quotes and signatures.
type Incoming struct {
	MessageID  string // without angle brackets; "" when the message had none
	From       string // the sender's address
	FromName   string
	Recipients []string // To, Cc and Delivered-To addresses
	Subject    string
	InReplyTo  string
	References []string
	Date       time.Time // the Date field; zero when missing
	Lines      []string  // the command lines of the body
	// AuthResults are the raw Authentication-Results header values.
	AuthResults []string
	// Quiet sends the sender no answer outside games, nor the over-limit
	// notice, as a spent allowance does; others are still told, and mail
	// a game needs still goes to the sender (answers.go).
	Quiet bool
	// Allow, if set, is asked whether the sender may be answered now (the
	// transport's per-sender rate limit): once, and only when the service
	// is about to queue an answer outside games — a mail a game needs is
	// never held back (answers.go). So mail that earns no reply — a
	// forgery refused after the day's welcomes (WelcomesPerDay) went out,
	// a duplicate — and the player's own moves cost the allowance nothing.
	Allow func() Allowance
}

// Service is the game service. It is safe for concurrent use: every Handle
// is one all-or-nothing piece of a store transaction.
type Service struct {
	cfg        Config
	st         *store.Store
	now        func() time.Time
	rand       io.Reader
	log        *slog.Logger
	from       mail.Address
	local      string // the local part of cfg.Address
	domain     string
	accountKey []byte
	heldKey    []byte // seals and names the commands a welcome holds
	seatKey    []byte // derives seat tokens (seatToken)
	saidKey    []byte // seals the messages between opponents (messages.go)
	// welcomesFrom is the UTC day (2006-01-02) from which the store counts the
	// welcomes; before it, they were processed ids (legacyWelcomes).
	welcomesFrom string
	// damagedGames are the games found damaged (logged once each).
	damagedGames sync.Map
	lastMoves    lastCache // the public's last-move highlight of games in play (public.go)
}

// Options are the service's collaborators.
type Options struct {
	Store  *store.Store
	Clock  func() time.Time // default time.Now
	Rand   io.Reader        // default crypto/rand
	Logger *slog.Logger
}

// New checks cfg and builds a service.
func New(cfg Config, opt Options) (*Service, error) {
	addr, err := mail.ParseAddress(cfg.Address)
	if err != nil {
		return nil, fmt.Errorf("game: service address %q: %w", cfg.Address, err)
	}
	at := strings.LastIndexByte(addr.Address, '@')
	local, domain := addr.Address[:at], strings.ToLower(addr.Address[at+1:])
	if strings.Contains(local, "+") {
		return nil, fmt.Errorf("game: service address %q must not contain '+': tokens are added after it", cfg.Address)
	}
	if cfg.Name == "" {
		cfg.Name = "bottlepost"
	}
	if cfg.DefaultTime == "" {
		cfg.DefaultTime = "3d"
	}
	if _, err := timing.ParseTimeControl(cfg.DefaultTime); err != nil {
		return nil, fmt.Errorf("game: default time control: %w", err)
	}
	if cfg.VacationDays < 0 {
		return nil, fmt.Errorf("game: vacation days %d: want 0 (none) or more", cfg.VacationDays)
	}
	switch cfg.TimeoutPolicy {
	case "":
		cfg.TimeoutPolicy = TimeoutLoss
	case TimeoutLoss, TimeoutNotify:
	default:
		return nil, fmt.Errorf("game: timeout policy %q: want %q or %q", cfg.TimeoutPolicy, TimeoutLoss, TimeoutNotify)
	}
	cfg.Limits = cfg.Limits.withDefaults()
	if l := cfg.Limits; l.ChallengesPerDay < l.ChallengesPerHour {
		return nil, fmt.Errorf("game: limits.challenges_per_day %d is below limits.challenges_per_hour %d", l.ChallengesPerDay, l.ChallengesPerHour)
	}
	if cfg.ReminderBefore == 0 {
		cfg.ReminderBefore = timing.Day
	}
	if opt.Store == nil {
		return nil, errors.New("game: a store is required")
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	if opt.Rand == nil {
		opt.Rand = cryptoRand
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	for i, r := range cfg.Referees {
		cfg.Referees[i] = mailfmt.Key(r)
	}
	s := &Service{cfg: cfg, st: opt.Store, now: opt.Clock, rand: opt.Rand, log: opt.Logger,
		from:  mail.Address{Name: cfg.Name, Address: addr.Address},
		local: local, domain: domain,
		accountKey: opt.Store.DeriveKey("bottlepost account tokens v1"),
		heldKey:    opt.Store.DeriveKey("bottlepost held commands v1"),
		seatKey:    opt.Store.DeriveKey("bottlepost seat tokens v1"),
		saidKey:    opt.Store.DeriveKey("bottlepost messages v1"),
	}
	if err := s.forgetSeatTokens(); err != nil {
		return nil, err
	}
	if s.welcomesFrom, err = s.welcomesCountedFrom(); err != nil {
		return nil, err
	}
	return s, nil
}

// From is the address outgoing mail is sent from (the SMTP envelope sender too).
func (s *Service) From() string { return s.from.Address }

// ours reports whether addr is the service's own address or one of its
// token addresses (games+…@domain): mail from there is a loop.
func (s *Service) ours(addr string) bool {
	a := mailfmt.Key(addr)
	if a == "" {
		return false
	}
	_, plus := mailfmt.PlusToken(a, s.cfg.Address)
	return plus || a == mailfmt.Key(s.cfg.Address)
}

// replyAddress is the per-player address with a token: games+TOKEN@domain.
func (s *Service) replyAddress(token string) string {
	return s.local + "+" + token + "@" + s.domain
}

// tokenOf finds the token in the recipients: the first address of the form
// LOCAL+TOKEN@DOMAIN for our local part and domain, in lower case (tokens
// are case-insensitive).
func (s *Service) tokenOf(recipients []string) string {
	for _, r := range recipients {
		if tok, ok := mailfmt.PlusToken(mailfmt.Key(r), s.cfg.Address); ok {
			return tok
		}
	}
	return ""
}

var tokenEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// accountPrefix starts every personal token. Seat tokens are base32 (a–z,
// 2–7), so a token starting with the digit 1 is never a seat's.
const accountPrefix = "1"

// accountToken is a player's personal token, derived from the address: it
// needs no storage, so unknown senders leave no trace in the store.
func (s *Service) accountToken(addr string) string {
	m := hmac.New(sha256.New, s.accountKey)
	m.Write([]byte(mailfmt.Key(addr)))
	return accountPrefix + strings.ToLower(tokenEncoding.EncodeToString(m.Sum(nil)[:15]))
}

// authFailure reads the trusted server's Authentication-Results and says
// why the message must be refused, or "" when it may be acted on. A pass
// counts only when it vouches for the From address's domain (DMARC-style
// alignment): a DKIM signature by that domain or a parent of it, an SPF pass
// for an envelope sender in it, or a DMARC pass for it; or, for the From
// address itself, an SMTP AUTH pass (auth=pass smtp.auth=ADDRESS: the
// server's own submission port took it from that login).
func (s *Service) authFailure(in *Incoming) string {
	if s.cfg.TrustedAuthServ == "" {
		return ""
	}
	from := domainOf(in.From)
	for _, v := range in.AuthResults {
		if !strings.EqualFold(authservID(v), s.cfg.TrustedAuthServ) {
			continue
		}
		// The trusted server's header (it puts its own above any the sender
		// wrote). One it cannot be read is not skipped for a forgery further
		// down: the mail is untrusted.
		_, results, err := authres.Parse(v)
		if err != nil {
			return "the Authentication-Results of " + s.cfg.TrustedAuthServ + " cannot be read (" + err.Error() + ")"
		}
		var dkimPass, dkimFail, spfPass, spfFail, dmarcPass, authPass bool
		var authOther string
		for _, r := range results {
			switch r := r.(type) {
			case *authres.AuthResult:
				// The server's own SMTP AUTH (docs/deploy.md: the submission port
				// names the login): it vouches for that very address only.
				if r.Value == authres.ResultPass && mailfmt.SameAddress(r.Auth, in.From) {
					authPass = true
				} else if r.Value == authres.ResultPass && r.Auth != "" {
					authOther = r.Auth
				}
			case *authres.DKIMResult:
				aligned := aligns(from, r.Domain)
				dkimPass = dkimPass || (r.Value == authres.ResultPass && aligned)
				dkimFail = dkimFail || (r.Value == authres.ResultFail && aligned)
			case *authres.SPFResult:
				aligned := aligns(from, domainOf(r.From))
				spfPass = spfPass || (r.Value == authres.ResultPass && aligned)
				spfFail = spfFail || r.Value == authres.ResultFail
			case *authres.DMARCResult:
				dmarcPass = dmarcPass || (r.Value == authres.ResultPass && aligns(from, domainOf(r.From)))
			}
		}
		switch {
		case dkimPass || dmarcPass || authPass:
			return ""
		case authOther != "":
			return "the mail was submitted by the login " + authOther + ", not by the sender"
		case dkimFail:
			return "the DKIM signature of " + from + " failed"
		case spfFail:
			return "SPF failed and there is no valid DKIM signature of " + from
		case spfPass:
			return ""
		}
		return "nothing vouches for the sender's domain " + from + " (no aligned DKIM, SPF or DMARC pass, nor the sender's own login)"
	}
	return "no Authentication-Results from " + s.cfg.TrustedAuthServ
}

// authservID is the authserv-id an Authentication-Results value starts with
// (RFC 8601 2.2): the text before the first ';', without a version number.
func authservID(v string) string {
	id, _, _ := strings.Cut(v, ";")
	id = strings.TrimSpace(id)
	if i := strings.IndexFunc(id, unicode.IsSpace); i > 0 {
		id = id[:i]
	}
	return id
}

// domainOf is the lower-cased domain of an address, or of a bare domain.
func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		addr = addr[i+1:]
	}
	return strings.ToLower(strings.Trim(strings.TrimSpace(addr), "<>."))
}

// aligns reports whether a domain vouched for (a DKIM d=, an SPF envelope
// domain) stands for the From domain: the same, or a parent of it on a label
// boundary that is not a bare top-level domain.
func aligns(from, vouched string) bool {
	vouched = domainOf(vouched)
	if from == "" || vouched == "" {
		return false
	}
	if from == vouched {
		return true
	}
	return strings.Contains(vouched, ".") && strings.HasSuffix(from, "."+vouched)
}

// isReferee reports whether addr is a configured referee.
func (s *Service) isReferee(addr string) bool {
	a := mailfmt.Key(addr)
	for _, r := range s.cfg.Referees {
		if r == a {
			return true
		}
	}
	return false
}

// SystemError marks a failure of the service itself (the store, a bug):
// the incoming message is not marked processed and should be retried; the
// player may be sent a short apology.
type SystemError struct{ Err error }

func (e *SystemError) Error() string { return "game: system error: " + e.Err.Error() }
func (e *SystemError) Unwrap() error { return e.Err }

// Result says what Handle did with a message.
type Result struct {
	Duplicate bool   // the message id was processed before: nothing done
	Refused   string // why the message got no game action ("" when it did)
	Mails     int    // mails queued
	// Withheld names the kinds of the answer to the sender that the reply
	// allowance held back ("" when none was); Handle logs them.
	Withheld string
	// strangersFull: the mail took the day's last mail to strangers.
	strangersFull bool
}

// Handle processes one incoming message: in one transaction it applies its
// commands, queues the replies and marks the message id processed. A
// message id seen before changes nothing. User errors become replies; a
// *SystemError means nothing was committed and the message should be kept
// for retry. Concurrent calls share commits (store.Batch): under load one
// fsync serves many messages, each still all-or-nothing.
func (s *Service) Handle(in *Incoming) (Result, error) {
	id := in.MessageID
	if id == "" {
		id = syntheticID(in)
	}
	// Processed ids are kept per sender, so that one sender's Message-ID (or a
	// forger's copy of it) never suppresses another sender's mail.
	id = mailfmt.Key(in.From) + " " + id
	var res Result
	var welcomed bool
	// Asked at most once, even when the transaction function runs again.
	allow := sync.OnceValue(func() Allowance {
		switch {
		case in.Quiet:
			return Allowance{}
		case in.Allow == nil:
			return Allowance{OK: true}
		}
		return in.Allow()
	})
	err := s.st.Batch(func(tx *store.Tx) error {
		res = Result{} // the function may run again: everything from scratch
		done, err := tx.Processed(id)
		if err != nil {
			return err
		}
		if done {
			res.Duplicate = true
			return nil
		}
		h := s.newHandling(tx, in, allow, s.now().UTC())
		if err := h.run(); err != nil {
			return err
		}
		res.Refused, welcomed = h.refused, h.welcomed()
		n, err := h.flush()
		if err != nil {
			return err
		}
		res.Mails = n
		res.Withheld, res.strangersFull = strings.Join(h.withheld, ","), h.strangersFull
		return tx.MarkProcessed(id, h.now)
	})
	if gid := store.DamagedGame(err); gid != 0 {
		return s.apologize(in, id, gid, err, allow)
	}
	if err != nil {
		return Result{}, &SystemError{Err: err}
	}
	switch {
	case welcomed:
		s.log.Info("first mail answered with the welcome", "id", id, "from", in.From, "why", res.Refused)
	case res.Refused != "":
		s.log.Info("message refused", "id", id, "from", in.From, "why", res.Refused)
	}
	if res.strangersFull {
		s.log.Warn("the day's mails to addresses that never wrote are all sent (limits.strangers_per_day): until 00:00 UTC no more invitations to them, and no answers to unknown addresses",
			"limit", s.cfg.Limits.StrangersPerDay, "id", id)
	}
	if res.Withheld != "" {
		a := allow()
		s.log.Info("answer withheld: the sender's hourly allowance is spent (limits.replies_per_hour)", "id", id,
			"from", mailfmt.Key(in.From), "kind", res.Withheld, "resume", a.Resume.UTC().Format(time.RFC3339), "notice", a.Notice)
	}
	return res, nil
}

// damaged logs that a game's stored data is damaged, once per game while
// the service runs: every mail about it and every sweep meets it again.
func (s *Service) damaged(game uint64, err error) {
	if _, seen := s.damagedGames.LoadOrStore(game, true); !seen {
		s.log.Error("game damaged: its mail is answered with an apology and not acted on; other games play on; run bottlepost check-store",
			"game", game, "err", err)
	}
}

// isDamaged says whether game was found damaged (damaged was called for it).
func (s *Service) isDamaged(game uint64) bool {
	_, ok := s.damagedGames.Load(game)
	return ok
}

// apologize answers a mail that ran into a damaged game: the sender is told
// (within the reply allowance) that nothing was done, the mail is marked
// processed so that it is not tried again forever, and the damage is logged
// once. Nothing else of the mail is done: its transaction was rolled back.
func (s *Service) apologize(in *Incoming, id string, game uint64, cause error, allow func() Allowance) (Result, error) {
	s.damaged(game, cause)
	res := Result{Refused: fmt.Sprintf("game %d is damaged", game)}
	err := s.st.Update(func(tx *store.Tx) error {
		res.Mails = 0
		h := s.newHandling(tx, in, allow, s.now().UTC())
		h.from = mailfmt.Key(in.From)
		d := h.draft(h.from, nil, "notice")
		d.needs = true // the sender's move, say, was not played: never withheld
		d.notice("Sorry: game %d cannot be played at the moment, because its stored record is damaged. Nothing in your mail was done. The operator has been told; once it is repaired, send your mail again. Your other games are not affected.", game)
		n, err := h.flush()
		if err != nil {
			return err
		}
		res.Mails = n
		return tx.MarkProcessed(id, h.now)
	})
	if err != nil {
		return Result{}, &SystemError{Err: err}
	}
	return res, nil
}

// syntheticID stands in for a missing Message-ID: a hash of everything that
// tells one mail from the next of the same sender (the same move twice in a
// game differs in its date and what it replies to).
func syntheticID(in *Incoming) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s", in.From, strings.Join(in.Recipients, ","), in.Subject,
		in.Date.UTC().Format(time.RFC3339Nano), in.InReplyTo, strings.Join(in.References, ","), strings.Join(in.Lines, "\n"))
	return fmt.Sprintf("no-id.%x@bottlepost.invalid", h.Sum(nil)[:16])
}
