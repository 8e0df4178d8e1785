package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
)

// First contact. Mail that cannot be acted on (sent to the bare address, to
// an unknown token, to someone else's personal or seat address) is answered
// with the welcome: a stranger's address at most WelcomesPerDay times a UTC
// day (the last one says so), a player's whenever the reply allowance lets
// it; the same text whoever the sender is, so that nobody who writes in
// someone's name learns whether the address plays.
// The welcome quotes the commands of the mail it answers and holds them:
// a reply to it from the same address (to its Reply-To or to the bare
// address) that confirms them ("yes", confirm.go) carries them out; any
// other reply discards them. Commands that act on games are never held.
// The welcome's
// Message-ID is unguessable and goes only to the sender's own address, so a
// reply that quotes it comes from whoever reads that mailbox: a forged first
// mail does nothing until the real owner of the address replies.
//
// Held commands are kept, sealed, as store settings named
// "held/DAY/HASH" (the hash of the welcome's Message-ID under a key of
// their own) and forgotten after heldDays, or once carried out.

const (
	// WelcomesPerDay bounds the welcomes one address gets a UTC day.
	WelcomesPerDay = 3
	// heldDays is how long a welcome's commands wait for the reply.
	heldDays = 7
	// heldPrefix starts the setting names of held commands.
	heldPrefix = "held/"
	// welcomePrefix starts a welcome's Message-ID: "welcome.DAY.RANDOM@domain".
	welcomePrefix = "welcome."
	heldVersion   = 1
)

// heldMail is what a welcome holds: the commands of the mail it answered.
type heldMail struct {
	V       int      `json:"v"`
	Address string   `json:"address"`           // the sender, normalized
	Subject string   `json:"subject,omitempty"` // the first mail's game tag, [bp-N], or ""
	Lines   []string `json:"lines"`
}

// welcome answers mail that gets no game action (see above). It quotes
// and holds only the commands it recognised, spelled as the service reads
// them (holdText), and names those never held by their command word; the
// mail's other text and its subject go nowhere (issue 35.7): a forger
// cannot make the service carry words of theirs to anyone. (Its
// Message-ID stays in In-Reply-To, for the thread: a header field, not
// text a reader is shown.)
func (h *handling) welcome() error {
	if ok, err := h.welcomeSlot(); err != nil || !ok {
		return err
	}
	if !h.allowed("welcome", true) {
		return nil
	}
	d := h.draft(h.from, nil, "welcome")
	d.subject = d.tr("Welcome to bottlepost")
	d.replyTo = h.s.replyAddress(h.s.accountToken(h.from))
	cmds, perrs, ignored := ParseCommands(h.in.Lines)
	if limit := h.s.cfg.Limits.CommandsPerMail; len(cmds) > limit {
		cmds = cmds[:limit]
	}
	var never []string
	other := len(perrs) + len(ignored)
	for _, c := range cmds {
		text, ok := h.holdText(c)
		switch {
		case ok:
			d.held = append(d.held, text)
		case !slices.Contains(heldVerbs, c.Verb):
			if name := neverHeldName(c, d.lang); !slices.Contains(never, name) {
				never = append(never, name)
			}
		default:
			other++ // a command that may be held, but whose arguments do not stand
		}
	}
	if len(never) > 0 {
		d.notice("Your mail also asked for %s: commands that act on a game, or a referee's, are never carried out from a first mail, nor on a reply to this one. If you meant them, send them again to your personal address (below).", strings.Join(never, ", "))
	}
	if other > 0 {
		d.notice("Lines of your mail that were not understood as commands (%d) are not repeated here; write \"help\" to your personal address for the commands.", other)
	}
	h.lastWelcomeNotice(d)
	if len(d.held) == 0 {
		return nil
	}
	d.subject = d.tr("bottlepost: reply yes to carry out your commands")
	id, err := h.s.messageID(welcomePrefix + h.now.Format("20060102"))
	if err != nil {
		return err
	}
	d.messageID = id
	tag := ""
	if n, ok := mailfmt.ParseTag(h.in.Subject); ok {
		tag = mailfmt.FormatTag(n) // a held "accept" or "board" finds its game; nothing else of the subject is kept
	}
	return h.hold(id, heldMail{V: heldVersion, Address: h.from, Subject: tag, Lines: d.held})
}

// heldVerbs are the commands a welcome may hold (holdText spells them);
// every other is asked for again from the personal address.
var heldVerbs = []Verb{VerbHelp, VerbGames, VerbAccept, VerbDecline, VerbBoard, VerbHistory, VerbObserve, VerbPGN,
	VerbConditionals, VerbVacation, VerbTimezone, VerbDigest, VerbNew}

// welcomeSlot takes one of the WelcomesPerDay answers a stranger may get
// from first contact in the UTC day (the welcome, or unverified.go's
// answer); ok is false, and h.refused says so, when all are taken, and
// h.lastWelcome is set when it takes the last one. The slot is used even
// when the rate limit then holds the answer back, so that mail in someone's
// name asks their allowance at most WelcomesPerDay times a day. A sender
// the service knows (a player: an account, or a game) takes no slot: the
// bare address answers a player whenever the hourly reply allowance does
// (issue 35.4: the README's one address went silent after three mails a
// day).
//
// The count is exact however many mails are handled at once: it is read
// and written in the mail's own transaction, and the store's group commit
// runs the transactions of a group one after another in one bbolt write
// transaction (store.Batch), so no two see the same count
// (TestWelcomesExactUnderConcurrency).
func (h *handling) welcomeSlot() (ok bool, err error) {
	if _, err := h.tx.PlayerByAddress(h.from); err == nil {
		return true, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	n, err := h.tx.Welcomes(h.from, h.now)
	if err != nil {
		return false, err
	}
	legacy, err := legacyWelcomes(h.tx, h.from, h.now.Format("2006-01-02"), h.s.welcomesFrom)
	if err != nil {
		return false, err
	}
	if n+legacy >= WelcomesPerDay {
		h.refused += "; the day's welcomes to the sender were sent"
		return false, nil
	}
	if ok, err := h.strangerMail(); err != nil || !ok {
		if err == nil {
			h.refused += "; the day's mails to strangers were sent (limits.strangers_per_day)"
		}
		return false, err
	}
	// It counts even when the rate limit holds the answer back, so that mail
	// in someone's name asks their allowance at most WelcomesPerDay times a
	// day.
	h.lastWelcome = n+legacy+1 == WelcomesPerDay
	return true, h.tx.CountWelcome(h.from, h.now)
}

// lastWelcomeNotice tells a stranger, in the day's last answer of first
// contact, that it is the last.
func (h *handling) lastWelcomeNotice(d *draft) {
	if h.lastWelcome {
		d.notice("\nThis is the last answer to this address today: bottlepost answers an address it does not know at most %d times a UTC day, and more mail from it today gets none. Mail to your personal address (the Reply-To of this mail) is always answered.", WelcomesPerDay)
	}
}

// welcomed reports whether the handling answers with the welcome.
func (h *handling) welcomed() bool {
	for k := range h.drafts {
		if k.kind == "welcome" {
			return true
		}
	}
	return false
}

// heldName is the setting name of the commands held by the welcome with
// Message-ID id, or "" when id is not a welcome's.
func (s *Service) heldName(id string) string {
	rest, ok := strings.CutPrefix(id, welcomePrefix)
	if !ok || len(rest) < 9 || rest[8] != '.' {
		return ""
	}
	day := rest[:8]
	if _, err := time.Parse("20060102", day); err != nil {
		return ""
	}
	m := hmac.New(sha256.New, s.heldKey)
	m.Write([]byte(strings.ToLower(id)))
	return heldPrefix + day + "/" + hex.EncodeToString(m.Sum(nil)[:16])
}

// hold keeps a welcome's commands, sealed, until the reply.
func (h *handling) hold(id string, m heldMail) error {
	name := h.s.heldName(id)
	plain, err := json.Marshal(m)
	if err != nil {
		return err
	}
	aead, err := chacha20poly1305.NewX(h.s.heldKey)
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := io.ReadFull(h.s.rand, nonce); err != nil {
		return err
	}
	return h.tx.PutSetting(name, aead.Seal(nonce, nonce, plain, []byte(name)))
}

// heldReply finds the welcome this mail answers, among the ids it replies
// to, whose commands are held for its sender. It returns them and deletes
// them (they are carried out once), or nil.
func (h *handling) heldReply() (*heldMail, error) {
	for _, id := range repliedIDs(h.in) {
		name := h.s.heldName(strings.Trim(strings.TrimSpace(id), "<>"))
		if name == "" {
			continue
		}
		sealed, err := h.tx.Setting(name)
		if err != nil {
			return nil, err
		}
		if sealed == nil {
			continue
		}
		aead, err := chacha20poly1305.NewX(h.s.heldKey)
		if err != nil {
			return nil, err
		}
		if len(sealed) < aead.NonceSize() {
			return nil, fmt.Errorf("game: held commands %s: too short: %w", name, store.ErrCorrupt)
		}
		plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(name))
		if err != nil {
			return nil, fmt.Errorf("game: held commands %s do not open: %w", name, errors.Join(err, store.ErrCorrupt))
		}
		var m heldMail
		if err := json.Unmarshal(plain, &m); err != nil || m.V != heldVersion {
			return nil, fmt.Errorf("game: held commands %s: unreadable: %w", name, store.ErrCorrupt)
		}
		if m.Address != h.from {
			continue // only the address the welcome went to may carry them out
		}
		if err := h.tx.PutSetting(name, nil); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return nil, nil
}

// pruneHeld forgets the held commands of welcomes older than heldDays.
func pruneHeld(tx *store.Tx, now time.Time) (int, error) {
	cutoff := now.AddDate(0, 0, -heldDays).Format("20060102")
	return tx.DeleteSettings(heldPrefix, heldPrefix+cutoff)
}
