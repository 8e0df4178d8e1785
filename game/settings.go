package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/timing"
)

// Per-player settings (issue 34; docs/service.md, "Settings"): how the
// boards of a player's mails are drawn (board format diagram|list|both),
// whether a chess player's mails show moves in ICCF numeric notation too
// (notation iccf|algebraic), and the settings command, which lists every
// setting of the player's meta with the command that changes it.

// The board formats (playerMeta.Board; "" is boardDiagram, the default).
const (
	boardDiagram = "diagram"
	boardList    = "list"
	boardBoth    = "both"
)

// The notations (playerMeta.Notation; "" is notationAlgebraic).
const (
	notationAlgebraic = "algebraic"
	notationICCF      = "iccf"
)

// parseBoard reads "board [GAME]" (the board) or "board format
// diagram|list|both" (the setting, in c.Arg).
func parseBoard(c *Command, args []string) lang.Text {
	if len(args) == 0 || !strings.EqualFold(args[0], "format") {
		return parseGameOnly(c, args)
	}
	if len(args) != 2 {
		return lang.Msg("write board format diagram (the drawn board), board format list (the pieces in words) or board format both")
	}
	switch f := strings.ToLower(args[1]); f {
	case boardDiagram, boardList, boardBoth:
		c.Arg = f
		return lang.Text{}
	}
	return lang.Msg("%s is no board format: write board format diagram, list or both", args[1])
}

// parseNotation reads "notation iccf|algebraic".
func parseNotation(c *Command, args []string) lang.Text {
	if len(args) == 1 {
		switch a := strings.ToLower(args[0]); a {
		case notationICCF, notationAlgebraic:
			c.Arg = a
			return lang.Text{}
		}
	}
	return lang.Msg("write notation iccf (chess moves in ICCF numeric notation too, e.g. 1. e4 (5254)) or notation algebraic")
}

// parseLanguage reads "language de|en" (also the languages' names,
// "language Deutsch").
func parseLanguage(c *Command, args []string) lang.Text {
	if len(args) == 1 {
		if l, ok := lang.Parse(args[0]); ok {
			c.Arg = string(l)
			return lang.Text{}
		}
	}
	return lang.Msg("write language de (Deutsch: your mails in German) or language en (English)")
}

// setLanguage sets the language of the sender's mails (language …): the
// answer is written in the new language already.
func (h *handling) setLanguage(c Command, reply *draft) error {
	l := lang.Of(c.Arg)
	h.pmeta.Lang = string(l)
	reply.lang = l
	if l == lang.German {
		reply.notice("Your mails are now written in German (language de); moves stay in each variant's notation, and in chess you may also write the German piece letters K, D, T, L and S.")
	} else {
		reply.notice("Your mails are now written in English (language en); moves stay in each variant's notation.")
	}
	return h.savePlayer()
}

// parseSettings reads "settings" (no arguments).
func parseSettings(c *Command, args []string) lang.Text {
	if len(args) != 0 {
		return lang.Msg("settings takes no arguments: it lists your settings")
	}
	return lang.Text{}
}

// boardFormat is the player's board format, spelled out.
func (m *playerMeta) boardFormat() string {
	if m.Board == "" {
		return boardDiagram
	}
	return m.Board
}

// iccf says the player asked for ICCF numeric notation (notation iccf).
func (m *playerMeta) iccf() bool { return m.Notation == notationICCF }

// setBoardFormat sets the sender's board format (board format …).
func (h *handling) setBoardFormat(c Command, reply *draft) error {
	h.pmeta.Board = c.Arg
	if c.Arg == boardDiagram {
		h.pmeta.Board = ""
	}
	what := map[string]lang.Text{
		boardDiagram: lang.Msg("the board drawn as a diagram (text) and a table (HTML)"),
		boardList:    lang.Msg("the pieces in words, side by side, instead of the drawn board (for screen readers)"),
		boardBoth:    lang.Msg("the drawn board and, below it, the pieces in words"),
	}[c.Arg]
	reply.notice("Your board format is now %s: every mail with a board shows %s.", c.Arg, what)
	return h.savePlayer()
}

// setNotation sets the sender's notation (notation …).
func (h *handling) setNotation(c Command, reply *draft) error {
	if c.Arg == notationAlgebraic {
		h.pmeta.Notation = ""
		reply.notice("Your mails show moves in algebraic notation only.")
	} else {
		h.pmeta.Notation = notationICCF
		reply.notice("Your chess mails now show each move in ICCF numeric notation too, after the algebraic (1. e4 (5254)): in the news of a move and the last moves. The records and PGN files stay algebraic. ICCF notation exists for chess only; your games of other variants are not changed.")
	}
	return h.savePlayer()
}

// settings answers with every setting of the sender and the command that
// changes it.
func (h *handling) settings(reply *draft) error {
	if err := h.moveDigests(); err != nil {
		return err
	}
	m := h.pmeta
	d := reply
	name := d.tr("Name: %s. Change: name NAME, or name off.", m.Name)
	if plainName(m.Name) == "" {
		name = d.tr("Name: none chosen (shown as %s). Change: name NAME, or name off.", displayName(h.player))
	}
	notation := d.tr("Notation: algebraic. Change: notation iccf or notation algebraic.")
	if m.iccf() {
		notation = d.tr("Notation: iccf (chess only). Change: notation iccf or notation algebraic.")
	}
	messages := d.tr("Messages from opponents: on. Change: messages off or messages on.")
	if m.Quiet != nil {
		messages = d.tr("Messages from opponents: off. Change: messages off or messages on.")
	}
	zone := "UTC"
	if m.TZ != "" {
		zone = m.location().String()
	}
	used := m.Vacation.Used
	if m.Vacation.Year != h.now.Year() {
		used = 0
	}
	left := h.s.cfg.VacationDays - used
	vacation := d.tr("Vacation: %d days left this year (of %d). Take some: vacation N days.", left, h.s.cfg.VacationDays)
	if m.Vacation.Until.After(h.now) {
		until := timing.FormatDate(m.Vacation.Until.In(m.location()), "Mon 2 Jan 2006 15:04 MST", d.lang)
		vacation = d.tr("Vacation: %d days left this year (of %d), on vacation until %s. Take some: vacation N days.", left, h.s.cfg.VacationDays, until)
	}
	digest := d.tr("Daily digest: off. Change: digest HOUR, digest CRON or digest off.")
	if m.Digest != nil {
		digest = d.tr("Daily digest: %q. Change: digest HOUR, digest CRON or digest off.", m.Digest.Spec)
	}
	l := h.s.language(m)
	lines := []string{
		d.tr("Your settings, each with the command that changes it:"),
		name,
		d.tr("Language: %s (%s). Change: language de or language en.", string(l), l.Name()),
		d.tr("Board format: %s. Change: board format diagram, list or both.", m.boardFormat()),
		notation,
		messages,
		d.tr("Time zone: %s. Change: timezone ZONE, e.g. timezone Europe/Berlin.", zone),
		vacation,
		digest,
	}
	reply.notices = append(reply.notices, lines...)
	return nil
}

// withICCF is a chess move as a player with notation iccf reads it: the
// algebraic text, then the ICCF numeric notation of m played in before
// ("Nf3 (7163)"); text alone for anyone else, another variant or a move
// without an ICCF form.
func withICCF(pm *playerMeta, before rules.State, m rules.Move, text string) string {
	if pm == nil || !pm.iccf() {
		return text
	}
	if n, ok := rules.ICCF(before, m); ok {
		return text + " (" + n + ")"
	}
	return text
}

// metaOf is the settings of a seated player: the sender's as this mail
// changed them, anyone else's as stored.
func (h *handling) metaOf(l *loaded, side int) *playerMeta {
	if p := l.seats[side]; p != nil {
		if h.player != nil && p.ID == h.player.ID {
			return h.pmeta
		}
		return decodePlayerMeta(p)
	}
	return &playerMeta{}
}
