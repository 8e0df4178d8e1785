package game

import (
	"fmt"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/timing"
)

// What a welcome holds, and what a reply to it must say (issue 35.1).
//
// A welcome may answer forged mail: anyone can write a first mail in
// someone else's name. So a reply to it carries out the commands it held
// only when it says so: a line "yes", or the commands written again (which
// a reply to the welcome may carry in its own name: only the owner of the
// address reads the welcome). Any other reply, an empty one, an
// out-of-office answer ("I did NOT send this"), discards them and says so.
//
// And what a forged first mail can ask for at all is bounded: only the
// commands of holdText are held, spelled out again from what was
// recognised of them (never the mail's own words: a forger's text, its
// links, never reach the address it named). Commands that act on a game
// — moves, conditional moves, resign, draw, claim — and the referees'
// commands (adjudicate, audit) are never held: the welcome asks for them
// again from the personal address, which is the player's own. So is any
// command not listed there, a newer one included, until it is judged safe
// to hold.

// holdText is the text a welcome quotes and holds for a command, spelled
// from what was recognised of it; ok is false for a command never held, or
// one whose arguments do not stand (an unknown variant or zone, a time
// control or schedule that does not parse), which is not quoted either.
func (h *handling) holdText(c Command) (text string, ok bool) {
	withGame := func(s string) string {
		if c.Game != 0 {
			return fmt.Sprintf("%s %d", s, c.Game)
		}
		return s
	}
	switch c.Verb {
	case VerbHelp:
		if c.Variant == "" {
			return "help", true
		}
		v, err := variants.Lookup(c.Variant)
		if err != nil {
			return "", false
		}
		return "help " + v.ID(), true
	case VerbGames:
		return "games", true
	case VerbAccept, VerbDecline, VerbBoard, VerbHistory:
		if c.Arg != "" {
			return "", false // board format …: a setting, asked for again from the personal address
		}
		return withGame(string(c.Verb)), true
	case VerbObserve:
		if c.Arg == "off" {
			return fmt.Sprintf("observe %d off", c.Game), true
		}
		return fmt.Sprintf("observe %d", c.Game), true
	case VerbPGN:
		return fmt.Sprintf("pgn %d", c.Game), true
	case VerbConditionals:
		if c.Arg == "off" {
			return withGame("conditionals off"), true
		}
		return withGame("conditionals"), true
	case VerbVacation:
		return fmt.Sprintf("vacation %d days", c.Days), true
	case VerbTimezone:
		loc, err := time.LoadLocation(c.Arg)
		if err != nil || c.Arg == "" || strings.EqualFold(c.Arg, "local") {
			return "", false
		}
		return "timezone " + loc.String(), true
	case VerbDigest:
		if strings.EqualFold(c.Arg, "off") {
			return "digest off", true
		}
		spec, err := digestSpec(c.Arg, "")
		if err != nil {
			return "", false
		}
		if _, err := timing.ParseSchedule(spec); err != nil {
			return "", false
		}
		return "digest " + strings.Join(strings.Fields(c.Arg), " "), true
	case VerbNew:
		return h.newText(c)
	}
	return "", false
}

// newText spells a challenge for holdText: the variant's id, the
// opponent's address, the colour, the ruleset and the time control as the
// service reads them; ok is false when they do not make a challenge.
func (h *handling) newText(c Command) (string, bool) {
	v, ruleset, tc, err := h.challengeTerms(c)
	if err != nil {
		return "", false
	}
	text := "new " + v.ID()
	if c.Opponent != "" {
		text += " vs " + mailfmt.Key(c.Opponent)
	}
	if c.Color != "" {
		text += " as " + c.Color
	}
	if c.Rules != "" {
		text += " rules " + ruleset
	}
	if c.Time != "" {
		text += " time " + tc.String()
	}
	return text, true
}

// neverHeldName names a command a welcome does not hold, in the welcome's
// list of what to send again from the personal address: the command word
// (one of the service's, never the mail's text).
func neverHeldName(c Command, lg lang.Lang) string {
	switch c.Verb {
	case VerbMove:
		return lg.Tr("moves")
	case VerbIf:
		return lg.Tr("conditional moves (if …)")
	}
	return string(c.Verb)
}

// isYes says whether a line of a reply to a welcome confirms its commands:
// the word yes alone (any case, a full stop or exclamation mark after it).
func isYes(line string) bool {
	return strings.EqualFold(strings.TrimRight(strings.TrimSpace(line), ".! "), "yes")
}

// commandKey is how a line is compared with a held command: the text
// holdText gives it when it is one, else its words in lower case.
func (h *handling) commandKey(line string) string {
	if cmds, _, _ := ParseCommands([]string{line}); len(cmds) == 1 {
		if text, ok := h.holdText(cmds[0]); ok {
			return text
		}
	}
	return strings.ToLower(strings.Join(strings.Fields(line), " "))
}

// settle makes a reply to a welcome act on the commands the welcome held:
// with a line "yes", they are carried out (first, then the reply's own
// lines that do not repeat them), with the first mail's game tag as the
// subject, so that a held "accept" or "board" finds its game; without, the
// held commands not written again in the reply are discarded (h.discarded,
// said in the answer). The reply's own lines are the sender's in any case:
// the welcome it answers went to the sender's address only.
func (h *handling) settle(m *heldMail) {
	var own []string
	confirmed := false
	for _, l := range h.in.Lines {
		if isYes(l) {
			confirmed = true
			continue
		}
		own = append(own, l)
	}
	written := map[string]bool{}
	for _, l := range own {
		written[h.commandKey(l)] = true
	}
	var lines []string
	for _, l := range m.Lines {
		switch {
		case written[h.commandKey(l)]:
			// Written again: the reply's own line carries it out.
		case confirmed:
			lines = append(lines, l)
		default:
			h.discarded = append(h.discarded, l)
		}
	}
	in := *h.in
	in.Lines = append(lines, own...)
	if confirmed {
		in.Subject = m.Subject
	}
	h.in = &in
	h.carried = len(lines)
}

// discardedNotice says, in the answer to a reply to a welcome, that the
// commands it held were not carried out.
func (h *handling) discardedNotice(d *draft) {
	if len(h.discarded) == 0 {
		return
	}
	d.notice("Your reply to the welcome did not confirm the commands it held (a line with just yes does), so they were discarded and not carried out:")
	for _, l := range h.discarded {
		d.notices = append(d.notices, "    "+l)
	}
	d.notice("If you meant them, send them again to your personal address, %s.", h.s.replyAddress(h.s.accountToken(h.from)))
}

// hasCommands says whether lines hold a command, well written or not.
func hasCommands(lines []string) bool {
	cmds, perrs, _ := ParseCommands(lines)
	return len(cmds)+len(perrs) > 0
}
