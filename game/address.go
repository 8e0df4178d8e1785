package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Moving to a new address (issue 33). "address NEW" from a player's
// current address sends a confirmation to NEW; a reply to it from NEW
// (In-Reply-To or References naming it) moves the account in the reply's
// own transaction: the player's address (the store's address index), the
// seats of every game not yet archived, and with the player record
// everything keyed by the player (ratings, settings, vacations, digests).
// Seat tokens are derived from (game, side, player) and stay; the personal
// token is derived from the address and becomes NEW's. The old address is
// told, and from then on every mail from it is answered with a clear
// refusal (a setting "moved/HASH" keeps that it moved; HASH is a keyed hash
// of the address). An address in use by a player (or moved away from)
// cannot be taken; at most one change every addressDays days; the
// confirmation expires after confirmDays days. The confirmation goes to an
// address that may never have written: it takes one of the day's mails to
// strangers (strangers.go). The store's group commit runs a group's
// handlings one after another, so a move from the old address handled at
// the same time as the confirmation is either played before the move of
// the account or refused after it: exactly once.

const (
	// addressDays is the least time between two changes of address.
	addressDays = 7
	// confirmDays is how long a confirmation waits for its reply.
	confirmDays = 3
	// movingPrefix starts the setting names of pending changes
	// ("moving/DAY/HASH", HASH keyed from the confirmation's Message-ID);
	// movedPrefix those of addresses moved away from.
	movingPrefix = "moving/"
	movedPrefix  = "moved/"
	// confirmPrefix starts a confirmation's Message-ID.
	confirmPrefix = "moving."
	movingVersion = 1
)

// VerbAddress moves the sender's account to a new address (address NEW).
const VerbAddress Verb = "address"

// moving is a change of address waiting for its confirmation.
type moving struct {
	V       int       `json:"v"`
	Player  uint64    `json:"player"`
	Old     string    `json:"old"`
	New     string    `json:"new"`
	Expires time.Time `json:"expires"`
}

// moved is what the service keeps of an address moved away from.
type moved struct {
	Player uint64    `json:"player"`
	At     time.Time `json:"at"`
}

// parseAddress reads "address NEW".
func parseAddress(c *Command, args []string) lang.Text {
	if len(args) != 1 || !address.MatchString(strings.Trim(args[0], "<>")) {
		return lang.Msg("write address NEW, e.g. address alice@new.example.org, from your current address")
	}
	c.Arg = mailfmt.Key(strings.Trim(args[0], "<>"))
	return lang.Text{}
}

// keyedName is prefix + DAY + "/" + a keyed hash of v (or prefix + hash
// without a day).
func (s *Service) keyedName(prefix, day, v string) string {
	m := hmac.New(sha256.New, s.heldKey)
	m.Write([]byte(prefix))
	m.Write([]byte(strings.ToLower(v)))
	h := hex.EncodeToString(m.Sum(nil)[:16])
	if day == "" {
		return prefix + h
	}
	return prefix + day + "/" + h
}

// movingName is the setting name of the change a confirmation with
// Message-ID id waits for, or "" when id is not a confirmation's.
func (s *Service) movingName(id string) string {
	rest, ok := strings.CutPrefix(id, confirmPrefix)
	if !ok || len(rest) < 9 || rest[8] != '.' {
		return ""
	}
	if _, err := time.Parse("20060102", rest[:8]); err != nil {
		return ""
	}
	return s.keyedName(movingPrefix, rest[:8], id)
}

// changeAddress asks for the move of the sender's account to c.Arg.
func (h *handling) changeAddress(c Command, reply *draft) error {
	to := c.Arg
	switch {
	case to == h.from:
		return userf("%s is your address already", to)
	case h.s.ours(to):
		return userf("%s is bottlepost's own address", to)
	}
	if taken, err := h.addressTaken(to); err != nil || taken {
		if err == nil {
			err = userf("%s is the address of another bottlepost account: it cannot be taken", to)
		}
		return err
	}
	lg := h.langOf(h.from)
	if last := h.pmeta.AddressChanged; !last.IsZero() && h.now.Before(last.AddDate(0, 0, addressDays)) {
		return userf("your address changed on %s: it may change once in %d days, next from %s", dateIn(last.UTC(), "2 Jan 2006", lg), addressDays, dateIn(last.AddDate(0, 0, addressDays).UTC(), "2 Jan 2006 15:04 UTC", lg))
	}
	if last := h.pmeta.AddressAsked; !last.IsZero() && h.now.Before(last.Add(24*time.Hour)) && !h.now.Before(last) {
		return userf("a confirmation of a new address went out on %s: one goes out a day, the next from %s (a confirmation stays valid for %d days)", dateIn(last.UTC(), "2 Jan 2006 15:04 UTC", lg), dateIn(last.Add(24*time.Hour).UTC(), "2 Jan 2006 15:04 UTC", lg), confirmDays)
	}
	if ok, err := h.strangerMail(); err != nil || !ok {
		if err == nil {
			err = &limitError{setting: "strangers_per_day", text: lang.Msg("no confirmation went to %s: bottlepost has sent today all the mail it sends in a day to addresses that never wrote to it (limits.strangers_per_day); ask again tomorrow (from 00:00 UTC)", to)}
		}
		return err
	}
	id, err := h.s.messageID(confirmPrefix + h.now.Format("20060102"))
	if err != nil {
		return err
	}
	m := moving{V: movingVersion, Player: h.player.ID, Old: h.from, New: to, Expires: h.now.AddDate(0, 0, confirmDays)}
	if err := putSealed(h.tx, h.s.rand, h.s.heldKey, h.s.movingName(id), m); err != nil {
		return err
	}
	h.pmeta.AddressAsked = h.now
	if err := h.savePlayer(); err != nil {
		return err
	}
	d := h.draft(to, nil, "notice")
	d.subject = d.tr("bottlepost: confirm your new address")
	d.messageID, d.replyTo = id, h.s.cfg.Address
	d.notice("The bottlepost player writing from %s asked to move their account — games, ratings, settings — to this address.", h.from)
	d.notice("If that was you, reply to this mail from this address before %s; the reply moves the account. If it was not, ignore this mail: nothing changes.", timing.FormatDate(m.Expires.UTC(), "Mon 2 Jan 2006 15:04 UTC", d.lang))
	reply.notice("A confirmation went to %s: reply to it from there within %d days to move your account (games, ratings, settings) to it. Until then nothing changes.", to, confirmDays)
	return nil
}

// addressTaken says whether an address is a player's, or was moved away from.
func (h *handling) addressTaken(addr string) (bool, error) {
	if _, err := h.tx.PlayerByAddress(addr); err == nil {
		return true, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	v, err := h.tx.Setting(h.s.keyedName(movedPrefix, "", addr))
	return v != nil, err
}

// movingReply finds the change of address a mail confirms: the
// confirmation it replies to, sent to its sender. It returns nil when the
// mail confirms none.
func (h *handling) movingReply() (*moving, string, error) {
	for _, id := range repliedIDs(h.in) {
		name := h.s.movingName(strings.Trim(strings.TrimSpace(id), "<>"))
		if name == "" {
			continue
		}
		var m moving
		found, err := getSealed(h.tx, h.s.heldKey, name, &m)
		if err != nil {
			return nil, "", err
		}
		if !found || m.New != h.from {
			continue // only the address the confirmation went to confirms it
		}
		if m.V != movingVersion {
			return nil, "", fmt.Errorf("game: change of address %s: version %d: %w", name, m.V, store.ErrCorrupt)
		}
		return &m, name, nil
	}
	return nil, "", nil
}

// confirmMove carries out a confirmed change of address (see above), in
// the reply's transaction; the reply's own lines are not acted on.
func (h *handling) confirmMove(m *moving, name string) error {
	if err := h.tx.PutSetting(name, nil); err != nil {
		return err
	}
	d := h.draft(h.from, nil, "notice")
	d.subject = d.tr("bottlepost: your new address")
	p, err := h.tx.Player(m.Player)
	if err != nil {
		return err
	}
	taken, err := h.addressTaken(m.New)
	switch {
	case err != nil:
		return err
	case h.now.After(m.Expires):
		h.refused = "an expired confirmation of a new address"
		d.notice("This confirmation expired on %s: nothing changed. Ask again from your current address (address %s).", dateIn(m.Expires.UTC(), "2 Jan 2006 15:04 UTC", d.lang), m.New)
		return nil
	case mailfmt.Key(p.Address) != m.Old || taken:
		h.refused = "a confirmation of a new address that no longer applies"
		d.notice("This confirmation no longer applies (the account's address changed since, or this address became another account's): nothing changed.")
		return nil
	}
	pm := decodePlayerMeta(p)
	pm.AddressChanged = h.now
	p.Address, p.Meta = m.New, pm.encode()
	if err := h.tx.PutPlayer(p); err != nil {
		return err
	}
	for _, id := range pm.Games {
		g, err := h.tx.Game(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if g.Archived {
			continue
		}
		for i := range g.Seats {
			if g.Seats[i].Player == p.ID {
				g.Seats[i].Address = m.New
			}
		}
		if err := h.tx.PutGame(g); err != nil {
			return err
		}
	}
	mv, _ := json.Marshal(moved{Player: p.ID, At: h.now})
	if err := h.tx.PutSetting(h.s.keyedName(movedPrefix, "", m.Old), mv); err != nil {
		return err
	}
	h.player, h.pmeta = p, pm
	d.replyTo = h.s.replyAddress(h.s.accountToken(m.New))
	d.notice("Your bottlepost account moved here from %[1]s: your games (%[2]d in play), ratings and settings. Your personal address is now %[3]s; the games' addresses stay, and answer mail from here. Mail from %[1]s no longer acts on them.", m.Old, len(pm.Games), d.replyTo)
	od := h.draft(m.Old, nil, "notice")
	od.subject = od.tr("bottlepost: your account moved")
	od.notice("Your bottlepost account moved to %s, confirmed from there: your games, ratings and settings go with it. Mail from this address no longer acts on them.", m.New)
	return nil
}

// movedAway answers mail from an address an account moved away from.
func (h *handling) movedAway() (bool, error) {
	v, err := h.tx.Setting(h.s.keyedName(movedPrefix, "", h.from))
	if err != nil || v == nil {
		return false, err
	}
	if _, err := h.tx.PlayerByAddress(h.from); err == nil {
		return false, nil // an account of this address again (cannot happen: addressTaken)
	}
	var mv moved
	if err := json.Unmarshal(v, &mv); err != nil {
		return false, fmt.Errorf("game: moved address: %w", errors.Join(err, store.ErrCorrupt))
	}
	h.refused = "mail from an address its account moved away from"
	d := h.draft(h.from, nil, "notice")
	d.subject = d.tr("bottlepost: this address moved")
	d.notice("Nothing was done: the bottlepost account of this address moved to another address on %s, confirmed from there. Mail from this address no longer acts on its games; write from the new address.", dateIn(mv.At.UTC(), "2 Jan 2006", d.lang))
	return true, nil
}

// dateIn writes an instant as timing.FormatDate does, for a layout that
// may begin with the day ("2 Jan 2006": German writes "5. Jan. 2026").
func dateIn(t time.Time, layout string, lg lang.Lang) string {
	return strings.TrimPrefix(timing.FormatDate(t, " "+layout, lg), " ")
}

// pruneMoving forgets the changes of address whose confirmation was sent
// more than confirmDays+1 days ago (expired: a reply finds nothing).
func pruneMoving(tx *store.Tx, now time.Time) (int, error) {
	cutoff := now.AddDate(0, 0, -confirmDays-1).Format("20060102")
	return tx.DeleteSettings(movingPrefix, movingPrefix+cutoff)
}

// repliedIDs are the Message-IDs a mail replies to, as the service looks
// for its own welcome or confirmation among them: the message replied to,
// then the thread from its newest end (such a mail is the last or nearly
// the last of its thread), at most 8.
func repliedIDs(in *Incoming) []string {
	ids := []string{in.InReplyTo}
	for i := len(in.References) - 1; i >= 0 && len(ids) < 8; i-- {
		ids = append(ids, in.References[i])
	}
	return ids
}
