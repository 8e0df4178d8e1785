package game

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Messages between opponents (issue 33). A line "say TEXT" of a player's
// mail passes TEXT to the opponent of the mail's game; the say lines of a
// mail are joined, one line each, and relayed once every other command of
// the mail has run:
//
//   - in the mail the sender's mail causes the opponent anyway (the news of
//     the move, the final mail, a draw offer), below its news, as
//     "Alice says:" and the text; else in a mail of its own: never more
//     than one mail to the opponent for one incoming mail;
//   - also when the mail's move was refused: the words are the sender's
//     whatever became of the move, and go in a mail of their own;
//   - only from the authenticated sender of a mail to a seat's or their
//     personal address (as moves), never held by a welcome, and only in a
//     game being played or over (also archived: a word after the game);
//   - at most maxSayRunes characters a mail (a longer text is cut, and the
//     sender told) and SaysPerDay message mails per game and sender in any
//     24 hours (the sender is told past it, and the words are not passed);
//   - never to an opponent who turned them off (messages off): the sender
//     is told once, until the opponent turns them on again.
//
// The text is the sender's own: nothing the service adds to it depends on
// the game's hidden moves. It is no header of any mail and makes no link;
// the HTML part escapes it (html/template). It is kept, sealed, as store
// settings "said/GAME/N" (messageName), outside the game's record: never
// on the web, in a PGN or in what verify reads; the referee's audit lists
// them.

const (
	// maxSayRunes bounds the words of one mail, in characters.
	maxSayRunes = 1000
	// SaysPerDay bounds the mails with words a sender sends the opponent of
	// one game in any 24 hours.
	SaysPerDay = 10
	// saidPrefix starts the setting names of messages.
	saidPrefix  = "said/"
	saidVersion = 1
)

// saidText is a message as a mail shows it: who says it and its lines.
type saidText struct {
	From  string
	Lines []string
}

// storedSay is a message as the store keeps it (sealed).
type storedSay struct {
	V    int       `json:"v"`
	Side int       `json:"side"`
	At   time.Time `json:"at"`
	Text string    `json:"text"`
	// Withheld says why it was not delivered ("" when it was).
	Withheld string `json:"withheld,omitempty"`
}

// parseSay reads a line "say TEXT" (or "say: TEXT") as written; ok is false
// for any other line. TEXT keeps its spaces; characters that would change
// the mail's layout (controls, bidirectional overrides) become spaces or
// go, and only the first maxSayRunes+1 characters are kept (the relay
// cuts them and says so).
func parseSay(raw string) (c Command, err *ParseError, ok bool) {
	s := strings.TrimLeft(raw, " \t")
	word := s
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		word = s[:i]
	}
	if !strings.EqualFold(strings.TrimSuffix(word, ":"), string(VerbSay)) {
		return Command{}, nil, false
	}
	text := cleanSay(s[len(word):])
	if strings.TrimSpace(text) == "" {
		return Command{}, &ParseError{Line: string(VerbSay), Reason: lang.Msg("write your words after say, e.g. say Good luck!")}, true
	}
	return Command{Verb: VerbSay, Line: string(VerbSay), Arg: text}, nil, true
}

// cleanSay is the text of a say line as relayed: controls made spaces,
// bidirectional overrides and isolates dropped, surrounding space trimmed,
// at most maxSayRunes+1 characters.
func cleanSay(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		switch {
		case r == utf8.RuneError, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			continue
		case unicode.IsControl(r):
			r = ' '
		}
		if n == 0 && r == ' ' {
			continue
		}
		b.WriteRune(r)
		if n++; n > maxSayRunes {
			break
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// relay passes a mail's say lines to the opponent of its game (see above).
func (h *handling) relay(says []Command) error {
	l, side, err := h.myGame(says[0])
	if err != nil {
		return err
	}
	if l.meta.Phase != phasePlay && l.meta.Phase != phaseOver {
		return userf("your words were not passed on: game %d has not started", l.g.ID)
	}
	d := h.draft(h.from, l, "update")
	lines := make([]string, 0, len(says))
	total := 0
	cut := false
	for _, c := range says {
		r := []rune(c.Arg)
		if total+len(r) > maxSayRunes {
			r, cut = r[:maxSayRunes-total], true
		}
		if len(r) > 0 {
			lines = append(lines, string(r))
			total += len(r)
		}
		if total == maxSayRunes {
			cut = cut || len(says) > len(lines)
			break
		}
	}
	day := slices.DeleteFunc(slices.Clone(l.meta.Said[side]), func(t time.Time) bool { return !t.After(h.now.Add(-24 * time.Hour)) })
	if len(day) >= SaysPerDay {
		return userf("your words were not passed on: at most %d mails with words a day go to your opponent in one game; the next may go after %s", SaysPerDay, timing.FormatDate(day[0].Add(24*time.Hour).UTC(), "Mon 2 Jan 15:04 UTC", d.lang))
	}
	if cut { // said only of words that go
		d.notice("Your words were cut after %d characters: at most %[1]d go with one mail.", maxSayRunes)
	}
	opp := 1 - side
	said := storedSay{V: saidVersion, Side: side, At: h.now, Text: strings.Join(lines, "\n")}
	if err := h.muted(l, opp, &said, d); err != nil {
		return err
	}
	if said.Withheld == "" {
		od := h.opponentDraft(l, opp)
		od.said = append(od.said, saidText{From: displayName(h.player), Lines: lines})
		d.notice("Your words were passed to %s.", displayName(l.seats[opp]))
	}
	l.meta.Said[side] = append(day, h.now)
	l.meta.Messages++
	if l.g.Archived {
		// Over, moved to the archive (perhaps by this very mail): its
		// service data is written alone.
		l.g.Meta = l.meta.encode()
		if err := h.tx.PutMeta(l.g.ID, l.g.Meta); err != nil {
			return err
		}
	} else {
		h.touch(l)
	}
	return h.keepSaid(l.g.ID, l.meta.Messages, &said)
}

// muted marks a message withheld when the opponent turned messages off,
// and tells the sender once (the opponent's playerMeta.Quiet keeps whom).
func (h *handling) muted(l *loaded, opp int, said *storedSay, d *draft) error {
	p := l.seats[opp]
	pm := decodePlayerMeta(p)
	if pm.Quiet == nil {
		return nil
	}
	said.Withheld = "messages off"
	if slices.Contains(pm.Quiet.Told, h.player.ID) {
		return nil
	}
	pm.Quiet.Told = append(pm.Quiet.Told, h.player.ID)
	p.Meta = pm.encode()
	if err := h.tx.PutPlayer(p); err != nil {
		return err
	}
	d.notice("Your words were not passed on: %s has turned messages off. (You are told this once; while they keep them off, no words of yours reach them.)", displayName(p))
	return nil
}

// opponentDraft is the mail to a game's seat that this handling sends
// anyway (the final mail, or the news of the move), or a new one.
func (h *handling) opponentDraft(l *loaded, side int) *draft {
	to := l.seats[side].Address
	for _, kind := range []string{"final", "update"} {
		if d, ok := h.drafts[draftKey{mailfmt.Key(to), l.g.ID, kind}]; ok {
			return d
		}
	}
	return h.draft(to, l, "update")
}

// messageName is the setting name of a game's nth message.
func messageName(game uint64, n int) string {
	return fmt.Sprintf("%s%020d/%06d", saidPrefix, game, n)
}

// keepSaid stores a message, sealed under the service's message key and
// bound to its name.
func (h *handling) keepSaid(game uint64, n int, said *storedSay) error {
	return putSealed(h.tx, h.s.rand, h.s.saidKey, messageName(game, n), said)
}

// saids reads a game's messages, in order; one missing or that does not
// open is an error (the store's data is damaged).
func (s *Service) saids(tx *store.Tx, l *loaded) ([]storedSay, error) {
	var out []storedSay
	for n := 1; n <= l.meta.Messages; n++ {
		var m storedSay
		found, err := getSealed(tx, s.saidKey, messageName(l.g.ID, n), &m)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("game: message %s is missing: %w", messageName(l.g.ID, n), store.ErrCorrupt)
		}
		out = append(out, m)
	}
	return out, nil
}

// auditSaids are the audit's lines about a game's messages.
func (h *handling) auditSaids(l *loaded) ([]string, error) {
	said, err := h.s.saids(h.tx, l)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range said {
		how := "passed on"
		if m.Withheld != "" {
			how = "not passed on: " + m.Withheld
		}
		out = append(out, fmt.Sprintf("message of %s, %s (%s):", l.sides()[m.Side], m.At.UTC().Format("2006-01-02 15:04 UTC"), how))
		for line := range strings.SplitSeq(m.Text, "\n") {
			out = append(out, "  "+line)
		}
	}
	return out, nil
}

// parseMessages reads "messages off" or "messages on".
func parseMessages(c *Command, args []string) lang.Text {
	if len(args) != 1 || !strings.EqualFold(args[0], "off") && !strings.EqualFold(args[0], "on") {
		return lang.Msg("write messages off (your opponents' words no longer reach you) or messages on")
	}
	c.Arg = strings.ToLower(args[0])
	return lang.Text{}
}

// quiet is a player's messages off: since when, and the senders told that
// their words do not reach the player.
type quiet struct {
	Since time.Time `json:"since"`
	Told  []uint64  `json:"told,omitempty"`
}

// messagesSetting turns the opponents' words off or on for the sender.
func (h *handling) messagesSetting(c Command, reply *draft) error {
	if c.Arg == "off" {
		if h.pmeta.Quiet == nil {
			h.pmeta.Quiet = &quiet{Since: h.now}
		}
		reply.notice("Your opponents' words (say …) no longer reach you; each who writes some is told once. Write messages on to read them again.")
	} else {
		h.pmeta.Quiet = nil
		reply.notice("Your opponents' words (say …) reach you again, with their moves or in mails of their own.")
	}
	return h.savePlayer()
}
