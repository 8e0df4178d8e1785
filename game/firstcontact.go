package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/bottlepost/bottlepost/store"
)

// First contact. Mail that cannot be acted on (sent to the bare address, to
// an unknown token, to someone else's personal or seat address) is answered
// with the welcome, at most WelcomesPerDay times a UTC day per sender and
// the same whoever the sender is, so nobody learns which addresses play.
// The welcome quotes the commands of the mail it answers and holds them:
// replying to it from the same address (with any text, or none, to its
// Reply-To or to the bare address) carries them out. The welcome's
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
	Address string   `json:"address"` // the sender, normalized
	Subject string   `json:"subject,omitempty"`
	Lines   []string `json:"lines"`
}

// welcome answers mail that gets no game action (see above).
func (h *handling) welcome() error {
	if ok, err := h.welcomeSlot(); err != nil || !ok {
		return err
	}
	if h.quiet() {
		return nil
	}
	d := h.draft(h.from, nil, "welcome")
	d.subject = "Welcome to bottlepost"
	d.replyTo = h.s.replyAddress(h.s.accountToken(h.from))
	cmds, perrs, ignored := ParseCommands(h.in.Lines)
	if limit := h.s.cfg.Limits.CommandsPerMail; len(cmds) > limit {
		cmds = cmds[:limit]
	}
	var lines []string
	for _, c := range cmds {
		// Held whole; quoted whole too, unless absurdly long (a command of
		// more than 200 characters names no real address or move).
		lines = append(lines, c.Line)
		if len(c.Line) > 200 {
			d.held = append(d.held, excerpt(c.Line))
		} else {
			d.held = append(d.held, c.Line)
		}
	}
	for _, e := range perrs {
		d.ignored = append(d.ignored, e.Line)
	}
	d.ignored = quoteLines(append(d.ignored, ignored...))
	if len(d.held) == 0 {
		return nil
	}
	d.subject = "bottlepost: reply to carry out your commands"
	id, err := h.s.messageID(welcomePrefix + h.now.Format("20060102"))
	if err != nil {
		return err
	}
	d.messageID = id
	return h.hold(id, heldMail{V: heldVersion, Address: h.from, Subject: h.in.Subject, Lines: lines})
}

// welcomeSlot takes one of the WelcomesPerDay answers the sender may get
// from first contact in the UTC day (the welcome, or unverified.go's
// answer); ok is false, and h.refused says so, when all are taken. The
// slot is used even when the rate limit then holds the answer back, so
// that mail in someone's name asks their allowance at most WelcomesPerDay
// times a day.
func (h *handling) welcomeSlot() (ok bool, err error) {
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
	// It counts even when the rate limit holds the answer back, so that mail
	// in someone's name asks their allowance at most WelcomesPerDay times a
	// day.
	return true, h.tx.CountWelcome(h.from, h.now)
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
	// The message replied to, then the thread from its newest end: a
	// welcome is the last or nearly the last of its thread.
	ids := []string{h.in.InReplyTo}
	for i := len(h.in.References) - 1; i >= 0 && len(ids) < 8; i-- {
		ids = append(ids, h.in.References[i])
	}
	for _, id := range ids {
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

// carryOut makes a reply to a welcome act as the mail the welcome answered:
// its held commands first, then the reply's own lines that do not repeat
// them; the subject is the first mail's, so a held move finds its game.
func (h *handling) carryOut(m *heldMail) {
	lines := append([]string(nil), m.Lines...)
	seen := map[string]bool{}
	for _, l := range m.Lines {
		seen[strings.ToLower(strings.Join(strings.Fields(l), " "))] = true
	}
	for _, l := range h.in.Lines {
		if !seen[strings.ToLower(strings.Join(strings.Fields(l), " "))] {
			lines = append(lines, l)
		}
	}
	in := *h.in
	in.Lines, in.Subject = lines, m.Subject
	h.in = &in
	h.carried = len(m.Lines)
}

// pruneHeld forgets the held commands of welcomes older than heldDays.
func pruneHeld(tx *store.Tx, now time.Time) (int, error) {
	cutoff := now.AddDate(0, 0, -heldDays).Format("20060102")
	return tx.DeleteSettings(heldPrefix, heldPrefix+cutoff)
}
